/**
 * Issue 12's attacks on identity, each tried as an attacker would against the whole app (embedded
 * provider + API) on SQLite and PostgreSQL, and shown to fail; plus the positive journeys they must
 * not break. docs/threat-model.md points at these tests.
 */
import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildKeyRequest } from '../../test/factories.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { formOf, linkIn, startIdpTestApp, TestBrowser } from '../../test/idp-harness.js';
import type { IdpTestApp } from '../../test/idp-harness.js';
import { createIdpJourneys, person } from '../../test/idp-journeys.js';
import type { Person } from '../../test/idp-journeys.js';
import { createIdpAccountsRepo } from './idp.accounts.repo.js';
import { UNCONFIRMED_ACCOUNT_TTL_MS } from './idp.plugin.js';

const ADMIN = 'boss@corp.example';

describe.each(dialectsUnderTest)('identity attacks ($name)', ({ open }) => {
  let database: TestDatabase;
  let t: IdpTestApp;
  const { authorize, submitSignIn, submitSignUp, confirmByMail, signIn, signUp, token } = createIdpJourneys(
    () => t,
  );

  beforeAll(async () => {
    database = await open();
    t = await startIdpTestApp({ database, env: { ADMIN_EMAILS: ADMIN, IDP_ATTEMPTS_PER_IP: '500' } });
  });
  afterAll(async () => {
    await t.close();
    await database.destroy();
  });

  async function api(accessToken: string, method: string, path: string, body?: unknown) {
    const response = await fetch(`${t.baseUrl}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${accessToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text === '' ? null : (JSON.parse(text) as Record<string, unknown>),
    };
  }

  /** Signs up without confirming, then signs in with the password: what a squatter can get. */
  async function squat(who: Person) {
    expect((await submitSignUp(who)).status).toBe(200);
    return signIn(who);
  }

  it('admin by sign-up: an unconfirmed ADMIN_EMAILS address gets no admin rights', async () => {
    const attacker = person({ email: ADMIN, name: 'Totally The Boss' });
    const tokens = await squat(attacker);
    expect(decodeJwt(tokens.access_token)).toMatchObject({ email: ADMIN, email_verified: false });
    expect(await api(tokens.access_token, 'GET', '/users/me')).toMatchObject({
      status: 200,
      body: { email: ADMIN, emailVerified: false, isAdmin: false, canResendVerification: true },
    });
    expect((await api(tokens.access_token, 'GET', '/admin/feedback')).status).toBe(403);
  });

  it('share interception by pre-registration: the squatter gets no key, no share, and loses the account to the owner', async () => {
    const alice = person();
    const aliceTokens = await signUp(alice);
    expect((await api(aliceTokens.access_token, 'POST', '/users/keys', await buildKeyRequest())).status).toBe(
      201,
    );
    const ceo = 'ceo@corp.example';
    await api(aliceTokens.access_token, 'POST', '/users/contacts', { email: ceo, name: 'CEO' });

    // The attacker signs up first with the CEO's address and tries to set up encryption.
    const attacker = person({ email: ceo, password: 'attacker password 1' });
    const squatter = await squat(attacker);
    const keys = await api(squatter.access_token, 'POST', '/users/keys', await buildKeyRequest());
    expect(keys).toMatchObject({ status: 403, body: { code: 'EMAIL_NOT_VERIFIED' } });
    expect((await api(aliceTokens.access_token, 'GET', `/users/keys/public/${ceo}`)).status).toBe(404);
    expect((await api(squatter.access_token, 'POST', '/users/invitations', { to: alice.email })).status).toBe(
      403,
    );

    // The real CEO signs up too (same page, same answer), confirms from the mailbox with their password.
    const owner = person({ email: ceo, name: 'Real CEO', password: 'owner password 1' });
    const since = t.mailer.sent.length;
    expect((await submitSignUp(owner)).status).toBe(200);
    // The squatter's password does not confirm the owner's link.
    expect((await confirmByMail(owner, attacker.password, since)).status).toBe(401);
    const confirmed = await confirmByMail(owner, owner.password, since);
    expect(confirmed.status).toBe(200);

    // The squatter is out: password refused, refresh token dead.
    const browser = new TestBrowser();
    const page = await authorize(browser);
    expect((await submitSignIn(browser, page, ceo, attacker.password)).response.status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: squatter.refresh_token })).status).toBe(
      400,
    );

    const ownerTokens = await signIn(owner);
    expect(decodeJwt(ownerTokens.access_token)).toMatchObject({
      email: ceo,
      email_verified: true,
      name: 'Real CEO',
    });
    expect((await api(ownerTokens.access_token, 'POST', '/users/keys', await buildKeyRequest())).status).toBe(
      201,
    );
    expect((await api(aliceTokens.access_token, 'GET', `/users/keys/public/${ceo}`)).status).toBe(200);
  });

  it('a confirmation link cannot be confirmed without the password, and works once', async () => {
    const who = person();
    const since = t.mailer.sent.length;
    await submitSignUp(who);
    expect((await confirmByMail(who, 'not the password', since)).status).toBe(401);
    expect((await confirmByMail(who, who.password, since)).status).toBe(200);
    const again = await new TestBrowser().get(
      linkIn(await t.mailTo(who.email, 'Confirm', since), '/idp/email/verify'),
    );
    expect(again.status).toBe(410);
  });

  it('look-alike and plus addresses: mixed scripts are refused at sign-up, plus-addresses stay distinct', async () => {
    // "аdmin" with a Cyrillic а.
    const lookAlike = await submitSignUp(person({ email: '\u0430dmin@corp.example' }));
    expect(lookAlike.status).toBe(400);
    expect(await lookAlike.text()).toContain('mixes letters from different alphabets');

    const owner = person({ email: `owner-${Date.now()}@corp.example` });
    const ownerTokens = await signUp(owner);
    await api(ownerTokens.access_token, 'POST', '/users/keys', await buildKeyRequest());
    const plus = owner.email.replace('@', '+x@');
    const lookup = await api(
      ownerTokens.access_token,
      'GET',
      `/users/keys/public/${encodeURIComponent(plus)}`,
    );
    expect(lookup.status).toBe(404);
    // Case and Unicode form do not make another address.
    const upper = await api(
      ownerTokens.access_token,
      'GET',
      `/users/keys/public/${owner.email.toUpperCase()}`,
    );
    expect(upper.status).toBe(200);
  });

  it('Host-poisoned discovery: endpoints come from PUBLIC_URL only, whatever the headers say', async () => {
    const response = await fetch(`${t.issuer}/.well-known/openid-configuration`, {
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    });
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.issuer).toBe(t.issuer);
    for (const key of ['authorization_endpoint', 'token_endpoint', 'jwks_uri', 'end_session_endpoint']) {
      expect(String(body[key])).toMatch(new RegExp(`^${t.issuer}/`));
    }
    expect(JSON.stringify(body)).not.toContain('evil.example');
  });

  it('password reset by mail: the old password and every sign-in end; the page never says whether an address exists', async () => {
    const who = person();
    const first = await signUp(who);
    expect((await api(first.access_token, 'GET', '/users/stats')).status).toBe(200);
    const browser = new TestBrowser();
    const page = await authorize(browser);
    const forgotHref = /href="([^"]*\/forgot)"/.exec(await page.response.text())?.[1] ?? '';
    const forgotUrl = new URL(forgotHref, page.url).href;
    expect((await browser.get(forgotUrl)).status).toBe(200);

    const since = t.mailer.sent.length;
    const known = await browser.postForm(forgotUrl, { email: who.email });
    const unknown = await browser.postForm(forgotUrl, { email: `nobody-${Date.now()}@example.test` });
    expect(known.status).toBe(unknown.status);
    const knownHtml = (await known.text()).replaceAll(who.email, 'E');
    expect(knownHtml).toBe((await unknown.text()).replace(/nobody-\d+@example\.test/g, 'E'));

    const mail = await t.mailTo(who.email, 'Reset your Coffer password', since);
    const resetPage = await new TestBrowser().get(linkIn(mail, '/idp/password/reset'));
    const form = formOf(await resetPage.text());
    const newPassword = 'a brand new password';
    const done = await new TestBrowser().postForm(new URL(form.action, t.baseUrl).href, {
      ...form.fields,
      password: newPassword,
      confirmPassword: newPassword,
    });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Password changed');

    expect((await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).status).toBe(
      400,
    );
    // The access token issued before the reset (still within its 15 minutes) is refused by the API too.
    expect((await api(first.access_token, 'GET', '/users/stats')).status).toBe(401);
    const retryBrowser = new TestBrowser();
    const retry = await authorize(retryBrowser);
    const old = await submitSignIn(retryBrowser, retry, who.email, who.password);
    expect(old.response.status).toBe(401);
    expect(decodeJwt((await signIn({ email: who.email, password: newPassword })).access_token).email).toBe(
      who.email,
    );
    // The link worked once.
    expect((await new TestBrowser().get(linkIn(mail, '/idp/password/reset'))).status).toBe(410);
  });

  it('the app resends the confirmation mail, a few times an hour at most', async () => {
    const who = person();
    const tokens = await squat(who);
    const since = t.mailer.sent.length;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      statuses.push((await api(tokens.access_token, 'POST', '/users/me/verification-email')).status);
    }
    // One mail went at sign-up: four more are allowed, then the limit.
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    await t.mailTo(who.email, 'Confirm your email address', since);
  });

  it('an account that is never confirmed expires', async () => {
    const who = person();
    await submitSignUp(who);
    const accounts = createIdpAccountsRepo(database.db);
    expect(await accounts.findCredentialsByEmail(who.email)).toBeDefined();
    await accounts.deleteUnconfirmedBefore(new Date(Date.now() + UNCONFIRMED_ACCOUNT_TTL_MS));
    expect(await accounts.findCredentialsByEmail(who.email)).toBeUndefined();
  });
});

describe.each(dialectsUnderTest)('sign-in rate limits ($name)', ({ open }) => {
  // A database per test: the limits are kept there, and each test starts from none.
  let database: TestDatabase;

  beforeEach(async () => {
    database = await open();
  });
  afterEach(() => database.destroy());

  async function postSignIns(t: IdpTestApp, count: number, forwardedFor: (i: number) => string) {
    const { authorize } = createIdpJourneys(() => t);
    const browser = new TestBrowser();
    const page = await authorize(browser);
    const form = formOf(await page.response.text());
    const url = new URL(form.action, page.url).href;
    const statuses: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const response = await browser.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor(i) },
        body: new URLSearchParams({ email: `nobody${i}@example.test`, password: 'guess' }).toString(),
      });
      statuses.push(response.status);
      await response.body?.cancel();
    }
    return statuses;
  }

  it('a new X-Forwarded-For per request does not reset the per-IP limit when no proxy is trusted', async () => {
    const t = await startIdpTestApp({ database, env: { IDP_ATTEMPTS_PER_IP: '3' } });
    try {
      const statuses = await postSignIns(t, 5, (i) => `203.0.113.${i + 1}`);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await t.close();
    }
  });

  it('behind a trusted proxy, a guesser from one address does not lock the owner out', async () => {
    const t = await startIdpTestApp({
      database,
      env: { IDP_ATTEMPTS_PER_IP: '50', TRUST_PROXY: '127.0.0.1' },
    });
    const { signUp: register, authorize } = createIdpJourneys(() => t);
    try {
      const owner = person();
      await register(owner);
      const browser = new TestBrowser();
      const page = await authorize(browser);
      const url = new URL(formOf(await page.response.text()).action, page.url).href;
      const attempt = async (from: string, password: string) => {
        const response = await browser.fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': from },
          body: new URLSearchParams({ email: owner.email, password }).toString(),
        });
        await response.body?.cancel();
        return response.status;
      };
      const attacker: number[] = [];
      for (let i = 0; i < 7; i += 1) attacker.push(await attempt('198.51.100.7', `guess ${i}`));
      // Five misses, then the attacker's address waits (and each further miss waits longer).
      expect(attacker).toEqual([401, 401, 401, 401, 401, 429, 429]);
      // The owner, from their own address, signs in at once.
      expect(await attempt('192.0.2.44', owner.password)).toBe(303);
    } finally {
      await t.close();
    }
  });
});
