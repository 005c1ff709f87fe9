import { actionMail } from '../mail/mail-templates.js';
import type { MailMessage } from '../mail/mailer.js';

/** Mails to an account's owner about its sign-in security: a new device, a factor added or removed. */

export type FactorChange =
  | 'totp-added'
  | 'totp-removed'
  | 'passkey-added'
  | 'passkey-removed'
  | 'recovery-code-used'
  | 'recovery-codes-renewed'
  | 'signed-out-everywhere';

const CHANGES: Readonly<Record<FactorChange, { subject: string; line: string }>> = {
  'totp-added': {
    subject: 'Two-step verification is on for your Coffer account',
    line: 'An authenticator app was added to your Coffer account: signing in now asks for its code after the password.',
  },
  'totp-removed': {
    subject: 'Two-step verification was turned off for your Coffer account',
    line: 'The authenticator app was removed from your Coffer account: signing in no longer asks for its code.',
  },
  'passkey-added': {
    subject: 'A passkey was added to your Coffer account',
    line: 'A new passkey can now sign in to your Coffer account.',
  },
  'passkey-removed': {
    subject: 'A passkey was removed from your Coffer account',
    line: 'A passkey was removed from your Coffer account and can no longer sign in.',
  },
  'recovery-code-used': {
    subject: 'A recovery code was used to sign in to your Coffer account',
    line: 'Someone signed in to your Coffer account with the password and one of your one-time recovery codes.',
  },
  'recovery-codes-renewed': {
    subject: 'New recovery codes for your Coffer account',
    line: 'New one-time recovery codes were made for your Coffer account; the earlier ones no longer work.',
  },
  'signed-out-everywhere': {
    subject: 'Your Coffer account was signed out everywhere',
    line: 'Every device signed in to your Coffer account was signed out, and its access ended.',
  },
};

const NOT_YOU =
  'If this was not you, open the security page now: sign out everywhere and reset your password from the sign-in page.';

export function factorChangeMail(input: { to: string; change: FactorChange; link: string }): MailMessage {
  const { subject, line } = CHANGES[input.change];
  return actionMail(input.to, subject, {
    intro: [line],
    action: 'Review your sign-in security',
    link: input.link,
    footer: [NOT_YOU],
  });
}

export function newDeviceMail(input: { to: string; device: string; link: string }): MailMessage {
  return actionMail(input.to, 'New sign-in to your Coffer account', {
    intro: [
      `Your Coffer account was just signed in to from a browser it was not used on before: ${input.device}.`,
    ],
    action: 'Review your devices',
    link: input.link,
    footer: [NOT_YOU],
  });
}

/** First match wins (Edge and Opera say "Chrome" too, Chrome says "Safari"). */
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/Edg\//, 'Edge'],
  [/OPR\//, 'Opera'],
  [/Firefox\//, 'Firefox'],
  [/(Chrome|Chromium|CriOS)\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

/** "Chrome on Linux", "Safari on iPhone": a name a person recognises, from a user agent. */
export function deviceLabel(userAgent: string): string {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser === undefined) return system === undefined ? 'Unknown browser' : `A browser on ${system}`;
  return system === undefined ? browser : `${browser} on ${system}`;
}
