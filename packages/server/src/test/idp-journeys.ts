/**
 * What a person and the web app do at the embedded identity provider, as plain HTTP: sign up, confirm
 * the address from the mailed link, sign in, trade codes for tokens. Shared by the provider's tests.
 */
import { expect } from 'vitest';
import { formOf, linkIn, newAuthRequest, TestBrowser } from './idp-harness.js';
import type { IdpTestApp } from './idp-harness.js';

export interface Person {
  name: string;
  email: string;
  country: string;
  password: string;
}

export interface Tokens {
  access_token: string;
  id_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  scope?: string;
}

let counter = 0;
export function person(overrides: Partial<Person> = {}): Person {
  counter += 1;
  return {
    name: `Person ${counter}`,
    email: `person${counter}-${Date.now()}@example.test`,
    country: 'NL',
    password: `correct horse ${counter}`,
    ...overrides,
  };
}

/** The journeys against the app `current()` returns (read at each call: tests may restart it). */
export function createIdpJourneys(current: () => IdpTestApp) {
  const app = () => current();
  /** The web app's redirect to the authorization endpoint; returns the page the browser lands on. */
  async function authorize(browser: TestBrowser, extra: Record<string, string> = {}) {
    const request = newAuthRequest();
    const url = new URL(`${app().issuer}/auth`);
    url.search = new URLSearchParams({
      client_id: app().clientId,
      response_type: 'code',
      redirect_uri: app().redirectUri,
      scope: 'openid profile email offline_access',
      state: request.state,
      nonce: request.nonce,
      code_challenge: request.challenge,
      code_challenge_method: 'S256',
      ...extra,
    }).toString();
    const landed = await browser.follow(await browser.get(url.href), url.href, app().redirectUri);
    return { request, ...landed };
  }

  /** Follows `response` back to the web app and returns the authorization code it carries. */
  async function codeFrom(
    browser: TestBrowser,
    response: Response,
    from: string,
    state: string,
  ): Promise<string> {
    const { url } = await browser.follow(response, from, app().redirectUri);
    expect(url.startsWith(app().redirectUri)).toBe(true);
    const params = new URL(url).searchParams;
    expect(params.get('error')).toBeNull();
    expect(params.get('state')).toBe(state);
    return params.get('code') ?? '';
  }

  async function token(
    fields: Record<string, string>,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${app().issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: app().clientId, ...fields }).toString(),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function redeem(code: string, verifier: string, extra: Record<string, string> = {}): Promise<Tokens> {
    const { status, body } = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: app().redirectUri,
      code_verifier: verifier,
      ...extra,
    });
    expect(status, JSON.stringify(body)).toBe(200);
    return body as unknown as Tokens;
  }

  async function stats(accessToken: string): Promise<Response> {
    return fetch(`${app().baseUrl}/api/users/stats`, { headers: { authorization: `Bearer ${accessToken}` } });
  }

  /** Fills in the sign-up page (`prompt=create`); returns the page that answers. */
  async function submitSignUp(who: Person, browser = new TestBrowser()): Promise<Response> {
    const { response, url } = await authorize(browser, { prompt: 'create' });
    const html = await response.text();
    expect(html).toContain('Create your Coffer account');
    const form = formOf(html);
    return browser.postForm(new URL(form.action, url).href, {
      name: who.name,
      email: who.email,
      country: who.country,
      password: who.password,
      confirmPassword: who.password,
    });
  }

  /** Opens the newest confirmation link mailed to `who` and confirms it with `password`. */
  async function confirmByMail(who: Person, password = who.password, since = 0): Promise<Response> {
    const mail = await app().mailTo(who.email, 'Confirm your email address', since);
    const browser = new TestBrowser();
    const page = await browser.get(linkIn(mail, '/idp/email/verify'));
    expect(page.status).toBe(200);
    const form = formOf(await page.text());
    return browser.postForm(new URL(form.action, app().baseUrl).href, { ...form.fields, password });
  }

  /** Signs in through the sign-in page; returns the tokens. */
  async function signIn(
    who: Pick<Person, 'email' | 'password'>,
    browser = new TestBrowser(),
  ): Promise<Tokens> {
    const page = await authorize(browser);
    const submitted = await submitSignIn(browser, page, who.email, who.password);
    const code = await codeFrom(browser, submitted.response, submitted.url, page.request.state);
    return redeem(code, page.request.verifier);
  }

  /** Signs up, confirms the address by mail and signs in, as a person would; returns the tokens. */
  async function signUp(who: Person, browser = new TestBrowser()): Promise<Tokens> {
    const since = app().mailer.sent.length;
    const inbox = await submitSignUp(who, browser);
    expect(inbox.status).toBe(200);
    expect(await inbox.text()).toContain('Check your inbox');
    const confirmed = await confirmByMail(who, who.password, since);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('Email address confirmed');
    return signIn(who, browser);
  }

  async function submitSignIn(
    browser: TestBrowser,
    page: { response: Response; url: string },
    email: string,
    password: string,
  ) {
    const form = formOf(await page.response.text());
    const url = new URL(form.action, page.url).href;
    return { response: await browser.postForm(url, { email, password }), url };
  }

  return {
    authorize,
    codeFrom,
    token,
    redeem,
    stats,
    submitSignUp,
    confirmByMail,
    signIn,
    signUp,
    submitSignIn,
  };
}
