import { createHash, randomBytes } from 'node:crypto';
import { expect, request, test, type APIRequestContext, type Page } from '@playwright/test';
import { setUpEncryption, signIn, type TestPerson } from './auth.js';
import { linkIn, mailSubjects, waitForMail } from './mail.js';

/**
 * Accounts for specs whose subject is not sign-up: the same embedded identity provider and the same
 * endpoints a person's browser uses (an authorization request with `prompt=create`, the sign-up form's
 * POST, the mailed confirmation link), only sent over HTTP instead of rendered and typed into. Specs about
 * sign-up, sign-in and keys keep going through the pages (`signUp`, `signUpReady` in auth.ts).
 */

interface ProviderSettings {
  authority: string;
  clientId: string;
  scopes: string;
  resource: string | null;
}

function baseUrl(): string {
  const { baseURL } = test.info().project.use;
  if (baseURL === undefined) throw new Error('baseURL is not set (see e2e/playwright.config.ts)');
  return baseURL;
}

/** The provider's settings as the web app reads them at start-up. */
async function providerSettings(http: APIRequestContext): Promise<ProviderSettings> {
  const response = await http.get('/api/config');
  expect(response.status()).toBe(200);
  return ((await response.json()) as { oidc: ProviderSettings }).oidc;
}

/**
 * Starts an authorization request for account creation, as the app's "Create account" does, and follows
 * the provider's redirects to its sign-up interaction. Returns the interaction's URL.
 */
async function openSignUpInteraction(http: APIRequestContext, base: string): Promise<string> {
  const settings = await providerSettings(http);
  const discovery = await http.get(`${settings.authority}/.well-known/openid-configuration`);
  expect(discovery.status()).toBe(200);
  const { authorization_endpoint: endpoint } = (await discovery.json()) as { authorization_endpoint: string };
  // PKCE as the app sends it; the code is never redeemed (sign-up ends at "Check your inbox").
  const verifier = randomBytes(32).toString('base64url');
  const params = new URLSearchParams({
    client_id: settings.clientId,
    redirect_uri: `${base}/unlock`,
    response_type: 'code',
    scope: settings.scopes,
    state: randomBytes(16).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    prompt: 'create',
  });
  if (settings.resource !== null) params.set('resource', settings.resource);
  const page = await http.get(`${endpoint}?${params.toString()}`);
  expect(page.status()).toBe(200);
  expect(await page.text()).toContain('Create account');
  return page.url();
}

/**
 * A confirmed account at the embedded identity provider, made over HTTP: the sign-up form's POST, then
 * the confirmation mail's link and its form (with the password, as the page asks). No keys yet. `base`: the
 * server, for callers outside a Playwright test (the Firefox benchmark).
 */
export async function createConfirmedAccount(person: TestPerson, base = baseUrl()): Promise<void> {
  // Its own cookie jar: the browser context of the spec starts as a person's would, signed out.
  const http = await request.newContext({ baseURL: base });
  try {
    const interaction = await openSignUpInteraction(http, base);
    const signUp = await http.post(`${interaction}/signup`, {
      form: {
        name: person.name,
        email: person.email,
        country: person.country,
        password: person.password,
        confirmPassword: person.password,
      },
    });
    expect(signUp.status()).toBe(200);
    expect(await signUp.text()).toContain('Check your inbox');

    const mail = await waitForMail(person.email, mailSubjects.verify);
    const link = new URL(linkIn(mail, `${base}/idp/email/verify?token=`));
    expect((await http.get(link.href)).status()).toBe(200);
    const confirmed = await http.post(link.pathname, {
      form: { token: link.searchParams.get('token') ?? '', password: person.password },
    });
    expect(confirmed.status()).toBe(200);
    expect(await confirmed.text()).toContain('Email address confirmed');
  } finally {
    await http.dispose();
  }
}

/**
 * A ready user on /new for specs whose subject comes after sign-up: the account is made over HTTP
 * (`createConfirmedAccount`), then the person signs in and sets up encryption in the browser, so the
 * keys are made by the app itself.
 */
export async function readyPerson(page: Page, person: TestPerson): Promise<void> {
  await createConfirmedAccount(person);
  await signIn(page, person);
  await setUpEncryption(page, person.masterKey);
  await expect(page).toHaveURL(/\/new$/);
}
