import { expect, test } from '@playwright/test';
import { setUpEncryption } from '../helpers/auth.js';

/**
 * "Continue with Google" on the embedded provider, with a second OpenID provider on loopback playing
 * Google (started by the Playwright config): the federation code runs for real, end to end.
 */
const googleEmail = process.env.COFFER_E2E_GOOGLE_EMAIL ?? 'gina.e2e@gmail.test';

test('sign in with the Google upstream creates the account and lands on /unlock', async ({ page }) => {
  await page.goto('/landing');
  await page
    .getByRole('link', { name: /Log in/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/idp\//);
  await page.getByRole('link', { name: 'Continue with Google' }).click();
  // The fake Google signs its person in at once and sends the browser back through the provider.
  await expect(page).toHaveURL(/\/unlock$/, { timeout: 30_000 });
  await setUpEncryption(page, 'Google-Master-Key-1!');

  await page.goto('/profile');
  await expect(page.getByText(googleEmail).first()).toBeVisible();
  // The identity the app sees says where the person signed in.
  const idp = await page.evaluate(() => {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i) ?? '';
      if (!key.startsWith('oidc.user:')) continue;
      const user = JSON.parse(localStorage.getItem(key) ?? '{}') as { profile?: { idp?: string } };
      return user.profile?.idp ?? null;
    }
    return null;
  });
  expect(idp).toBe('google.com');
});
