import type { KoaContextWithOIDC } from 'oidc-provider';
import { escapeHtml } from '../../http/html-page.js';
import { layout, type PageContext } from './idp.pages.js';

/** The script that sends the logout form on its own, served under `/idp/assets/`. */
export const LOGOUT_ASSET = 'logout.js';

/**
 * Submits oidc-provider's logout form (id `op.logoutForm`) with `logout=yes`, as the "Log out"
 * button would. A same-origin file, so the pages' CSP (`script-src 'self'`) needs no inline script.
 */
export const LOGOUT_SCRIPT = `(function () {
  'use strict';
  var form = document.getElementById('op.logoutForm');
  if (!form) return;
  var logout = document.createElement('input');
  logout.type = 'hidden';
  logout.name = 'logout';
  logout.value = 'yes';
  form.appendChild(logout);
  form.submit();
})();
`;

/**
 * Whether an end-session request is the web app's own Logout, which needs no second confirmation
 * (OpenID RP-Initiated Logout 1.0 §2: the OP must ask unless the ID token hint belongs to the
 * current session with the RP and to the signed-in person). That is: oidc-provider validated the
 * `id_token_hint` (signature, issuer, audience) for `appClientId`, its subject is the account
 * signed in at this browser, that session has signed in to the app, and, if the token names a
 * session (`sid`), it is this one. Anything else (no hint, a hint of someone else or of another
 * client: a page elsewhere sending the browser here) gets the confirmation page.
 */
export function isAppLogout(ctx: KoaContextWithOIDC, appClientId: string): boolean {
  const { client, session, entities } = ctx.oidc;
  const hint = entities.IdTokenHint;
  if (hint === undefined || client?.clientId !== appClientId) return false;
  const accountId = session?.accountId;
  if (accountId === undefined || hint.payload.sub !== accountId) return false;
  const authorization = session?.authorizations?.[appClientId];
  if (authorization?.grantId === undefined) return false;
  const sid = hint.payload.sid;
  return sid === undefined || sid === authorization.sid;
}

/**
 * The app's own Logout: the provider's form sent at once by {@link LOGOUT_SCRIPT} (the browser
 * passes through in a moment); without script, one button does it.
 */
export function renderAppLogoutPage(context: PageContext, form: string, assetsPath: string): string {
  const body = `<h1>Signing out…</h1>
${form}
<noscript><button class="button primary" type="submit" form="op.logoutForm" name="logout" value="yes">Log out</button></noscript>
<script src="${escapeHtml(`${assetsPath}/${LOGOUT_ASSET}`)}" defer></script>`;
  return layout(context, 'Sign out', body);
}
