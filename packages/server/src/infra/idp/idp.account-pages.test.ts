import { describe, expect, it } from 'vitest';
import {
  renderCheckInboxPage,
  renderConfirmEmailPage,
  renderDonePage,
  renderForgotPasswordPage,
  renderNewPasswordPage,
} from './idp.account-pages.js';

const context = { appUrl: 'https://coffer.example' };
const hostile = '"><script>alert(1)</script>@evil.example';

describe('account link pages', () => {
  const pages = [
    renderCheckInboxPage(context, {
      email: hostile,
      reason: 'sign-up',
      resendAction: '/r',
      signInHref: '/s',
    }),
    renderCheckInboxPage(context, { email: hostile, reason: 'reset', signInHref: '/s' }),
    renderConfirmEmailPage(context, { action: '/v', token: 't', email: hostile }),
    renderForgotPasswordPage(context, { action: '/f', signInHref: '/s', email: hostile }),
    renderNewPasswordPage(context, { action: '/p', token: 't', email: hostile }),
    renderDonePage(context, { title: 'Password changed', message: hostile }),
  ];

  it('escape the address they echo and run no script', () => {
    for (const html of pages) {
      expect(html).not.toContain('<script');
      expect(html).toContain('&lt;script&gt;');
    }
  });

  it('label every visible field', () => {
    for (const html of pages) {
      const visible = [...html.matchAll(/<input\b[^>]*>/g)]
        .map((m) => m[0])
        .filter((tag) => !/type="hidden"|display:none/.test(tag));
      for (const tag of visible) {
        const id = /id="([^"]+)"/.exec(tag)?.[1] ?? '';
        expect(html, tag).toContain(`<label for="${id}">`);
      }
    }
  });

  it('offer the way back that fits: sign-in after sign-up, back to sign-in after a reset request', () => {
    expect(pages[0]).toContain('Confirmed already?');
    expect(pages[0]).toContain('Resend the email');
    expect(pages[1]).toContain('Back to sign in');
    expect(pages[1]).not.toContain('Confirmed already?');
    expect(pages[1]).not.toContain('Resend the email');
  });

  it('ask for the password on the confirmation page, so a link alone confirms nothing', () => {
    expect(pages[2]).toContain('name="password"');
    expect(pages[2]).toContain('name="token" value="t"');
  });
});
