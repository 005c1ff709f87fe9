import { escapeHtml } from '../../http/html-page.js';
import type { MailMessage } from './mailer.js';

// Pure functions: identity claims and configuration in, a ready message out. Names come from
// identity claims the user controls, so they are cleaned for headers and escaped for HTML.
// File names never appear: a share notification says only that a file (or how many) was shared.

export interface InvitationMailInput {
  inviterName: string;
  inviterEmail: string;
  to: string;
  /** Public URL of the web app, without a trailing slash (one is tolerated). */
  appUrl: string;
}

export interface ShareNotificationMailInput {
  ownerName: string;
  ownerEmail: string;
  to: string;
  /** The files of one share action (at least one); only their number and, for one, its id show. */
  fileIds: readonly string[];
  appUrl: string;
}

const MAX_NAME_LENGTH = 80;

/** One line, no control characters, bounded length: safe in a subject and short in a sentence. */
function cleanName(name: string): string {
  const oneLine = name
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
  const chars = Array.from(oneLine);
  return chars.length > MAX_NAME_LENGTH ? `${chars.slice(0, MAX_NAME_LENGTH - 1).join('')}…` : oneLine;
}

/** How the sender is named: the cleaned name, or the email when there is no (distinct) name. */
function senderLabel(name: string, email: string): string {
  const cleaned = cleanName(name);
  return cleaned === '' ? email : cleaned;
}

/** "Ada Lovelace (ada@example.com)", or just the email: the address is always visible, so a made-up name cannot pass as someone else. */
function senderWithEmail(label: string, email: string): string {
  return label === email ? email : `${label} (${email})`;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

interface Layout {
  /** Paragraphs before the button, already escaped HTML. */
  introHtml: string[];
  buttonLabel: string;
  link: string;
  /** Paragraphs after the button, plain text (escaped here). */
  footer: string[];
}

function renderHtml(title: string, layout: Layout): string {
  const p = 'margin:0 0 16px;font-size:15px;line-height:1.5;color:#1f2933';
  const small = 'margin:0 0 8px;font-size:13px;line-height:1.5;color:#52606d';
  const href = escapeHtml(layout.link);
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f5f7fa;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif">',
    '<div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">',
    '<p style="margin:0 0 24px;font-size:20px;font-weight:600;color:#1f2933">Coffer</p>',
    ...layout.introHtml.map((html) => `<p style="${p}">${html}</p>`),
    `<p style="margin:24px 0"><a href="${href}" style="display:inline-block;padding:12px 20px;background:#1c7ed6;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600">${escapeHtml(layout.buttonLabel)}</a></p>`,
    `<p style="${small}">Or open this link: <a href="${href}" style="color:#1c7ed6">${href}</a></p>`,
    ...layout.footer.map((text) => `<p style="${small}">${escapeHtml(text)}</p>`),
    '</div></body></html>',
  ].join('\n');
}

/** "Ada invited you to Coffer": links to `/invite/<inviter email>?reason=invite-email`. */
export function invitationMail(input: InvitationMailInput): MailMessage {
  const label = senderLabel(input.inviterName, input.inviterEmail);
  const sender = senderWithEmail(label, input.inviterEmail);
  const link = `${trimSlash(input.appUrl)}/invite/${encodeURIComponent(input.inviterEmail)}?reason=invite-email`;
  // The verified address stands beside the name the inviter chose, in the subject too.
  const subject = `${sender} invited you to Coffer`;
  const intro = `${sender} invited you to Coffer, so the two of you can exchange end-to-end encrypted files.`;
  const why =
    'Files on Coffer are encrypted in your browser before they are uploaded. Only you and the people you share them with can read them.';
  const footer = ["If you weren't expecting this invitation, you can ignore this email."];
  const text = [
    'Hi,',
    '',
    intro,
    '',
    why,
    '',
    `Accept the invitation: ${link}`,
    '',
    ...footer,
    '',
    '— Coffer',
    '',
  ].join('\n');
  const html = renderHtml(subject, {
    introHtml: ['Hi,', escapeHtml(intro), escapeHtml(why)],
    buttonLabel: 'Accept invitation',
    link,
    footer,
  });
  return { to: input.to, subject, text, html };
}

