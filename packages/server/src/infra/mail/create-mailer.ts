import type { ClosableMailer, MailLogger } from './mailer.js';
import { createOutboxMailer } from './mailer.outbox.js';
import { createSmtpMailer } from './mailer.smtp.js';

export interface CreateMailerOptions {
  /** `SMTP_URL`; when set (non-empty) mail goes over SMTP, otherwise to the outbox folder. */
  smtpUrl?: string | undefined;
  /** `MAIL_FROM`, see `defaultMailFrom`. */
  from: string;
  /** Outbox folder for the embedded default, e.g. `<dataDir>/outbox`. */
  outboxDir: string;
  logger: MailLogger;
}

/** Picks the mail backend from configuration. Called only by the composition root. */
export function createMailer(options: CreateMailerOptions): ClosableMailer {
  if (options.smtpUrl !== undefined && options.smtpUrl !== '') {
    return createSmtpMailer({ url: options.smtpUrl, from: options.from, logger: options.logger });
  }
  return createOutboxMailer({ dir: options.outboxDir, from: options.from, logger: options.logger });
}
