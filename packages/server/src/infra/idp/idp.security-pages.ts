import { escapeHtml } from '../../http/html-page.js';
import { alertBox, field, layout } from './idp.pages.js';
import type { FormAlert, PageContext } from './idp.pages.js';
import { passkeyButton } from './idp.passkey-button.js';
import { deviceLabel } from './idp.security-mail.js';
import type { SecurityStatus, TotpEnrolment } from './idp.security.service.js';

/**
 * The embedded provider's security pages (account security, TOTP enrolment, recovery codes) and the
 * second step of a sign-in. Passkeys need the browser's WebAuthn API: the pages load two same-origin
 * scripts (the CSP allows `'self'` scripts only, nothing inline); without them every other part works.
 */

export const SECURITY_STYLES = `
main:has(h1.wide){max-width:560px}
.section{border-top:1px solid #dee2e6;margin:24px 0 0;padding:20px 0 0}
.section h2{font-size:1.0625rem;margin:0 0 4px;font-weight:650}
.section p{margin:0 0 12px;color:#5c636e;font-size:.9375rem}
.status{display:inline-block;margin-left:8px;padding:1px 8px;border-radius:999px;font-size:.75rem;font-weight:600;
  vertical-align:2px;background:#e9ecef;color:#495057}
.status.on{background:#d3f9d8;color:#1b5e20}
.items{list-style:none;margin:0 0 12px;padding:0}
.items li{display:flex;align-items:center;justify-content:space-between;gap:12px;padding:10px 0;border-bottom:1px solid #f1f3f5}
.items li:last-child{border-bottom:0}
.items .what{font-weight:600;font-size:.9375rem}
.items .when{color:#5c636e;font-size:.8125rem}
.items form{flex:none}
.button.small{width:auto;min-height:34px;padding:0 12px;font-size:.875rem}
.button.danger{background:#fff;color:#c92a2a;border-color:#ffc9c9}
.button.danger:hover{background:#fff5f5;color:#a51d1d}
.row{display:flex;gap:8px;flex-wrap:wrap}
.row .button{width:auto;flex:1}
.qr{display:flex;justify-content:center;margin:0 0 16px}
.qr svg{width:200px;height:200px}
.secret{display:block;margin:0 0 16px;padding:10px 12px;background:#f8f9fa;border:1px solid #dee2e6;border-radius:8px;
  font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9375rem;word-break:break-all;text-align:center}
.codes{display:grid;grid-template-columns:1fr 1fr;gap:8px 16px;margin:0 0 20px;padding:14px 12px;background:#f8f9fa;
  border:1px solid #dee2e6;border-radius:8px;list-style:none;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.codes li{text-align:center;white-space:nowrap;font-size:.8125rem}
details{margin:16px 0 0}
summary{cursor:pointer;color:#1c4fa0;font-weight:600;font-size:.9375rem}
details form{margin-top:12px}
[hidden]{display:none!important}
`;

export interface SecurityUrls {
  page: string;
  totpStart: string;
  totpConfirm: string;
  totpDisable: string;
  recoveryRenew: string;
  passkeyOptions: string;
  passkeyRegister: string;
  passkeyRemove: (id: string) => string;
  signOutEverywhere: string;
  assets: string;
}

function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;
}

function codeField(options: {
  name: string;
  label: string;
  error?: string | undefined;
  autofocus?: boolean;
}): string {
  const id = options.name;
  return `<div class="field">
<label for="${id}">${escapeHtml(options.label)}</label>
<input id="${id}" name="${id}" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="7" required spellcheck="false"${options.error === undefined ? '' : ` aria-invalid="true" aria-describedby="${id}-error"`}${options.autofocus === true ? ' autofocus' : ''}>
${options.error === undefined ? '' : `<p class="field-error" id="${id}-error">${escapeHtml(options.error)}</p>`}
</div>`;
}

function date(iso: string): string {
  const d = new Date(iso);
  return `<time datetime="${escapeHtml(d.toISOString())}">${escapeHtml(
    d.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }),
  )} UTC</time>`;
}

