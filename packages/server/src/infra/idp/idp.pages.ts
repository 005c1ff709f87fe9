import { escapeHtml, renderHtmlPage } from '../../http/html-page.js';
import { COUNTRY_CODES, countryName } from './countries.js';
import { IDP_STYLES } from './idp.styles.js';
import { passkeyButton } from './idp.passkey-button.js';

/** Server-rendered pages of the embedded provider. Every value is escaped; there are no scripts. */

const SHIELD = `<svg viewBox="0 0 32 32" aria-hidden="true" focusable="false"><path fill="#1c4fa0" d="M16 2.5 4.5 6.8v8.1c0 7.3 4.9 12.7 11.5 14.6 6.6-1.9 11.5-7.3 11.5-14.6V6.8L16 2.5Z"/><path fill="#fff" d="M16 9.2a4 4 0 0 0-4 4v1.6h-.6c-.8 0-1.4.6-1.4 1.4v5.4c0 .8.6 1.4 1.4 1.4h9.2c.8 0 1.4-.6 1.4-1.4v-5.4c0-.8-.6-1.4-1.4-1.4H20v-1.6a4 4 0 0 0-4-4Zm-2.2 4a2.2 2.2 0 0 1 4.4 0v1.6h-4.4v-1.6Z"/></svg>`;

const GOOGLE_G = `<svg viewBox="0 0 48 48" aria-hidden="true" focusable="false"><path fill="#EA4335" d="M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z"/><path fill="#4285F4" d="M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z"/><path fill="#FBBC05" d="M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z"/><path fill="#34A853" d="M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z"/></svg>`;

const ALERT_ICON = `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><circle cx="12" cy="12" r="10"/><path d="M12 8v4M12 16h.01"/></svg>`;

const LOCK_ICON = `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><rect x="4" y="11" width="16" height="10" rx="2"/><path d="M8 11V7a4 4 0 0 1 8 0v4"/></svg>`;

export interface PageContext {
  /** The app's public URL: the brand and "Back to Coffer" link there. */
  appUrl: string;
}

/** `extraStyles`: rules a page family adds to the provider's stylesheet (the security pages'). */
export function layout(context: PageContext, title: string, body: string, extraStyles = ''): string {
  return renderHtmlPage({
    title,
    styles: IDP_STYLES + extraStyles,
    homeHref: `${context.appUrl}/landing`,
    brandIcon: SHIELD,
    footerNote: `${LOCK_ICON}End-to-end encrypted file storage and sharing`,
    body,
  });
}

/** A message for the whole form; `info` for neutral notices. */
export interface FormAlert {
  message: string;
  kind?: 'error' | 'info';
  link?: { href: string; label: string };
}

export function alertBox(alert: FormAlert | undefined): string {
  if (alert === undefined) return '';
  const link =
    alert.link === undefined
      ? ''
      : ` <a href="${escapeHtml(alert.link.href)}">${escapeHtml(alert.link.label)}</a>`;
  const cls = alert.kind === 'info' ? 'alert info' : 'alert';
  const role = alert.kind === 'info' ? 'status' : 'alert';
  return `<div class="${cls}" role="${role}">${ALERT_ICON}<div>${escapeHtml(alert.message)}${link}</div></div>`;
}

export interface FieldOptions {
  name: string;
  label: string;
  type: 'text' | 'email' | 'password';
  autocomplete: string;
  value?: string;
  error?: string | undefined;
  hint?: string;
  autofocus?: boolean;
  maxlength?: number;
  minlength?: number;
}

