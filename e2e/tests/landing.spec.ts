import { expect, test } from '@playwright/test';

test('a visitor sees the landing page and can find sign-in', async ({ page }) => {
  await page.goto('/landing');
  await expect(page).toHaveTitle(/Coffer/);
  await expect(
    page
      .getByRole('button', { name: /log in/i })
      .or(page.getByRole('link', { name: /log in/i }))
      .first(),
  ).toBeVisible();
});

test('an unknown path shows the not-found page', async ({ page }) => {
  await page.goto('/definitely/not/here');
  await expect(page.getByRole('heading', { name: /not found/i })).toBeVisible();
});

test('the API health check answers through the same server', async ({ request }) => {
  const res = await request.get('/api/health');
  expect(res.ok()).toBe(true);
  expect(await res.json()).toMatchObject({ status: 'ok' });
});
