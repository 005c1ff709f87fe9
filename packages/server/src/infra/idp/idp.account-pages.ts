import { escapeHtml } from '../../http/html-page.js';
import { alertBox, field, layout } from './idp.pages.js';
import type { FormAlert, PageContext } from './idp.pages.js';

/**
 * The embedded provider's pages around mailed links: "check your inbox" after sign-up or a reset
 * request, confirming an address, choosing a new password. None of them says whether an address has
 * an account.
 */

function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;
}

function link(href: string, label: string, cls = 'button secondary'): string {
  return `<a class="${cls}" href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;
}

export interface CheckInboxPageOptions {
  email: string;
  /** What the mail is for: the first sentence under the title. */
  reason: 'sign-up' | 'reset';
  /** Resend form (sign-up only): posts the email again. */
  resendAction?: string;
  startAgainHref?: string;
  signInHref?: string;
  alert?: FormAlert | undefined;
}

function signIn(options: CheckInboxPageOptions): string {
  if (options.signInHref === undefined) return '';
  const href = escapeHtml(options.signInHref);
  return options.reason === 'sign-up'
    ? `<p class="switch">Confirmed already? <a href="${href}">Sign in</a></p>`
    : `<p class="switch"><a href="${href}">Back to sign in</a></p>`;
}

export function renderCheckInboxPage(context: PageContext, options: CheckInboxPageOptions): string {
  const lead =
    options.reason === 'sign-up'
      ? `We sent a link to ${options.email}. Open it and enter your password to confirm the address, then sign in.`
      : `If an account exists for ${options.email}, we sent it a link to choose a new password. The link works for one hour.`;
  const resend =
    options.resendAction === undefined
      ? ''
      : `<form method="post" action="${escapeHtml(options.resendAction)}" novalidate>
${hidden('email', options.email)}
<button class="button secondary" type="submit">Resend the email</button>
</form>`;
  const body = `<h1>Check your inbox</h1>
<p class="lead">${escapeHtml(lead)}</p>
${alertBox(options.alert)}
<p class="hint" style="margin-bottom:16px">No mail after a few minutes? Look in your spam folder, and check that the address is spelled right.</p>
${resend}
${options.startAgainHref === undefined ? '' : `<p class="switch"><a href="${escapeHtml(options.startAgainHref)}">Wrong address? Start again</a></p>`}
${signIn(options)}`;
  return layout(context, 'Check your inbox', body);
}

export interface ConfirmEmailPageOptions {
  action: string;
  token: string;
  email: string;
  alert?: FormAlert | undefined;
  passwordError?: string | undefined;
}

/**
 * The page behind a confirmation link. It asks for the account's password, so an address owner who
 * clicks a link for an account someone else made cannot confirm it for them by accident.
 */
export function renderConfirmEmailPage(context: PageContext, options: ConfirmEmailPageOptions): string {
  const body = `<h1>Confirm your email address</h1>
<p class="lead">Enter the password of the Coffer account for ${escapeHtml(options.email)} to confirm that the address is yours.</p>
${alertBox(options.alert)}
<form method="post" action="${escapeHtml(options.action)}" novalidate>
${hidden('token', options.token)}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', error: options.passwordError, autofocus: true, maxlength: 1024 })}
<button class="button primary" type="submit">Confirm email address</button>
</form>
<p class="hint">Did not create a Coffer account? Close this page: nothing happens without the password.</p>`;
  return layout(context, 'Confirm your email address', body);
}

export interface ForgotPasswordPageOptions {
  action: string;
  signInHref: string;
  email?: string;
  alert?: FormAlert | undefined;
  emailError?: string | undefined;
}

export function renderForgotPasswordPage(context: PageContext, options: ForgotPasswordPageOptions): string {
  const body = `<h1>Reset your password</h1>
<p class="lead">Enter the email address of your account, and we will send you a link to choose a new password.</p>
${alertBox(options.alert)}
<form method="post" action="${escapeHtml(options.action)}" novalidate>
${field({ name: 'email', label: 'Email', type: 'email', autocomplete: 'username', value: options.email ?? '', error: options.emailError, autofocus: true, maxlength: 254 })}
<button class="button primary" type="submit">Send reset link</button>
</form>
<p class="switch"><a href="${escapeHtml(options.signInHref)}">Back to sign in</a></p>`;
  return layout(context, 'Reset your password', body);
}

export interface NewPasswordPageOptions {
  action: string;
  token: string;
  email: string;
  alert?: FormAlert | undefined;
  fieldErrors?: Partial<Record<'password' | 'confirmPassword', string>>;
}

export function renderNewPasswordPage(context: PageContext, options: NewPasswordPageOptions): string {
  const errors = options.fieldErrors ?? {};
  const body = `<h1>Choose a new password</h1>
<p class="lead">For the Coffer account of ${escapeHtml(options.email)}. Setting it signs the account out on every device.</p>
${alertBox(options.alert)}
<form method="post" action="${escapeHtml(options.action)}" novalidate>
${hidden('token', options.token)}
<input type="email" name="username" autocomplete="username" value="${escapeHtml(options.email)}" readonly tabindex="-1" aria-hidden="true" style="display:none">
${field({ name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', error: errors.password, hint: 'At least 8 characters. Your master unlock key does not change.', autofocus: errors.confirmPassword === undefined, minlength: 8, maxlength: 1024 })}
${field({ name: 'confirmPassword', label: 'Confirm new password', type: 'password', autocomplete: 'new-password', error: errors.confirmPassword, autofocus: errors.confirmPassword !== undefined, maxlength: 1024 })}
<button class="button primary" type="submit">Set new password</button>
</form>`;
  return layout(context, 'Choose a new password', body);
}

/** After a link did its work, or when it no longer works. */
export function renderDonePage(
  context: PageContext,
  options: { title: string; message: string; error?: boolean; next?: { href: string; label: string } },
): string {
  const next = options.next ?? { href: `${context.appUrl}/new`, label: 'Continue to Coffer' };
  const body = `<h1>${escapeHtml(options.title)}</h1>
<p class="lead"${options.error === true ? ' role="alert"' : ''}>${escapeHtml(options.message)}</p>
${link(next.href, next.label, 'button primary')}`;
  return layout(context, options.title, body);
}