export function field(options: FieldOptions): string {
  const id = options.name;
  const describedBy = [
    options.hint === undefined ? null : `${id}-hint`,
    options.error === undefined ? null : `${id}-error`,
  ].filter((x) => x !== null);
  const attrs = [
    `id="${id}"`,
    `name="${id}"`,
    `type="${options.type}"`,
    `autocomplete="${options.autocomplete}"`,
    'required',
    options.type === 'email' ? 'inputmode="email" spellcheck="false" autocapitalize="none"' : '',
    options.value === undefined ? '' : `value="${escapeHtml(options.value)}"`,
    options.maxlength === undefined ? '' : `maxlength="${options.maxlength}"`,
    options.minlength === undefined ? '' : `minlength="${options.minlength}"`,
    options.error === undefined ? '' : 'aria-invalid="true"',
    describedBy.length === 0 ? '' : `aria-describedby="${describedBy.join(' ')}"`,
    options.autofocus === true ? 'autofocus' : '',
  ].filter((a) => a !== '');
  return `<div class="field">
<label for="${id}">${escapeHtml(options.label)}</label>
<input ${attrs.join(' ')}>
${options.hint === undefined ? '' : `<p class="hint" id="${id}-hint">${escapeHtml(options.hint)}</p>`}
${options.error === undefined ? '' : `<p class="field-error" id="${id}-error">${escapeHtml(options.error)}</p>`}
</div>`;
}

