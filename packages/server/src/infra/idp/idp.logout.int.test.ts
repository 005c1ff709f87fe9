/**
 * The web app's own Logout ends the provider's session in one step (spec section 4: one click to
 * /landing); an end-session request the signed-in app did not send still asks first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { formOf, startIdpTestApp, TestBrowser } from '../../test/idp-harness.js';
import type { IdpTestApp } from '../../test/idp-harness.js';
import { createIdpJourneys, person } from '../../test/idp-journeys.js';
import { LOGOUT_ASSET } from './idp.logout.js';

const CONFIRM_TITLE = 'Sign out of Coffer?';

describe.each(dialectsUnderTest)('logout at the embedded provider ($name)', ({ open }) => {
  let database: TestDatabase;
  let t: IdpTestApp;
  const { authorize, signUp, token } = createIdpJourneys(() => t);

  beforeAll(async () => {
    database = await open();
    t = await startIdpTestApp({ database, env: { IDP_ATTEMPTS_PER_IP: '500' } });
  });
  afterAll(async () => {
    await t.close();
    await database.destroy();
  });

  function endSessionUrl(params: Record<string, string>): string {
    const url = new URL(`${t.issuer}/session/end`);
    url.search = new URLSearchParams({
      post_logout_redirect_uri: `${t.baseUrl}/landing`,
      ...params,
    }).toString();
    return url.href;
  }

  it("the app's own logout (its ID token of this session) is sent on at once, no question", async () => {
    const browser = new TestBrowser();
    const tokens = await signUp(person(), browser);
    const url = endSessionUrl({ id_token_hint: tokens.id_token, state: 'bye' });
    const page = await browser.get(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain(CONFIRM_TITLE);
    expect(html).toContain(`<script src="/idp/assets/${LOGOUT_ASSET}" defer></script>`);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");

    // The script is served from the provider's origin, and sends the form with logout=yes.
    const script = await fetch(`${t.issuer}/assets/${LOGOUT_ASSET}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    const body = await script.text();
    expect(body).toContain("getElementById('op.logoutForm')");
    expect(body).toContain("logout.value = 'yes'");

    // What the script does: the provider's session ends and the browser goes back to the app.
    const form = formOf(html);
    const confirmed = await browser.postForm(new URL(form.action, url).href, {
      ...form.fields,
      logout: 'yes',
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`${t.baseUrl}/landing?state=bye`);
    const refresh = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refresh.body.error).toBe('invalid_grant');
    const again = await authorize(browser);
    expect(await again.response.text()).toContain('Sign in to Coffer');
  });

  it('asks first when no ID token names the signed-in person (a link elsewhere, another account)', async () => {
    const browser = new TestBrowser();
    const victim = await signUp(person(), browser);
    // Someone else's valid ID token for the same app, sent through the victim's browser: a page
    // elsewhere that wants to sign the victim out.
    const attacker = await signUp(person(), new TestBrowser());
    const requests: Record<string, string>[] = [
      { id_token_hint: attacker.id_token },
      { client_id: t.clientId },
      {},
    ];
    for (const params of requests) {
      const page = await browser.get(endSessionUrl(params));
      const html = await page.text();
      expect(html, JSON.stringify(Object.keys(params))).toContain(CONFIRM_TITLE);
      expect(html).not.toContain('<script');
    }
    // Nothing happened: the victim is still signed in.
    const refresh = await token({ grant_type: 'refresh_token', refresh_token: victim.refresh_token });
    expect(refresh.status).toBe(200);
  });
});
