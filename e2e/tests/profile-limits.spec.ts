import { expect, test } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import { newPerson } from '../helpers/auth.js';

/** Profile (spec section 2): identity claims, the limits card and the feedback card, on the real server. */

test('shows the personal details, the free tier limits and takes feedback', async ({ page }) => {
  const person = newPerson('profile');
  await readyPerson(page, person);
  await page.goto('/profile');

  await expect(page.getByRole('heading', { level: 1, name: person.name })).toBeVisible();
  const details = page.getByRole('region', { name: 'Personal Details' });
  await expect(details.getByText(person.name, { exact: true })).toBeVisible();
  await expect(details.getByText(person.email, { exact: true })).toBeVisible();
  await expect(details.getByText('Germany')).toBeVisible();

  const limits = page.getByRole('region', { name: 'Limits' });
  await expect(limits.getByText('Free Tier')).toBeVisible();
  await expect(limits.getByText(/ of \d+(\.\d+)? GB$/)).toBeVisible();
  await expect(limits.getByText('0% used')).toBeVisible();
  await expect(limits.getByText(/^0 \/ \d+$/).first()).toBeVisible();
  await expect(limits.getByText('Next billing date')).toHaveCount(0);
  await expect(limits.getByRole('button', { name: 'Upgrade' })).toBeEnabled();

  const feedback = page.getByRole('region', { name: 'Provide Feedback' });
  await expect(feedback.getByText('0/2000')).toBeVisible();
  await feedback.getByRole('button', { name: 'Send feedback' }).click();
  await expect(feedback.getByText('Please enter your feedback')).toBeVisible();
  await feedback.getByLabel('Your feedback').fill('x'.repeat(2001));
  await expect(feedback.getByText('2001/2000')).toBeVisible();
  await expect(feedback.getByText('Feedback exceeds maximum length of 2000 characters')).toBeVisible();
  await feedback.getByLabel('Your feedback').fill('The limits card is clear.');
  await feedback.getByRole('button', { name: 'Send feedback' }).click();
  await expect(
    page.locator('.mantine-Notification-root').filter({ hasText: 'Thank you for your feedback!' }),
  ).toBeVisible();
  await expect(feedback.getByLabel('Your feedback')).toHaveValue('');
});
