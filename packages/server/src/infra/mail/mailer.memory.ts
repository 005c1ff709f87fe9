import { randomUUID } from 'node:crypto';
import type { ClosableMailer, MailMessage, MailReceipt } from './mailer.js';
import { assertSingleRecipient } from './mailer.js';

export interface SentMail extends MailMessage {
  messageId: string;
}

export interface MemoryMailer extends ClosableMailer {
  /** Every message sent so far, oldest first. */
  readonly sent: readonly SentMail[];
}

/** For tests of the services that send mail: keeps messages in memory instead of delivering them. */
export function createMemoryMailer(): MemoryMailer {
  const sent: SentMail[] = [];
  return {
    sent,
    // async so that a bad recipient rejects like the other mailers instead of throwing.
    // eslint-disable-next-line @typescript-eslint/require-await
    async send(message: MailMessage): Promise<MailReceipt> {
      assertSingleRecipient(message.to);
      const messageId = `<${randomUUID()}@memory.invalid>`;
      sent.push({ ...message, messageId });
      return { messageId };
    },
    close: () => Promise.resolve(),
  };
}
