import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { formOf, freePort, startFakeGoogle, startIdpTestApp, TestBrowser } from '../../test/idp-harness.js';
import type { FakeGoogle, IdpTestApp } from '../../test/idp-harness.js';
import { createIdpJourneys, person } from '../../test/idp-journeys.js';
import type { Tokens } from '../../test/idp-journeys.js';

/*
 * One app per dialect, shared by the tests: each test makes its own people. All requests come from
 * 127.0.0.1, so the per-IP limit is raised here (idp.attacks.int.test.ts tests it).
 */
describe.each(dialectsUnderTest)('embedded identity provider ($name)', ({ name, open }) => {
  let database: TestDatabase | undefined;
  let t: IdpTestApp;
  let google: FakeGoogle;

  beforeAll(async () => {
    // SQLite: the app's own file in its data dir (what a restart reopens); PostgreSQL: an injected one.
    database = name === 'sqlite' ? undefined : await open();
    const port = await freePort();
    google = await startFakeGoogle(`http://127.0.0.1:${port}/idp/federation/google/callback`);
    t = await startIdpTestApp({
      port,
      ...(database === undefined ? {} : { database }),
      env: {
        // Every person here signs up, confirms and signs in from 127.0.0.1; the IP limit has its own file.
        IDP_ATTEMPTS_PER_IP: '500',
        GOOGLE_CLIENT_ID: google.clientId,
        GOOGLE_CLIENT_SECRET: google.clientSecret,
        GOOGLE_ISSUER: google.issuer,
      },
    });
  });

  afterAll(async () => {
    await t.close();
    await google.close();
    await database?.destroy();
  });

  const { authorize, codeFrom, token, redeem, stats, submitSignUp, signIn, signUp, submitSignIn } =
    createIdpJourneys(() => t);

  it('publishes discovery for the web app', async () => {
    const response = await fetch(`${t.issuer}/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as Record<string, unknown>;
    expect(document).toMatchObject({
      issuer: t.issuer,
      authorization_endpoint: `${t.issuer}/auth`,
      token_endpoint: `${t.issuer}/token`,
      end_session_endpoint: `${t.issuer}/session/end`,
      jwks_uri: `${t.issuer}/jwks`,
      code_challenge_methods_supported: ['S256'],
    });
    expect(document.prompt_values_supported).toEqual(expect.arrayContaining(['create', 'login']));
    expect(document.claims_supported).toEqual(
      expect.arrayContaining(['name', 'email', 'email_verified', 'emails', 'country', 'idp']),
    );
  });

  it('signs up, and issues a JWT access token for the API that the API accepts', async () => {
    const alice = person({ name: 'Alice Example', country: 'DE' });
    const tokens = await signUp(alice);
    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.refresh_token).toEqual(expect.any(String));

    const jwks = createRemoteJWKSet(new URL(`${t.issuer}/jwks`));
    const { payload: access, protectedHeader } = await jwtVerify(tokens.access_token, jwks, {
      issuer: t.issuer,
      audience: t.audience,
    });
    expect(protectedHeader.alg).toBe('RS256');
    expect(protectedHeader.typ).toBe('at+jwt');
    expect(access).toMatchObject({
      aud: `${t.baseUrl}/api`,
      client_id: t.clientId,
      name: 'Alice Example',
      email: alice.email,
      email_verified: true,
      emails: [alice.email],
      country: 'DE',
      idp: 'local',
    });
    const { payload: id } = await jwtVerify(tokens.id_token, jwks, {
      issuer: t.issuer,
      audience: t.clientId,
    });
    expect(id).toMatchObject({
      sub: access.sub,
      name: 'Alice Example',
      email: alice.email,
      country: 'DE',
      idp: 'local',
    });

    const response = await stats(tokens.access_token);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ subscription: { tier: 'Free' } });
  });

  it('signs in with the password, and says so clearly when it is wrong', async () => {
    const bob = person();
    await signUp(bob);
    const browser = new TestBrowser();
    const page = await authorize(browser, { login_hint: bob.email });
    expect(page.url).toMatch(/\/idp\/interaction\/[^/]+$/);
    const html = await page.response.clone().text();
    expect(html).toContain('Sign in to Coffer');
    expect(html).toContain(`value="${bob.email}"`);

    const wrong = await submitSignIn(browser, page, bob.email, 'not the password');
    expect(wrong.response.status).toBe(401);
    const wrongHtml = await wrong.response.text();
    expect(wrongHtml).toContain('Incorrect email or password.');
    expect(wrongHtml).toContain('role="alert"');

    const right = await browser.postForm(wrong.url, {
      email: bob.email.toUpperCase(),
      password: bob.password,
    });
    const code = await codeFrom(browser, right, wrong.url, page.request.state);
    const tokens = await redeem(code, page.request.verifier, { resource: t.audience });
    expect(decodeJwt(tokens.access_token)).toMatchObject({ email: bob.email, aud: t.audience });
  });

  it('answers a sign-up with a taken address exactly like a new one, and tells the owner by mail', async () => {
    const carol = person();
    await signUp(carol);
    const other = person();
    const fresh = await submitSignUp(other);
    const since = t.mailer.sent.length;
    const again = await submitSignUp({ ...carol, name: 'Another Carol', email: carol.email.toUpperCase() });
    expect(again.status).toBe(fresh.status);
    const strip = (html: string, email: string) =>
      html.replaceAll(email, 'EMAIL').replace(/interaction\/[^/"]+/g, 'I');
    expect(strip(await again.text(), carol.email)).toBe(strip(await fresh.text(), other.email));
    const notice = await t.mailTo(carol.email, 'You already have a Coffer account', since);
    expect(notice.text).not.toContain('/idp/email/verify');
    // The owner's password still works; the other one does not.
    expect((await signIn(carol)).access_token).toEqual(expect.any(String));
  });

  it('explains invalid sign-up input field by field', async () => {
    const browser = new TestBrowser();
    const { response, url } = await authorize(browser, { prompt: 'create' });
    const form = formOf(await response.text());
    const posted = await browser.postForm(new URL(form.action, url).href, {
      name: ' ',
      email: 'not-an-email',
      country: 'XX',
      password: 'short',
      confirmPassword: 'short',
    });
    expect(posted.status).toBe(400);
    const html = await posted.text();
    for (const message of [
      'Enter your name.',
      'Enter a valid email address.',
      'Choose your country.',
      'Password must be at least 8 characters.',
    ]) {
      expect(html).toContain(message);
    }
    expect(html).toContain('aria-invalid="true"');
  });

  it('rate-limits failed sign-ins per account, with a clear message', async () => {
    const dave = person();
    await signUp(dave);
    const browser = new TestBrowser();
    const page = await authorize(browser);
    const first = await submitSignIn(browser, page, dave.email, 'wrong 1');
    expect(first.response.status).toBe(401);
    for (let attempt = 2; attempt <= 5; attempt += 1) {
      const response = await browser.postForm(first.url, { email: dave.email, password: `wrong ${attempt}` });
      expect(response.status).toBe(401);
      await response.body?.cancel();
    }
    // Even the right password waits now, from this address: 30 s, doubling with each further miss.
    const limited = await browser.postForm(first.url, { email: dave.email, password: dave.password });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    const html = await limited.text();
    expect(html).toContain(
      'Too many sign-in attempts. Please wait 30 seconds and try again, or reset your password.',
    );
    expect(html).toContain('Reset your password');
  });

  it('refreshes without a browser, rotating the refresh token', async () => {
    const erin = person();
    const first = await signUp(erin);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    const body = refreshed.body as unknown as Tokens;
    expect(body.refresh_token).not.toBe(first.refresh_token);
    expect(decodeJwt(body.access_token)).toMatchObject({ aud: t.audience, email: erin.email, idp: 'local' });
    expect((await stats(body.access_token)).status).toBe(200);

    // With the resource named (as the web app does) it works the same.
    const named = await token({
      grant_type: 'refresh_token',
      refresh_token: body.refresh_token,
      resource: t.audience,
    });
    expect(named.status, JSON.stringify(named.body)).toBe(200);

    // A rotated-out token is refused.
    const reused = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
  });

  it('logs out through end_session with a visible button, and revokes the refresh token', async () => {
    const frank = person();
    const browser = new TestBrowser();
    const tokens = await signUp(frank, browser);
    const url = new URL(`${t.issuer}/session/end`);
    // Without an ID token hint (the app's own Logout sends one: idp.logout.int.test.ts), it asks.
    url.search = new URLSearchParams({
      client_id: t.clientId,
      post_logout_redirect_uri: `${t.baseUrl}/landing`,
      state: 'bye',
    }).toString();
    const page = await browser.get(url.href);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('Sign out of Coffer?');
    expect(html).not.toContain('<script');
    const form = formOf(html);
    const confirmed = await browser.postForm(new URL(form.action, url).href, {
      ...form.fields,
      logout: 'yes',
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`${t.baseUrl}/landing?state=bye`);

    const refresh = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refresh.body.error).toBe('invalid_grant');
    // The provider's session is gone too: signing in asks for the password again.
    const again = await authorize(browser);
    expect(await again.response.text()).toContain('Sign in to Coffer');
  });

  it('keeps keys, sessions and refresh tokens across a restart', async () => {
    const grace = person();
    const browser = new TestBrowser();
    const tokens = await signUp(grace, browser);
    const jwksBefore: unknown = await (await fetch(`${t.issuer}/jwks`)).json();

    await t.restart();

    expect(await (await fetch(`${t.issuer}/jwks`)).json()).toEqual(jwksBefore);
    expect((await stats(tokens.access_token)).status).toBe(200);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    // Still signed in at the provider: straight back to the app.
    const { request, response, url } = await authorize(browser);
    const code = await codeFrom(browser, response, url, request.state);
    expect(decodeJwt((await redeem(code, request.verifier)).access_token).email).toBe(grace.email);
  });

  describe('Google', () => {
    async function viaGoogle(browser: TestBrowser) {
      const page = await authorize(browser);
      const html = await page.response.text();
      expect(html).toContain('Continue with Google');
      const href = /href="([^"]*\/google)"/.exec(html)?.[1];
      expect(href).toBeDefined();
      const start = new URL(href ?? '', page.url).href;
      const started = await browser.get(start);
      expect(started.headers.get('location')?.startsWith(`${google.issuer}/auth?`)).toBe(true);
      return { ...page, started, start };
    }

    it('creates an account from verified Google claims', async () => {
      google.user = {
        sub: 'g-100',
        email: 'Hana@Gmail.test',
        email_verified: true,
        given_name: 'Hana',
        family_name: 'Sato',
      };
      const browser = new TestBrowser();
      const { request, started, start } = await viaGoogle(browser);
      const code = await codeFrom(browser, started, start, request.state);
      const tokens = await redeem(code, request.verifier);
      expect(decodeJwt(tokens.access_token)).toMatchObject({
        email: 'hana@gmail.test',
        email_verified: true,
        name: 'Hana Sato',
        idp: 'google.com',
      });
      expect(decodeJwt(tokens.id_token)).toMatchObject({ idp: 'google.com', email: 'hana@gmail.test' });
      expect((await stats(tokens.access_token)).status).toBe(200);
      // The refreshed token still says how the person signed in.
      const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
      expect(decodeJwt((refreshed.body as unknown as Tokens).access_token).idp).toBe('google.com');
    });

    it('links Google to the local account with the same verified email', async () => {
      const ivan = person();
      const local = decodeJwt((await signUp(ivan)).access_token);
      google.user = { sub: 'g-200', email: ivan.email, email_verified: true, name: 'Ivan at Google' };
      const browser = new TestBrowser();
      const { request, started, start } = await viaGoogle(browser);
      const code = await codeFrom(browser, started, start, request.state);
      const federated = decodeJwt((await redeem(code, request.verifier)).access_token);
      expect(federated.sub).toBe(local.sub);
      expect(federated).toMatchObject({ name: ivan.name, idp: 'google.com' });
    });

    it('refuses a Google account whose email is not verified', async () => {
      google.user = {
        sub: 'g-300',
        email: 'unverified@gmail.test',
        email_verified: false,
        name: 'Unverified',
      };
      const browser = new TestBrowser();
      const { started, start } = await viaGoogle(browser);
      const { response, url } = await browser.follow(started, start, t.redirectUri);
      expect(url).toContain('/idp/federation/google/callback');
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('email address is not verified');
    });

    it('refuses a callback from another browser (state cookie missing)', async () => {
      google.user = { sub: 'g-400', email: 'other@gmail.test', email_verified: true, name: 'Other' };
      const browser = new TestBrowser();
      const { started } = await viaGoogle(browser);
      const googleUrl = started.headers.get('location') ?? '';
      // Sign in at "Google" in this browser, but deliver the callback to a fresh one.
      const atGoogle = await browser.follow(
        await browser.get(googleUrl),
        googleUrl,
        `${t.issuer}/federation`,
      );
      expect(atGoogle.url).toContain('/idp/federation/google/callback');
      const stranger = await new TestBrowser().get(atGoogle.url);
      expect(stranger.status).toBe(400);
      expect(await stranger.text()).toContain('expired');
    });
  });
});