/**
 * "Ada shared a file with you on Coffer", or "Ada shared 4 files with you on Coffer" for one share
 * action over several files: one mail per action. Links to `/share/<file id>` for one file and to
 * Shared With Me for several; never names a file (the server does not know the names in clear).
 */
export function shareNotificationMail(input: ShareNotificationMailInput): MailMessage {
  const label = senderLabel(input.ownerName, input.ownerEmail);
  const sender = senderWithEmail(label, input.ownerEmail);
  const appUrl = trimSlash(input.appUrl);
  const [only, ...more] = input.fileIds;
  const single = only !== undefined && more.length === 0;
  const what = single ? 'a file' : `${input.fileIds.length} files`;
  return actionMail(input.to, `${sender} shared ${what} with you on Coffer`, {
    intro: [
      `${sender} shared ${what} with you on Coffer.`,
      single
        ? 'The file is end-to-end encrypted: it is decrypted in your browser after you unlock Coffer, and only you can open your copy.'
        : 'The files are end-to-end encrypted: they are decrypted in your browser after you unlock Coffer, and only you can open your copies.',
    ],
    action: single ? 'Open the file' : 'Open the files',
    link: single ? `${appUrl}/share/${encodeURIComponent(only)}` : `${appUrl}/sharedwithme`,
    footer: ['You get this email because someone shared a file with this address on Coffer.'],
  });
}

/** A mail with one action link, in the common layout: text and HTML alternatives. */
export function actionMail(
  to: string,
  subject: string,
  parts: { intro: string[]; action: string; link: string; footer: string[] },
): MailMessage {
  const text = [
    'Hi,',
    '',
    ...parts.intro.flatMap((line) => [line, '']),
    `${parts.action}: ${parts.link}`,
    '',
    ...parts.footer,
    '',
    '— Coffer',
    '',
  ].join('\n');
  const html = renderHtml(subject, {
    introHtml: ['Hi,', ...parts.intro.map(escapeHtml)],
    buttonLabel: parts.action,
    link: parts.link,
    footer: parts.footer,
  });
  return { to, subject, text, html };
}

export interface AccountMailInput {
  to: string;
  /** The page behind the link, absolute (built from PUBLIC_URL only). */
  link: string;
}

/** The link that confirms a new account's address. Names no one: the name was typed by whoever signed up. */
export function emailVerificationMail(input: AccountMailInput): MailMessage {
  return actionMail(input.to, 'Confirm your email address for Coffer', {
    intro: [
      'Someone, hopefully you, created a Coffer account with this email address.',
      'To confirm that the address is yours, open the link below and enter the password you chose for the account. The link works for 24 hours, once.',
    ],
    action: 'Confirm email address',
    link: input.link,
    footer: [
      'If you did not create a Coffer account, ignore this email: without the password, nobody can confirm the address, and the account is deleted after a week.',
    ],
  });
}

/** A password reset link. Sent only to addresses that have an account; the page never says which do. */
export function passwordResetMail(input: AccountMailInput): MailMessage {
  return actionMail(input.to, 'Reset your Coffer password', {
    intro: [
      'Someone asked to reset the password of the Coffer account with this email address.',
      'Open the link below to choose a new password. The link works for one hour, once. Setting a new password signs the account out everywhere.',
    ],
    action: 'Choose a new password',
    link: input.link,
    footer: [
      'If you did not ask for this, ignore this email: your password stays as it is.',
      'Your files stay encrypted with your master unlock key, which a password reset does not change.',
    ],
  });
}

/** Sign-up with an address that already has a confirmed account: tell its owner, not the visitor. */
export function accountExistsMail(input: AccountMailInput): MailMessage {
  return actionMail(input.to, 'You already have a Coffer account', {
    intro: [
      'Someone tried to create a Coffer account with this email address, but the address already has one.',
      'If it was you, sign in instead. If you forgot your password, you can reset it from the sign-in page.',
    ],
    action: 'Go to Coffer',
    link: input.link,
    footer: ['If it was not you, you can ignore this email: nothing has changed.'],
  });
}
