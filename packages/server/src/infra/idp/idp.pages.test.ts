import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, countryName, normalizeCountry } from './countries.js';
import { renderLogoutPage, renderMessagePage, renderSignInPage, renderSignUpPage } from './idp.pages.js';

const context = { appUrl: 'https://coffer.example' };

/** Every input and select has a label pointing at it. */
function expectLabelled(html: string): void {
  const ids = [...html.matchAll(/<(?:input|select)\b[^>]*\bid="([^"]+)"/g)].map((m) => m[1]);
  expect(ids.length).toBeGreaterThan(0);
  for (const id of ids) expect(html).toContain(`<label for="${id ?? ''}">`);
}

describe('identity provider pages', () => {
  it('escape everything they echo', () => {
    const html = renderSignInPage(context, {
      action: '/idp/interaction/u/login',
      signUpHref: '/idp/interaction/u/signup',
      email: '"><script>alert(1)</script>',
      alert: { message: '<b>bad</b>' },
    });
    expect(html).not.toContain('<script');
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).toContain('&lt;b&gt;bad&lt;/b&gt;');
  });

  it('sign-in: labelled fields, an announced error, Google only when configured', () => {
    const plain = renderSignInPage(context, { action: '/a', signUpHref: '/s' });
    expectLabelled(plain);
    expect(plain).not.toContain('Continue with Google');
    expect(plain).toContain('autocomplete="current-password"');
    const withError = renderSignInPage(context, {
      action: '/a',
      signUpHref: '/s',
      googleHref: '/g',
      alert: { message: 'Incorrect email or password.' },
    });
    expect(withError).toContain('role="alert"');
    expect(withError).toContain('href="/g"');
    expect(withError).toContain('Continue with Google');
  });

  it('sign-up: field errors are tied to their inputs and focus the first one', () => {
    const html = renderSignUpPage(context, {
      action: '/a',
      signInHref: '/s',
      values: { name: 'Ann', email: 'ann@example.test', country: 'NL' },
      fieldErrors: { country: 'Choose your country.', password: 'Enter a password.' },
    });
    expectLabelled(html);
    expect(html).toContain('<option value="NL" selected>Netherlands</option>');
    expect(html).toMatch(/id="country"[^>]*aria-invalid="true" aria-describedby="country-error" autofocus/);
    expect(html).toContain('<p class="field-error" id="password-error">Enter a password.</p>');
    expect(html).toContain('aria-describedby="password-hint password-error"');
  });

  it('logout: a visible button submits the provider form; no script anywhere', () => {
    const form =
      '<form id="op.logoutForm" method="post" action="/idp/session/end/confirm"><input type="hidden" name="xsrf" value="x"/></form>';
    const html = renderLogoutPage(context, form);
    expect(html).toContain(form);
    expect(html).toContain('form="op.logoutForm" name="logout" value="yes"');
    for (const page of [html, renderMessagePage(context, { title: 'T', message: 'M' })]) {
      expect(page).not.toContain('<script');
      // Nothing loaded from elsewhere: no stylesheets, fonts or images by URL.
      expect(page).not.toMatch(/<link|@import|src="https?:|url\(https?:/);
    }
  });

  it('knows the countries by ISO code', () => {
    expect(COUNTRY_CODES).toHaveLength(250);
    expect(countryName('NL')).toBe('Netherlands');
    expect(normalizeCountry(' de ')).toBe('DE');
    expect(normalizeCountry('XX')).toBeNull();
    expect(normalizeCountry('Germany')).toBeNull();
  });
});
