import { describe, expect, it } from 'vitest';
import { renderSignInPage } from './idp.pages.js';
import { renderSecondFactorPage, renderSecurityPage } from './idp.security-pages.js';
import { securityPaths } from './idp.security.routes.js';

const context = { appUrl: 'https://coffer.example' };
const evil = '<img src=x onerror=alert(1)>';

/** Every <script> of a page: the CSP allows same-origin files only, so none may be inline. */
function scripts(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].map((m) => {
    expect(m[2]).toBe('');
    return /src="([^"]+)"/.exec(m[1] ?? '')?.[1] ?? 'inline';
  });
}

describe('security pages', () => {
  it('escape what the person controls and load only same-origin script files', () => {
    const html = renderSecurityPage(context, {
      email: `a${evil}@example.test`,
      status: {
        totp: 'on',
        recoveryCodesLeft: 7,
        passkeys: [
          {
            id: 'cred"id',
            accountId: 'a',
            publicKey: '',
            counter: 0,
            transports: [],
            name: evil,
            createdAt: '2026-11-27T10:00:00.000Z',
            lastUsedAt: null,
          },
        ],
        sessions: [
          {
            sessionUid: 's1',
            userAgent: evil,
            createdAt: '2026-11-27T10:00:00.000Z',
            lastSeenAt: '2026-11-27T10:05:00.000Z',
          },
        ],
      },
      currentSessionUid: 's1',
      csrf: 'token"x',
      urls: securityPaths('/idp'),
    });
    expect(html).not.toContain(evil);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('value="token&quot;x"');
    expect(html).toContain('7 of 10 one-time codes left');
    expect(html).toContain('This browser');
    expect(scripts(html)).toEqual(['/idp/assets/simplewebauthn-browser.js', '/idp/assets/passkeys.js']);
  });

  it('show the second step with the code, the passkey and the recovery code', () => {
    const html = renderSecondFactorPage(context, {
      totpAction: '/idp/interaction/u/totp',
      recoveryAction: '/idp/interaction/u/recovery',
      passkey: { optionsUrl: '/o', verifyUrl: '/v' },
      assets: '/idp/assets',
      cancelHref: '/idp/interaction/u',
    });
    expect(html).toContain('autocomplete="one-time-code"');
    expect(html).toContain('Use a passkey');
    expect(html).toContain('Use a recovery code');
    expect(scripts(html)).toHaveLength(2);
  });

  it('offer "Sign in with a passkey" on the sign-in page only when asked to', () => {
    const plain = renderSignInPage(context, { action: '/a', signUpHref: '/s' });
    expect(plain).not.toContain('<script');
    const withPasskey = renderSignInPage(context, {
      action: '/a',
      signUpHref: '/s',
      passkey: { optionsUrl: '/o', verifyUrl: '/v', assets: '/idp/assets' },
    });
    expect(withPasskey).toContain('Sign in with a passkey');
    // Hidden until the script finds WebAuthn in the browser.
    expect(withPasskey).toMatch(/<div class="passkey" data-passkey="sign-in"[^>]* hidden>/);
  });
});