function countrySelect(value: string, error: string | undefined, autofocus: boolean): string {
  const options = COUNTRY_CODES.map((code) => ({ code, name: countryName(code) }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'))
    .map(
      ({ code, name }) =>
        `<option value="${code}"${code === value ? ' selected' : ''}>${escapeHtml(name)}</option>`,
    )
    .join('');
  return `<div class="field">
<label for="country">Country</label>
<select id="country" name="country" autocomplete="country" required${error === undefined ? '' : ' aria-invalid="true" aria-describedby="country-error"'}${autofocus ? ' autofocus' : ''}>
<option value=""${value === '' ? ' selected' : ''}>Choose your country</option>${options}
</select>
${error === undefined ? '' : `<p class="field-error" id="country-error">${escapeHtml(error)}</p>`}
</div>`;
}

function googleButton(href: string | undefined): string {
  if (href === undefined) return '';
  return `<a class="button secondary" href="${escapeHtml(href)}">${GOOGLE_G}<span>Continue with Google</span></a>
<div class="divider" role="separator">or</div>`;
}

const FIX_FIELDS: FormAlert = { message: 'Please correct the fields marked below.' };

export interface SignInPageOptions {
  action: string;
  signUpHref: string;
  /** "Forgot your password?" */
  forgotHref?: string | undefined;
  /** Present when "Continue with Google" is configured. */
  googleHref?: string | undefined;
  /** "Sign in with a passkey" (shown by its script where the browser has WebAuthn). */
  passkey?: { optionsUrl: string; verifyUrl: string; assets: string } | undefined;
  email?: string;
  alert?: FormAlert | undefined;
  fieldErrors?: Partial<Record<'email' | 'password', string>>;
}

export function renderSignInPage(context: PageContext, options: SignInPageOptions): string {
  const errors = options.fieldErrors ?? {};
  const email = options.email ?? '';
  const hasFieldError = errors.email !== undefined || errors.password !== undefined;
  const alert = options.alert ?? (hasFieldError ? FIX_FIELDS : undefined);
  const body = `<h1>Sign in to Coffer</h1>
<p class="lead">Welcome back. Sign in to reach your encrypted files.</p>
${alertBox(alert)}
${googleButton(options.googleHref)}
<form method="post" action="${escapeHtml(options.action)}" novalidate>
${field({ name: 'email', label: 'Email', type: 'email', autocomplete: 'username', value: email, error: errors.email, autofocus: email === '' || errors.email !== undefined, maxlength: 254 })}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', error: errors.password, autofocus: email !== '' && errors.email === undefined, maxlength: 1024 })}
<button class="button primary" type="submit">Sign in</button>
</form>
${options.forgotHref === undefined ? '' : `<p class="switch"><a href="${escapeHtml(options.forgotHref)}">Forgot your password?</a></p>`}
${options.passkey === undefined ? '' : passkeyButton({ mode: 'sign-in', label: 'Sign in with a passkey', ...options.passkey, secondary: true, before: '<div class="divider" role="separator">or</div>' })}
<p class="switch">New to Coffer? <a href="${escapeHtml(options.signUpHref)}">Create an account</a></p>`;
  return layout(
    context,
    'Sign in',
    body,
    options.passkey === undefined ? '' : '[hidden]{display:none!important}',
  );
}

export type SignUpField = 'name' | 'email' | 'country' | 'password' | 'confirmPassword';

export interface SignUpPageOptions {
  action: string;
  signInHref: string;
  googleHref?: string | undefined;
  values?: Partial<Record<'name' | 'email' | 'country', string>>;
  alert?: FormAlert | undefined;
  fieldErrors?: Partial<Record<SignUpField, string>>;
}

export function renderSignUpPage(context: PageContext, options: SignUpPageOptions): string {
  const errors = options.fieldErrors ?? {};
  const values = options.values ?? {};
  const firstError = (['name', 'email', 'country', 'password', 'confirmPassword'] as const).find(
    (name) => errors[name] !== undefined,
  );
  const focus = firstError ?? (options.alert === undefined ? 'name' : undefined);
  const alert = options.alert ?? (firstError === undefined ? undefined : FIX_FIELDS);
  const body = `<h1>Create your Coffer account</h1>
<p class="lead">Store and share files that only you and the people you choose can read.</p>
${alertBox(alert)}
${googleButton(options.googleHref)}
<form method="post" action="${escapeHtml(options.action)}" novalidate>
${field({ name: 'name', label: 'Full name', type: 'text', autocomplete: 'name', value: values.name ?? '', error: errors.name, autofocus: focus === 'name', maxlength: 100 })}
${field({ name: 'email', label: 'Email', type: 'email', autocomplete: 'email', value: values.email ?? '', error: errors.email, autofocus: focus === 'email', maxlength: 254 })}
${countrySelect(values.country ?? '', errors.country, focus === 'country')}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', error: errors.password, hint: 'At least 8 characters. You will choose a separate encryption key after signing in.', autofocus: focus === 'password', minlength: 8, maxlength: 1024 })}
${field({ name: 'confirmPassword', label: 'Confirm password', type: 'password', autocomplete: 'new-password', error: errors.confirmPassword, autofocus: focus === 'confirmPassword', maxlength: 1024 })}
<button class="button primary" type="submit">Create account</button>
</form>
<p class="switch">Already have an account? <a href="${escapeHtml(options.signInHref)}">Sign in</a></p>`;
  return layout(context, 'Create account', body);
}

export interface MessagePageOptions {
  title: string;
  message: string;
  action?: { href: string; label: string };
  kind?: 'error' | 'info';
}

/** Errors, "signed out", expired links. */
export function renderMessagePage(context: PageContext, options: MessagePageOptions): string {
  const action = options.action ?? { href: `${context.appUrl}/landing`, label: 'Back to Coffer' };
  const body = `<h1>${escapeHtml(options.title)}</h1>
<p class="lead"${options.kind === 'error' ? ' role="alert"' : ''}>${escapeHtml(options.message)}</p>
<a class="button primary" href="${escapeHtml(action.href)}">${escapeHtml(action.label)}</a>`;
  return layout(context, options.title, body);
}

/**
 * The RP-initiated logout confirmation. `form` is oidc-provider's hidden form (id `op.logoutForm`, with
 * its CSRF token); the button submits it, so the page works without any script. There is no "stay
 * signed in": the web app has already dropped its tokens and keys when it sends the browser here.
 */
export function renderLogoutPage(context: PageContext, form: string): string {
  const body = `<h1>Sign out of Coffer?</h1>
<p class="lead">You will need to sign in again, and unlock your encryption key, to reach your files.</p>
${form}
<button class="button primary" type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Log out</button>`;
  return layout(context, 'Sign out', body);
}
