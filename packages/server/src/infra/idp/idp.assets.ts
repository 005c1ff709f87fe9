import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { LOGOUT_ASSET, LOGOUT_SCRIPT } from './idp.logout.js';
import { ASSET_FILES } from './idp.passkey-button.js';

/**
 * The browser half of the passkey buttons, for the provider's server-rendered pages: @simplewebauthn's
 * browser bundle (a UMD file that defines `SimpleWebAuthnBrowser`) and the small script below that wires
 * the buttons to it. Both are same-origin files, so the pages' CSP (`script-src 'self'`) needs no inline
 * script, hash or nonce.
 */
const PASSKEYS_SCRIPT = `(function () {
  'use strict';
  var lib = window.SimpleWebAuthnBrowser;
  if (!lib || !lib.browserSupportsWebAuthn()) return;
  var messages = {
    NotAllowedError: 'The passkey request was cancelled or timed out.',
    InvalidStateError: 'This passkey is already registered.',
  };
  async function post(url, body, csrf) {
    var headers = { 'content-type': 'application/json' };
    if (csrf) headers['x-csrf-token'] = csrf;
    var response = await fetch(url, { method: 'POST', headers: headers, body: JSON.stringify(body), credentials: 'same-origin' });
    var data = await response.json().catch(function () { return {}; });
    if (!response.ok) throw new Error(data.message || 'The passkey could not be used. Please try again.');
    return data;
  }
  document.querySelectorAll('[data-passkey]').forEach(function (box) {
    var button = box.querySelector('button');
    var error = box.querySelector('[data-passkey-error]');
    var mode = box.getAttribute('data-passkey');
    var csrf = box.getAttribute('data-csrf');
    box.hidden = false;
    button.addEventListener('click', async function () {
      error.hidden = true;
      button.disabled = true;
      try {
        var options = await post(box.getAttribute('data-options-url'), {}, csrf);
        var answer = mode === 'register'
          ? await lib.startRegistration({ optionsJSON: options })
          : await lib.startAuthentication({ optionsJSON: options });
        var done = await post(box.getAttribute('data-verify-url'), { response: answer }, csrf);
        window.location.assign(done.redirect);
      } catch (e) {
        error.textContent = (e && messages[e.name]) || (e && e.message) || 'The passkey could not be used.';
        error.hidden = false;
        button.disabled = false;
      }
    });
  });
})();
`;

function webauthnBundle(): string {
  const require = createRequire(import.meta.url);
  // The package's exports hide its dist folder from resolution; its main entry sits beside it.
  const main = require.resolve('@simplewebauthn/browser');
  return readFileSync(join(dirname(main), '..', 'dist', 'bundle', 'index.umd.min.js'), 'utf8');
}

/** Serves the scripts (passkeys, the app's logout) at `${basePath}/assets/…`, cacheable for a day. */
export function idpAssetRoutes(app: FastifyInstance, basePath: string): void {
  const files: Record<string, string> = {
    [ASSET_FILES.webauthn]: webauthnBundle(),
    [ASSET_FILES.passkeys]: PASSKEYS_SCRIPT,
    [LOGOUT_ASSET]: LOGOUT_SCRIPT,
  };
  for (const [name, body] of Object.entries(files)) {
    app.get(`${basePath}/assets/${name}`, (_request, reply) =>
      reply
        .header('cache-control', 'public, max-age=86400')
        .type('text/javascript; charset=utf-8')
        .send(body),
    );
  }
}