export interface SecurityPageOptions {
  email: string;
  status: SecurityStatus;
  /** The provider session this page is shown in (marked "this browser"). */
  currentSessionUid: string;
  csrf: string;
  urls: SecurityUrls;
  alert?: FormAlert | undefined;
  disableError?: string | undefined;
}

export function renderSecurityPage(context: PageContext, options: SecurityPageOptions): string {
  const { status, urls, csrf } = options;
  const csrfField = hidden('csrf', csrf);
  const totpOn = status.totp === 'on';
  const totp = totpOn
    ? `<p>Signing in asks for a code from your authenticator app after your password.</p>
<details${options.disableError === undefined ? '' : ' open'}><summary>Turn off the authenticator app</summary>
<form method="post" action="${escapeHtml(urls.totpDisable)}" novalidate>${csrfField}
${field({ name: 'secret', label: 'A current code, or your password', type: 'password', autocomplete: 'current-password', error: options.disableError, maxlength: 1024 })}
<button class="button secondary" type="submit">Turn off</button>
</form></details>`
    : `<p>Use an app such as Google Authenticator, 1Password or Aegis: signing in then asks for its 6-digit code after your password.</p>
<form method="post" action="${escapeHtml(urls.totpStart)}">${csrfField}<button class="button secondary" type="submit">Set up an authenticator app</button></form>`;

  const recovery = totpOn
    ? `<div class="section"><h2>Recovery codes</h2>
<p>${status.recoveryCodesLeft} of 10 one-time codes left, for when you do not have your authenticator app.</p>
<form method="post" action="${escapeHtml(urls.recoveryRenew)}">${csrfField}<button class="button secondary" type="submit">Make new recovery codes</button></form></div>`
    : '';

  const passkeys =
    status.passkeys.length === 0
      ? '<p>Sign in with your fingerprint, face or device PIN instead of a password, or use a passkey as your second step.</p>'
      : `<ul class="items">${status.passkeys
          .map(
            (
              p,
            ) => `<li><div><div class="what">${escapeHtml(p.name)}</div><div class="when">Added ${date(p.createdAt)}${p.lastUsedAt === null ? '' : ` · last used ${date(p.lastUsedAt)}`}</div></div>
<form method="post" action="${escapeHtml(urls.passkeyRemove(p.id))}">${csrfField}<button class="button small danger" type="submit" aria-label="Remove ${escapeHtml(p.name)}">Remove</button></form></li>`,
          )
          .join('')}</ul>`;

  const sessions = status.sessions
    .map(
      (
        s,
      ) => `<li><div><div class="what">${escapeHtml(deviceLabel(s.userAgent))}${s.sessionUid === options.currentSessionUid ? ' <span class="status on">This browser</span>' : ''}</div>
<div class="when">Signed in ${date(s.createdAt)} · last seen ${date(s.lastSeenAt)}</div></div></li>`,
    )
    .join('');

  const body = `<h1 class="wide">Sign-in security</h1>
<p class="lead">Signed in as ${escapeHtml(options.email)}.</p>
${alertBox(options.alert)}
<div class="section"><h2>Authenticator app <span class="status${totpOn ? ' on' : ''}">${totpOn ? 'On' : 'Off'}</span></h2>
${totp}</div>
${recovery}
<div class="section"><h2>Passkeys <span class="status${status.passkeys.length > 0 ? ' on' : ''}">${status.passkeys.length}</span></h2>
${passkeys}
${passkeyButton({ mode: 'register', label: 'Add a passkey', optionsUrl: urls.passkeyOptions, verifyUrl: urls.passkeyRegister, csrf, assets: urls.assets, secondary: true })}
</div>
<div class="section"><h2>Where you are signed in</h2>
<ul class="items">${sessions}</ul>
<p>Lost a device? Signing out everywhere ends every sign-in, this one too, and the app's access at once.</p>
<form method="post" action="${escapeHtml(urls.signOutEverywhere)}">${csrfField}<button class="button danger" type="submit">Sign out everywhere</button></form>
</div>`;
  return layout(context, 'Sign-in security', body, SECURITY_STYLES);
}

