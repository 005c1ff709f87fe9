import nodemailer from 'nodemailer';
import { ConfigError } from '../../config.js';
import type { ClosableMailer, MailFailureReason, MailLogger, MailMessage, MailReceipt } from './mailer.js';
import { MailDeliveryError, outgoingMail, recipientDomain, redactMailError } from './mailer.js';

export interface SmtpMailerOptions {
  /**
   * `smtp://user:pass@host:587` (STARTTLS when the server offers it) or `smtps://user:pass@host:465`
   * (TLS from the start). Query parameters become nodemailer options (`?requireTLS=true`).
   */
  url: string;
  /** `From` header, e.g. `Coffer <no-reply@example.com>`. */
  from: string;
  logger: MailLogger;
  /** Upper bound for one send, queueing included, so a stalling server cannot hang a request. */
  sendTimeoutMs?: number;
}

export interface SmtpMailer extends ClosableMailer {
  /** Connects and authenticates once; rejects with {@link MailDeliveryError}. For a start-up check. */
  verify(): Promise<void>;
}

const CONNECTION_TIMEOUT_MS = 10_000;
const GREETING_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;
const DEFAULT_SEND_TIMEOUT_MS = 60_000;

/** The fields of a nodemailer error that say what went wrong, read without trusting the shape. */
function errorFacts(error: unknown): { message: string; code?: string; responseCode?: number } {
  if (!(error instanceof Error)) return { message: String(error) };
  const { code, responseCode } = error as Error & { code?: unknown; responseCode?: unknown };
  return {
    message: error.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof responseCode === 'number' ? { responseCode } : {}),
  };
}

function classify(code: string | undefined, responseCode: number | undefined): MailFailureReason {
  if (responseCode !== undefined && responseCode >= 500 && code !== 'EAUTH') return 'rejected';
  switch (code ?? '') {
    case 'EENVELOPE':
    case 'EMESSAGE':
      return 'rejected';
    case 'ECONNECTION':
    case 'ETIMEDOUT':
    case 'ESOCKET':
    case 'EDNS':
    case 'ETLS':
    case 'EPROXY':
    case 'EABORT':
      return 'unavailable';
    default:
      return 'failed';
  }
}

function toDeliveryError(
  error: unknown,
  logger: MailLogger,
  context: Record<string, unknown>,
): MailDeliveryError {
  const { message, code, responseCode } = errorFacts(error);
  const reason = classify(code, responseCode);
  const detail = redactMailError(message);
  logger.warn({ ...context, code, responseCode, reason, detail }, 'mail delivery failed');
  return new MailDeliveryError(`Mail delivery failed: ${detail}`, reason);
}

function parseSmtpUrl(url: string): void {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    // Never echo the URL: it usually carries the password.
    throw new ConfigError('SMTP_URL must be a URL like smtp://user:password@host:587');
  }
  if (protocol !== 'smtp:' && protocol !== 'smtps:') {
    throw new ConfigError(`SMTP_URL must start with smtp:// or smtps://, got ${protocol}//`);
  }
}

/**
 * Production mail over SMTP with a small connection pool. Each send is bounded by the timeouts
 * and `sendTimeoutMs`; every failure becomes a {@link MailDeliveryError} whose message carries no
 * credentials and no addresses. Logs one line per message (message id and recipient domain).
 */
export function createSmtpMailer(options: SmtpMailerOptions): SmtpMailer {
  parseSmtpUrl(options.url);
  const sendTimeoutMs = options.sendTimeoutMs ?? DEFAULT_SEND_TIMEOUT_MS;
  const transport = nodemailer.createTransport({
    url: options.url,
    pool: true,
    maxConnections: 3,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    greetingTimeout: GREETING_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    dnsTimeout: CONNECTION_TIMEOUT_MS,
    // A server that drops every connection fails the message after two retries, not five.
    maxRequeues: 2,
    disableFileAccess: true,
    disableUrlAccess: true,
  });

  return {
    async send(message: MailMessage): Promise<MailReceipt> {
      const mail = outgoingMail(options.from, message);
      const domain = recipientDomain(message.to);
      try {
        const info = await transport.sendMail({ ...mail, signal: AbortSignal.timeout(sendTimeoutMs) });
        // Servers may accept the session yet refuse this recipient: nodemailer then resolves.
        if (info.rejected.length > 0 || info.accepted.length === 0) {
          const reply = redactMailError(info.response);
          options.logger.warn(
            { recipientDomain: domain, reason: 'rejected', detail: reply },
            'mail delivery failed',
          );
          throw new MailDeliveryError('Mail delivery failed: the server refused the recipient', 'rejected');
        }
        options.logger.info({ messageId: info.messageId, recipientDomain: domain }, 'mail sent');
        return { messageId: info.messageId };
      } catch (error) {
        if (error instanceof MailDeliveryError) throw error;
        throw toDeliveryError(error, options.logger, { recipientDomain: domain });
      }
    },
    async verify(): Promise<void> {
      try {
        await transport.verify();
      } catch (error) {
        throw toDeliveryError(error, options.logger, { action: 'verify' });
      }
    },
    close(): Promise<void> {
      transport.close();
      return Promise.resolve();
    },
  };
}
