import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { ClosableMailer, MailLogger, MailMessage, MailReceipt } from './mailer.js';
import { MailDeliveryError, outgoingMail, redactMailError } from './mailer.js';

export interface OutboxMailerOptions {
  /** Folder the `.eml` files go to; created on first send. */
  dir: string;
  /** `From` header, e.g. `Coffer <no-reply@example.com>`. */
  from: string;
  logger: MailLogger;
}

/** `2025-01-31T09-15-02-123Z`: sorts by time and is a valid file name everywhere. */
function fileTimestamp(date: Date): string {
  return date.toISOString().replace(/[:.]/g, '-');
}

/** The unique part of `<uuid@domain>`, reduced to file-name-safe characters. */
function idFromMessageId(messageId: string): string {
  const local = messageId.replace(/^</, '').split('@')[0] ?? '';
  const safe = local.replace(/[^A-Za-z0-9-]/g, '');
  return safe === '' ? randomUUID() : safe;
}

/** Writes `bytes` to `path` so that readers see either no file or the whole file. */
async function writeFileAtomically(dir: string, name: string, bytes: Uint8Array): Promise<void> {
  // A dot-prefixed temp name in the same folder: rename is atomic within one file system, and
  // tools watching for `*.eml` never pick up a half-written message.
  const tempPath = join(dir, `.${name}.${randomUUID()}.tmp`);
  try {
    const handle = await open(tempPath, 'wx', 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tempPath, join(dir, name));
  } catch (error) {
    await rm(tempPath, { force: true });
    throw error;
  }
}

/**
 * The embedded default: every message becomes a complete RFC 5322 file
 * `<dir>/<timestamp>-<id>.eml` (open it in any mail client) plus one log line with the file name
 * and subject. The recipient's address stays out of the log.
 */
export function createOutboxMailer(options: OutboxMailerOptions): ClosableMailer {
  const composer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
    disableFileAccess: true,
    disableUrlAccess: true,
  });

  return {
    async send(message: MailMessage): Promise<MailReceipt> {
      const mail = outgoingMail(options.from, message);
      try {
        const info = await composer.sendMail(mail);
        if (!(info.message instanceof Uint8Array)) throw new Error('the composer returned a stream');
        const file = `${fileTimestamp(new Date())}-${idFromMessageId(info.messageId)}.eml`;
        await mkdir(options.dir, { recursive: true });
        await writeFileAtomically(options.dir, file, info.message);
        options.logger.info(
          { file: join(options.dir, file), subject: message.subject },
          'mail written to outbox',
        );
        return { messageId: info.messageId };
      } catch (error) {
        const detail = redactMailError(error instanceof Error ? error.message : String(error));
        options.logger.warn({ detail }, 'writing mail to outbox failed');
        throw new MailDeliveryError(`Mail delivery failed: ${detail}`, 'failed');
      }
    },
    close(): Promise<void> {
      composer.close();
      return Promise.resolve();
    },
  };
}
