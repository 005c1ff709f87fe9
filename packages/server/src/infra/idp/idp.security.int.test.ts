import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { formOf, startIdpTestApp, TestBrowser } from '../../test/idp-harness.js';
import type { IdpTestApp } from '../../test/idp-harness.js';
import { createIdpJourneys, person } from '../../test/idp-journeys.js';
import type { Person, Tokens } from '../../test/idp-journeys.js';
import { SoftwareAuthenticator } from '../../test/webauthn-authenticator.js';
import type { CreationOptions, RequestOptions } from '../../test/webauthn-authenticator.js';
import { totpCodeAt } from './idp.totp.js';

/*
 * The embedded provider's second factors and sessions, over HTTP as a browser and the web app use
 * them: TOTP (and its recovery codes), passkeys with a software authenticator, and "sign out
 * everywhere". Each attack test names the defence that makes it fail.
 */
describe.each(dialectsUnderTest)('identity provider security ($name)', ({ name, open }) => {
  let database: TestDatabase | undefined;
  let t: IdpTestApp;

  beforeAll(async () => {
    database = name === 'sqlite' ? undefined : await open();
    t = await startIdpTestApp({
      ...(database === undefined ? {} : { database }),
      env: { IDP_ATTEMPTS_PER_IP: '1000' },
    });
  });

  afterAll(async () => {
    await t.close();
    await database?.destroy();
  });

  const { authorize, codeFrom, redeem, signIn, signUp, stats, submitSignIn, token } = createIdpJourneys(
    () => t,
  );

  const account = () => `${t.issuer}/account`;

  /** The security page in `browser` (signed in at the provider), and its CSRF token. */
  async function securityPage(browser: TestBrowser): Promise<{ html: string; csrf: string }> {
    const page = await browser.get(account());
    expect(page.status).toBe(200);
    const html = await page.text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
    expect(csrf).toBeDefined();
    return { html, csrf: csrf ?? '' };
  }

  /** Turns TOTP on from the security page; returns the secret and the recovery codes shown. */
  async function enrolTotp(browser: TestBrowser) {
    const { csrf } = await securityPage(browser);
    const started = await browser.postForm(`${account()}/totp/start`, { csrf });
    expect(started.status).toBe(200);
    const enrolHtml = await started.text();
    expect(enrolHtml).toContain('<svg');
    const secret = (/<code class="secret"[^>]*>([^<]+)<\/code>/.exec(enrolHtml)?.[1] ?? '').replaceAll(
      ' ',
      '',
    );
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const confirmed = await browser.postForm(`${account()}/totp/confirm`, {
      csrf,
      code: totpCodeAt(secret, new Date()),
    });
    expect(confirmed.status).toBe(200);
    const codesHtml = await confirmed.text();
    const codes = [...codesHtml.matchAll(/<li>([a-z2-9]{4}(?:-[a-z2-9]{4}){3})<\/li>/g)].map(
      (m) => m[1] ?? '',
    );
    expect(codes).toHaveLength(10);
    return { secret, codes };
  }

  /** Email and password in a fresh browser; returns where the second step is. */
  async function passwordStep(who: Person, browser = new TestBrowser()) {
    const page = await authorize(browser);
    const submitted = await submitSignIn(browser, page, who.email, who.password);
    expect(submitted.response.status).toBe(303);
    const location = new URL(submitted.response.headers.get('location') ?? '', submitted.url).href;
    expect(location).toMatch(/\/second-factor$/);
    const second = await browser.get(location);
    expect(second.status).toBe(200);
    const html = await second.text();
    expect(html).toContain('Two-step verification');
    return { browser, page, location, html };
  }

  async function submitCode(step: Awaited<ReturnType<typeof passwordStep>>, code: string) {
    const url = new URL(formOf(step.html).action, step.location).href;
    return { response: await step.browser.postForm(url, { code }), url };
  }

  async function tokensAfter(
    step: Awaited<ReturnType<typeof passwordStep>>,
    sent: { response: Response; url: string },
  ) {
    const code = await codeFrom(step.browser, sent.response, sent.url, step.page.request.state);
    return redeem(code, step.page.request.verifier);
  }

  /** A code of the next time step: the enrolment spent the current one. */
  const nextCode = (secret: string) => totpCodeAt(secret, new Date(Date.now() + 30_000));

  it('asks for the TOTP code after the password, and mails the owner when it is turned on', async () => {
    const ann = person();
    const browser = new TestBrowser();
    const since = t.mailer.sent.length;
    await signUp(ann, browser);
    const { secret } = await enrolTotp(browser);
    await t.mailTo(ann.email, 'Two-step verification is on', since);

    const step = await passwordStep(ann);
    const tokens = await tokensAfter(step, await submitCode(step, nextCode(secret)));
    expect(decodeJwt(tokens.access_token)).toMatchObject({ email: ann.email, idp: 'local' });
    expect((await stats(tokens.access_token)).status).toBe(200);
  });

  it('refuses a TOTP code used once already (replay within its window)', async () => {
    const ben = person();
    const browser = new TestBrowser();
    await signUp(ben, browser);
    const { secret } = await enrolTotp(browser);
    const code = nextCode(secret);

    const first = await passwordStep(ben);
    await tokensAfter(first, await submitCode(first, code));

    // Someone who saw the code (over a shoulder, a phishing proxy) tries it again at once.
    const replay = await passwordStep(ben);
    const refused = await submitCode(replay, code);
    expect(refused.response.status).toBe(401);
    expect(await refused.response.text()).toContain('That code did not work');
  });

  it('rate-limits TOTP guesses per account: after 5 wrong codes even the right one waits', async () => {
    const cleo = person();
    const browser = new TestBrowser();
    await signUp(cleo, browser);
    const { secret } = await enrolTotp(browser);
    const step = await passwordStep(cleo);
    for (let guess = 0; guess < 5; guess += 1) {
      const wrong = await submitCode(step, String(100000 + guess));
      expect(wrong.response.status).toBe(401);
      await wrong.response.body?.cancel();
    }
    const limited = await submitCode(step, nextCode(secret));
    expect(limited.response.status).toBe(429);
    expect(limited.response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await limited.response.text()).toContain('Too many attempts. Please wait 30 seconds');
  });

  it('signs in once with each recovery code, and tells the owner', async () => {
    const dan = person();
    const browser = new TestBrowser();
    await signUp(dan, browser);
    const { codes } = await enrolTotp(browser);
    const code = codes[3] ?? '';

    const useRecovery = async () => {
      const step = await passwordStep(dan);
      const url = new URL(formOf(step.html, 1).action, step.location).href;
      return {
        step,
        sent: { response: await step.browser.postForm(url, { recoveryCode: code.toUpperCase() }), url },
      };
    };
    const since = t.mailer.sent.length;
    const first = await useRecovery();
    const tokens = await tokensAfter(first.step, first.sent);
    expect((await stats(tokens.access_token)).status).toBe(200);
    await t.mailTo(dan.email, 'A recovery code was used', since);

    const again = await useRecovery();
    expect(again.sent.response.status).toBe(401);
    expect(await again.sent.response.text()).toContain('Each code works once');
    expect(await securityPage(browser).then((p) => p.html)).toContain('9 of 10 one-time codes left');
  });

  it('turns TOTP off only with a current code or the password', async () => {
    const eve = person();
    const browser = new TestBrowser();
    await signUp(eve, browser);
    await enrolTotp(browser);
    const { csrf } = await securityPage(browser);
    const wrong = await browser.postForm(`${account()}/totp/disable`, { csrf, secret: 'not the password' });
    expect(wrong.status).toBe(401);
    await wrong.body?.cancel();
    const noCsrf = await browser.postForm(`${account()}/totp/disable`, { csrf: 'x', secret: eve.password });
    expect(noCsrf.status).toBe(403);
    await noCsrf.body?.cancel();
    const off = await browser.postForm(`${account()}/totp/disable`, { csrf, secret: eve.password });
    expect(off.status).toBe(303);
    // The password alone signs in again.
    expect((await signIn(eve)).access_token).toEqual(expect.any(String));
  });

  /** Registers a passkey from the security page in `browser`. */
  async function addPasskey(browser: TestBrowser, authenticator: SoftwareAuthenticator) {
    const { csrf } = await securityPage(browser);
    const json = (url: string, body: unknown) =>
      browser.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify(body),
      });
    const options = await json(`${account()}/passkeys/options`, {});
    expect(options.status).toBe(200);
    const credential = authenticator.register((await options.json()) as CreationOptions);
    const registered = await json(`${account()}/passkeys/register`, { response: credential });
    expect(registered.status, await registered.clone().text()).toBe(200);
  }

  /** "Sign in with a passkey" on the sign-in page of a fresh sign-in in `browser`. */
  async function passkeyOptions(browser: TestBrowser) {
    const page = await authorize(browser);
    const base = page.url;
    const options = await browser.fetch(`${base}/passkey/options`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(options.status).toBe(200);
    return { page, base, options: (await options.json()) as RequestOptions };
  }

  async function sendAssertion(browser: TestBrowser, base: string, assertion: unknown) {
    return browser.fetch(`${base}/passkey/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ response: assertion }),
    });
  }

  async function passkeySignIn(browser: TestBrowser, authenticator: SoftwareAuthenticator): Promise<Tokens> {
    const { page, base, options } = await passkeyOptions(browser);
    const verified = await sendAssertion(browser, base, authenticator.assert(options));
    expect(verified.status, await verified.clone().text()).toBe(200);
    const { redirect } = (await verified.json()) as { redirect: string };
    const code = await codeFrom(browser, await browser.get(redirect), redirect, page.request.state);
    return redeem(code, page.request.verifier);
  }

  it('signs in without a password with a registered passkey, and mails the owner about it', async () => {
    const fay = person();
    const browser = new TestBrowser();
    const since = t.mailer.sent.length;
    await signUp(fay, browser);
    const authenticator = new SoftwareAuthenticator(t.baseUrl);
    await addPasskey(browser, authenticator);
    await t.mailTo(fay.email, 'A passkey was added', since);
    expect((await securityPage(browser)).html).toContain('Passkeys <span class="status on">1</span>');

    const tokens = await passkeySignIn(new TestBrowser(), authenticator);
    expect(decodeJwt(tokens.access_token)).toMatchObject({ email: fay.email });
    expect((await stats(tokens.access_token)).status).toBe(200);
  });

  it('refuses a replayed passkey assertion: each challenge is answered once', async () => {
    const gus = person();
    const browser = new TestBrowser();
    await signUp(gus, browser);
    // Counter fixed at 0 (as many passkey providers do): only the single-use challenge stops a replay.
    const authenticator = new SoftwareAuthenticator(t.baseUrl, 'fixed');
    await addPasskey(browser, authenticator);

    const victim = new TestBrowser();
    const { base, options, page } = await passkeyOptions(victim);
    const assertion = authenticator.assert(options);
    const ok = await sendAssertion(victim, base, assertion);
    expect(ok.status).toBe(200);
    await ok.body?.cancel();

    // The attacker captured the assertion and plays it into a sign-in of their own...
    const attacker = new TestBrowser();
    const theirs = await passkeyOptions(attacker);
    const replayed = await sendAssertion(attacker, theirs.base, assertion);
    expect(replayed.status).toBe(401);
    expect(((await replayed.json()) as { code: string }).code).toBe('PASSKEY_REFUSED');
    // ...and into the victim's interaction again.
    const again = await sendAssertion(victim, base, assertion);
    expect(again.status).not.toBe(200);
    await again.body?.cancel();
    expect(page.request.state).toEqual(expect.any(String));
  });

  it('refuses an assertion whose signature counter went back (a cloned authenticator)', async () => {
    const hal = person();
    const browser = new TestBrowser();
    await signUp(hal, browser);
    const authenticator = new SoftwareAuthenticator(t.baseUrl);
    await addPasskey(browser, authenticator);
    const first = await passkeyOptions(new TestBrowser());
    const moved = await sendAssertion(
      new TestBrowser(),
      first.base,
      authenticator.assert(first.options, { counter: 5 }),
    );
    // Another browser: the interaction cookie is missing, so the page has expired.
    expect(moved.status).toBe(400);
    await moved.body?.cancel();

    const b = new TestBrowser();
    const ok = await passkeyOptions(b);
    const accepted = await sendAssertion(b, ok.base, authenticator.assert(ok.options, { counter: 5 }));
    expect(accepted.status).toBe(200);
    await accepted.body?.cancel();
    const c = new TestBrowser();
    const clone = await passkeyOptions(c);
    const refused = await sendAssertion(c, clone.base, authenticator.assert(clone.options, { counter: 3 }));
    expect(refused.status).toBe(401);
    await refused.body?.cancel();
  });

  it('uses a passkey as the second step after the password, once two-step verification is on', async () => {
    const ida = person();
    const browser = new TestBrowser();
    await signUp(ida, browser);
    const authenticator = new SoftwareAuthenticator(t.baseUrl);
    await addPasskey(browser, authenticator);
    // A passkey alone adds no step: the password still signs in by itself.
    expect((await signIn(ida)).access_token).toEqual(expect.any(String));
    await enrolTotp(browser);
    const step = await passwordStep(ida);
    expect(step.html).toContain('Use a passkey');
    const base = step.location.replace(/\/second-factor$/, '');
    const options = await step.browser.fetch(`${base}/passkey/options`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const requested = (await options.json()) as RequestOptions;
    expect(requested.allowCredentials).toHaveLength(1);
    const verified = await sendAssertion(step.browser, base, authenticator.assert(requested));
    expect(verified.status).toBe(200);
    const { redirect } = (await verified.json()) as { redirect: string };
    const code = await codeFrom(
      step.browser,
      await step.browser.get(redirect),
      redirect,
      step.page.request.state,
    );
    expect(decodeJwt((await redeem(code, step.page.request.verifier)).access_token)).toMatchObject({
      email: ida.email,
    });
  });

  it('lists sessions, and "sign out everywhere" ends old access and refresh tokens', async () => {
    const jo = person();
    const laptop = new TestBrowser();
    const since = t.mailer.sent.length;
    const lost = await signUp(jo, laptop);
    const phone = new TestBrowser();
    await signIn(jo, phone);
    await t.mailTo(jo.email, 'New sign-in to your Coffer account', since);
    expect((await stats(lost.access_token)).status).toBe(200);

    const { html, csrf } = await securityPage(phone);
    expect(html.match(/Signed in <time/g)).toHaveLength(2);
    expect(html).toContain('This browser');

    const out = await phone.postForm(`${account()}/sign-out-everywhere`, { csrf });
    expect(out.status).toBe(200);
    expect(await out.text()).toContain('Signed out everywhere');

    // The lost laptop's access token (still within its 15 minutes) and refresh token both stop working.
    expect((await stats(lost.access_token)).status).toBe(401);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: lost.refresh_token });
    expect(refreshed.body.error).toBe('invalid_grant');
    // Both browsers must sign in again.
    expect((await laptop.get(account())).status).toBe(401);
    expect(await (await authorize(laptop)).response.text()).toContain('Sign in to Coffer');

    // A new sign-in (a second later: `iat` counts whole seconds) works.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const fresh = await signIn(jo, new TestBrowser());
    expect((await stats(fresh.access_token)).status).toBe(200);
  });
});
