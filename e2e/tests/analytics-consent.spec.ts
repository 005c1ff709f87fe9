import { expect, test, type Page, type Request } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import { newPerson } from '../helpers/auth.js';

/**
 * Issue 15, point 15: with analytics configured, nothing is sent (and the PostHog library is not
 * even loaded) until the person agrees; the prompt can be closed without an answer; Profile's switch
 * changes the answer later. The server of the browser suite has no POSTHOG_KEY, so the test answers
 * GET /api/config with analytics settings whose host is a path of the app's own origin (the CSP's
 * connect-src 'self' allows it) and records what reaches that path.
 */

const ANALYTICS_PATH = '/e2e-analytics';

// PostHog drops the events of browsers that look automated (a HeadlessChrome user agent or brand,
// navigator.webdriver): this page presents itself as a person's browser.
test.use({
  userAgent:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
});

/** Configures analytics for this page and returns the requests sent to the analytics host. */
async function withAnalyticsConfigured(page: Page): Promise<{
  sent: Request[];
  libraryLoaded: () => boolean;
  /** From now on requests count as made after consent. */
  consented: () => void;
  /** Requests made before consent to the analytics host or for a script that turned out to be PostHog. */
  beforeConsent: () => string[];
}> {
  const sent: Request[] = [];
  let library = false;
  let consent = false;
  // Every script request, in order, with whether consent had been given; which of them hold PostHog is
  // known only once its body has been read, so the check runs at the end, over all of them.
  const scripts: { url: string; consent: boolean }[] = [];
  const posthogScripts = new Set<string>();
  const sentBefore: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push({ url: request.url(), consent });
  });
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false });
    Object.defineProperty(Navigator.prototype, 'userAgentData', { get: () => undefined });
  });
  await page.route('**/api/config', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as Record<string, unknown>;
    const origin = new URL(route.request().url()).origin;
    await route.fulfill({
      response,
      json: { ...body, analytics: { key: 'phc_e2e_consent', host: `${origin}${ANALYTICS_PATH}` } },
    });
  });
  await page.route(`**${ANALYTICS_PATH}/**`, async (route) => {
    sent.push(route.request());
    if (!consent) sentBefore.push(route.request().url());
    await route.fulfill({ status: 200, contentType: 'application/json', body: '{"status":1}' });
  });
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    void response
      .body()
      .then((body) => {
        if (!body.includes('PostHog')) return;
        library = true;
        posthogScripts.add(response.url());
      })
      .catch(() => undefined);
  });
  return {
    sent,
    libraryLoaded: () => library,
    consented: () => {
      consent = true;
    },
    beforeConsent: () => [
      ...sentBefore,
      ...scripts.filter((script) => !script.consent && posthogScripts.has(script.url)).map((s) => s.url),
    ],
  };
}

function consentPrompt(page: Page) {
  return page.getByRole('region', { name: 'Help improve Coffer' });
}

test('nothing is sent before consent; the prompt can wait; Profile turns analytics on', async ({ page }) => {
  const analytics = await withAnalyticsConfigured(page);

  // A visitor: the prompt asks, nothing is sent, the library is not loaded.
  await page.goto('/landing');
  const prompt = consentPrompt(page);
  await expect(prompt).toBeVisible();
  await expect(
    prompt.getByText('May Coffer count which features are used? Only anonymous usage events are sent'),
  ).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(analytics.sent).toHaveLength(0);
  expect(analytics.libraryLoaded()).toBe(false);

  // "Decide later" closes it for this visit only.
  await prompt.getByRole('button', { name: 'Decide later' }).click();
  await expect(prompt).toBeHidden();
  await page.reload();
  await expect(prompt).toBeVisible();

  // Signed in, set up and around the app without an answer, then "No thanks": still nothing sent.
  await readyPerson(page, newPerson('consent'));
  await expect(prompt).toBeVisible();
  await prompt.getByRole('button', { name: 'No thanks' }).click();
  await expect(prompt).toBeHidden();
  await page.getByRole('link', { name: 'My Files' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'My Files' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(analytics.sent).toHaveLength(0);
  expect(analytics.libraryLoaded()).toBe(false);

  // The answer holds across a reload: no prompt.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'My Files' })).toBeVisible();
  await expect(prompt).toBeHidden();

  // Profile's switch changes it: now the library loads and events go out.
  await page.goto('/profile');
  const consentSwitch = page.getByRole('switch', { name: 'Share anonymous usage statistics' });
  await expect(consentSwitch).not.toBeChecked();
  expect(analytics.sent).toHaveLength(0);
  analytics.consented();
  await consentSwitch.check({ force: true });
  await expect(consentSwitch).toBeChecked();
  await page.getByRole('link', { name: 'My Files' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'My Files' })).toBeVisible();
  await expect.poll(() => analytics.libraryLoaded(), { timeout: 30_000 }).toBe(true);
  await expect.poll(() => analytics.sent.length, { timeout: 30_000 }).toBeGreaterThan(0);
  // Now that the PostHog script is known: it was never asked for, and nothing was sent, before consent.
  expect(analytics.beforeConsent()).toEqual([]);
});
