import { escapeHtml } from '../../http/html-page.js';

/** Script files the passkey buttons need, served under `/idp/assets/`. */
export const ASSET_FILES = { webauthn: 'simplewebauthn-browser.js', passkeys: 'passkeys.js' } as const;

function scripts(assets: string): string {
  return `<script src="${escapeHtml(`${assets}/${ASSET_FILES.webauthn}`)}" defer></script>
<script src="${escapeHtml(`${assets}/${ASSET_FILES.passkeys}`)}" defer></script>`;
}

/** A passkey button the script wires up; hidden until it runs in a browser with WebAuthn. */
export function passkeyButton(options: {
  mode: 'register' | 'sign-in';
  label: string;
  optionsUrl: string;
  verifyUrl: string;
  csrf?: string;
  assets: string;
  secondary?: boolean;
  /** Markup shown (and hidden) with the button, e.g. an "or" divider. */
  before?: string;
}): string {
  return `<div class="passkey" data-passkey="${options.mode}" data-options-url="${escapeHtml(options.optionsUrl)}" data-verify-url="${escapeHtml(options.verifyUrl)}"${options.csrf === undefined ? '' : ` data-csrf="${escapeHtml(options.csrf)}"`} hidden>
${options.before ?? ''}
<button class="button ${options.secondary === true ? 'secondary' : 'primary'}" type="button">${escapeHtml(options.label)}</button>
<p class="field-error" role="alert" data-passkey-error hidden></p>
</div>
${scripts(options.assets)}`;
}