export function renderTotpEnrolPage(
  context: PageContext,
  options: { enrolment: TotpEnrolment; action: string; cancelHref: string; csrf: string; error?: string },
): string {
  const body = `<h1>Set up your authenticator app</h1>
<p class="lead">Scan this code with the app, or type the key below into it. Then enter the 6-digit code it shows.</p>
${options.error === undefined ? '' : alertBox({ message: options.error })}
<div class="qr" role="img" aria-label="QR code of the key">${options.enrolment.qrSvg}</div>
<code class="secret" aria-label="Key">${escapeHtml(options.enrolment.secret.replace(/(.{4})/g, '$1 ').trim())}</code>
<form method="post" action="${escapeHtml(options.action)}" novalidate>${hidden('csrf', options.csrf)}
${codeField({ name: 'code', label: 'Code from the app', error: options.error === undefined ? undefined : 'Enter the current code from the app.', autofocus: true })}
<button class="button primary" type="submit">Turn on</button>
</form>
<p class="switch"><a href="${escapeHtml(options.cancelHref)}">Cancel</a></p>`;
  return layout(context, 'Set up your authenticator app', body, SECURITY_STYLES);
}

export function renderRecoveryCodesPage(
  context: PageContext,
  options: { codes: string[]; continueHref: string; title: string },
): string {
  const body = `<h1>${escapeHtml(options.title)}</h1>
<p class="lead">Keep these recovery codes somewhere safe, apart from your phone. Each one signs you in once, in place of a code from the app. This is the only time they are shown.</p>
<ul class="codes" aria-label="Recovery codes">${options.codes.map((c) => `<li>${escapeHtml(c)}</li>`).join('')}</ul>
<a class="button primary" href="${escapeHtml(options.continueHref)}">I have saved my recovery codes</a>`;
  return layout(context, options.title, body, SECURITY_STYLES);
}

export interface SecondFactorPageOptions {
  totpAction?: string | undefined;
  recoveryAction?: string | undefined;
  passkey?: { optionsUrl: string; verifyUrl: string } | undefined;
  assets: string;
  cancelHref: string;
  alert?: FormAlert | undefined;
  codeError?: string | undefined;
  /** Open the recovery code form (after a wrong recovery code). */
  recoveryOpen?: boolean;
}

/** The sign-in's second step, after a correct password. */
export function renderSecondFactorPage(context: PageContext, options: SecondFactorPageOptions): string {
  const totp =
    options.totpAction === undefined
      ? ''
      : `<form method="post" action="${escapeHtml(options.totpAction)}" novalidate>
${codeField({ name: 'code', label: 'Code from your authenticator app', error: options.codeError, autofocus: options.recoveryOpen !== true })}
<button class="button primary" type="submit">Verify</button>
</form>`;
  const passkey =
    options.passkey === undefined
      ? ''
      : passkeyButton({
          mode: 'sign-in',
          label: 'Use a passkey',
          optionsUrl: options.passkey.optionsUrl,
          verifyUrl: options.passkey.verifyUrl,
          assets: options.assets,
          secondary: totp !== '',
          before: totp === '' ? '' : '<div class="divider" role="separator">or</div>',
        });
  const recovery =
    options.recoveryAction === undefined
      ? ''
      : `<details${options.recoveryOpen === true ? ' open' : ''}><summary>Use a recovery code</summary>
<form method="post" action="${escapeHtml(options.recoveryAction)}" novalidate>
${field({ name: 'recoveryCode', label: 'Recovery code', type: 'text', autocomplete: 'off', maxlength: 40, autofocus: options.recoveryOpen === true })}
<button class="button secondary" type="submit">Sign in with the recovery code</button>
</form></details>`;
  const lead =
    options.totpAction === undefined
      ? 'Confirm it is you with your passkey.'
      : 'Enter the 6-digit code from your authenticator app.';
  const body = `<h1>Two-step verification</h1>
<p class="lead">${lead}</p>
${alertBox(options.alert)}
${totp}
${passkey}
${recovery}
<p class="switch"><a href="${escapeHtml(options.cancelHref)}">Sign in as someone else</a></p>`;
  return layout(context, 'Two-step verification', body, SECURITY_STYLES);
}
