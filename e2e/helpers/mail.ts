import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';

/**
 * The e2e server's mail, as a person would read it: the embedded default writes every message as an
 * `.eml` file to `$DATA_DIR/outbox` (named `<ISO timestamp>-<id>.eml`, so names sort by time).
 * A small reader of what nodemailer writes: headers, multipart bodies, quoted-printable or base64.
 */

export interface Mail {
  /** The file name in the outbox (unique; sorts by time). */
  file: string;
  to: string;
  subject: string;
  /** The decoded text of every part (plain text and HTML). */
  body: string;
}

function outboxDir(): string {
  const dataDir = process.env.COFFER_E2E_DATA_DIR;
  if (dataDir === undefined) throw new Error('COFFER_E2E_DATA_DIR is not set (see playwright.config.ts)');
  return join(dataDir, 'outbox');
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

function splitPart(raw: string): Part {
  const text = raw.replace(/\r\n/g, '\n');
  const end = text.indexOf('\n\n');
  const head = end < 0 ? text : text.slice(0, end);
  const headers = new Map<string, string>();
  // Folded header lines continue with whitespace.
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: end < 0 ? '' : text.slice(end + 2) };
}

/** Quoted-printable: soft line breaks (`=` at a line end) go, `=XX` is a byte of UTF-8. */
export function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...encoder.encode(joined[i]));
    }
  }
  return new TextDecoder().decode(Uint8Array.from(bytes));
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) in a header. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=/g, (_word, mode: string, data: string) =>
      mode.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}

function leafTexts(part: Part): string[] {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary !== undefined) {
    return part.body
      .split(`--${boundary}`)
      .slice(1)
      .filter((section) => !section.startsWith('--'))
      .flatMap((section) => leafTexts(splitPart(section.replace(/^\n/, ''))));
  }
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return [Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8')];
  if (encoding === 'quoted-printable') return [decodeQuotedPrintable(part.body)];
  return [part.body];
}

/** Parses one `.eml` file's text. */
export function parseMail(file: string, raw: string): Mail {
  const message = splitPart(raw);
  return {
    file,
    to: decodeHeader(message.headers.get('to') ?? ''),
    subject: decodeHeader(message.headers.get('subject') ?? ''),
    body: leafTexts(message).join('\n'),
  };
}

/** The address inside a `To` header (`"Ann" <ann@example.com>` or a bare address). */
function addressOf(to: string): string {
  return (/<([^>]+)>/.exec(to)?.[1] ?? to).trim().toLowerCase();
}

/** Every message in the outbox to `to` with exactly this subject, oldest first. */
export function mailsTo(to: string, subject: string): Mail[] {
  return allMailsTo(to).filter((mail) => mail.subject === subject);
}

/** Every message in the outbox to `to`, oldest first. */
export function allMailsTo(to: string): Mail[] {
  let files: string[];
  try {
    files = readdirSync(outboxDir()).filter((name) => name.endsWith('.eml'));
  } catch {
    return [];
  }
  return files
    .sort()
    .map((name) => parseMail(name, readFileSync(join(outboxDir(), name), 'utf8')))
    .filter((mail) => addressOf(mail.to) === to.toLowerCase());
}

/**
 * Waits for the newest message to `to` with `subject` that is not one of `seen` (pass the messages
 * read before an action that sends another), and returns it.
 */
export async function waitForMail(
  to: string,
  subject: string,
  options: { seen?: readonly Mail[]; timeout?: number } = {},
): Promise<Mail> {
  const seen = new Set((options.seen ?? []).map((mail) => mail.file));
  let found: Mail | undefined;
  await expect
    .poll(
      () => {
        found = mailsTo(to, subject)
          .filter((mail) => !seen.has(mail.file))
          .at(-1);
        return found !== undefined;
      },
      { message: `a mail to ${to} with the subject "${subject}"`, timeout: options.timeout ?? 15_000 },
    )
    .toBe(true);
  if (found === undefined) throw new Error('unreachable: the poll ended without a mail');
  return found;
}

/** The first link in the mail that starts with `prefix` (e.g. `${baseURL}/idp/email/verify?token=`). */
export function linkIn(mail: Mail, prefix: string): string {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}[^\\s"'<>]*`).exec(mail.body);
  if (match === null) throw new Error(`no link starting with ${prefix} in the mail "${mail.subject}"`);
  // The HTML part escapes `&`; the plain-text part does not.
  return match[0].replace(/&amp;/g, '&');
}

export const mailSubjects = {
  verify: 'Confirm your email address for Coffer',
  reset: 'Reset your Coffer password',
} as const;
