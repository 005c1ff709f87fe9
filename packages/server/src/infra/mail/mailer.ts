import type { BaseLogger } from 'pino';
import { CodedError } from '../../coded-error.js';

/** One message to one recipient. `text` is the plain-text alternative of `html`. */
export interface MailMessage {
  /** A single bare address (`bob@example.com`), never a list. */
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailReceipt {
  /** The message's `Message-ID` header value, angle brackets included. */
  messageId: string;
}

/** Outgoing mail. Implementations: outbox folder (embedded default), SMTP (production), memory (tests). */
export interface Mailer {
  /** Resolves once the message is handed over (written or accepted by the server); rejects with {@link MailDeliveryError}. */
  send(message: MailMessage): Promise<MailReceipt>;
}

/** A mailer the composition root owns: `close()` releases connections (SMTP pool) on shutdown. */
export interface ClosableMailer extends Mailer {
  close(): Promise<void>;
}

/** The subset of a pino (or Fastify) logger the mailers use. */
export type MailLogger = Pick<BaseLogger, 'info' | 'warn'>;

/**
 * Why a delivery failed: `invalid_recipient` (not a single address, nothing was sent),
 * `rejected` (the server refused the sender, recipient or message; retrying will not help),
 * `unavailable` (the server could not be reached or dropped the connection; retrying may help),
 * `failed` (anything else: authentication, a full disk, ...).
 */
export type MailFailureReason = 'invalid_recipient' | 'rejected' | 'unavailable' | 'failed';

export class MailDeliveryError extends CodedError {
  readonly code = 'MAIL_DELIVERY_FAILED';
  constructor(
    message: string,
    readonly reason: MailFailureReason,
  ) {
    super(message);
  }
}

// No whitespace, separators, quotes or brackets: anything that could turn one recipient into a list
// or a display name into an address. Deliberately looser than RFC 5321 on the rest.
const SINGLE_ADDRESS = /^[^\s@<>,;:"()[\]\\]+@[^\s@<>,;:"()[\]\\]+$/u;

/** Throws unless `to` is exactly one bare address, so user input can never add recipients. */
export function assertSingleRecipient(to: string): void {
  if (to.length > 254 || !SINGLE_ADDRESS.test(to)) {
    throw new MailDeliveryError(
      'Mail delivery failed: the recipient is not a single email address',
      'invalid_recipient',
    );
  }
}

/**
 * What a nodemailer transport sends for `message`: its own fields only, from `from`. Throws first unless
 * the recipient is a single address (see {@link assertSingleRecipient}).
 */
export function outgoingMail(from: string, message: MailMessage): MailMessage & { from: string } {
  assertSingleRecipient(message.to);
  return { from, to: message.to, subject: message.subject, text: message.text, html: message.html };
}

/** The part after the last `@`, lower-cased: what the mailers may log about a recipient. */
export function recipientDomain(to: string): string {
  return to.slice(to.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * Makes a transport error message safe for logs and API errors: drops the user info of any URL
 * (`smtps://user:secret@host` → `smtps://host`) and masks email addresses, which SMTP servers
 * echo in their replies.
 */
export function redactMailError(message: string): string {
  return message
    .replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/giu, '$1')
    .replace(/[^\s<>@"'(),;:]+@[^\s<>@"'(),;:]+/gu, '<address>');
}

/** `MAIL_FROM` default: `Coffer <no-reply@host-of-the-public-url>`. */
export function defaultMailFrom(publicUrl: string): string {
  return `Coffer <no-reply@${new URL(publicUrl).hostname}>`;
}
