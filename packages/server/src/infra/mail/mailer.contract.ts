import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MailMessage, Mailer } from './mailer.js';
import { MailDeliveryError } from './mailer.js';

/** A message as the far side saw it: headers decoded, bodies decoded. */
export interface DeliveredMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
}

export interface MailerHarness {
  mailer: Mailer;
  /** The `From` the mailer was built with; the contract expects `Coffer Téam <no-reply@example.com>`. */
  from: string;
  /** Everything delivered so far, in any order. */
  delivered(): Promise<DeliveredMail[]>;
  teardown(): Promise<void>;
}

export const CONTRACT_FROM = 'Coffer Téam <no-reply@example.com>';

function message(overrides: Partial<MailMessage> = {}): MailMessage {
  return {
    to: 'bob@example.org',
    subject: 'Hello from Coffer',
    text: 'Plain text body.\nSecond line.',
    html: '<p>HTML body.</p>\n<p>Second <b>paragraph</b>.</p>',
    ...overrides,
  };
}

async function expectDeliveryError(
  promise: Promise<unknown>,
  reason: MailDeliveryError['reason'],
): Promise<void> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MailDeliveryError);
  expect(error).toMatchObject({ code: 'MAIL_DELIVERY_FAILED', reason });
}

/**
 * The behaviour every {@link Mailer} shares. `setup` builds a fresh mailer (and whatever receives
 * its mail) for each test.
 */
export function runMailerContract(name: string, setup: () => Promise<MailerHarness>): void {
  describe(`Mailer contract: ${name}`, () => {
    let harness: MailerHarness;

    beforeEach(async () => {
      harness = await setup();
    });

    afterEach(async () => {
      await harness.teardown();
    });

    it('delivers one message with its To, From, Subject, text and HTML parts', async () => {
      const sent = message();
      const receipt = await harness.mailer.send(sent);

      const delivered = await harness.delivered();
      expect(delivered).toHaveLength(1);
      const [mail] = delivered;
      expect(mail).toMatchObject({
        to: 'bob@example.org',
        from: CONTRACT_FROM,
        subject: sent.subject,
        text: sent.text,
        html: sent.html,
      });
      expect(receipt.messageId).toMatch(/^<[^<>\s]+@[^<>\s]+>$/);
      expect(mail?.messageId).toBe(receipt.messageId);
    });

    it('keeps non-ASCII subjects, names and bodies intact', async () => {
      const sent = message({
        subject: 'Zoë Ünïcödé shared a file with you 🔐 — 日本語',
        text: 'Grüße von Zoë — 日本語 — emoji 🔐',
        html: '<p>Grüße von <b>Zoë</b> — 日本語 🔐</p>',
      });
      await harness.mailer.send(sent);

      const [mail] = await harness.delivered();
      expect(mail).toMatchObject({
        from: CONTRACT_FROM,
        subject: sent.subject,
        text: sent.text,
        html: sent.html,
      });
    });

    it('keeps long lines, entities and links in the HTML exactly', async () => {
      const longLine = 'word '.repeat(400).trim();
      const sent = message({
        text: `${longLine}\nhttps://app.example.com/invite/a%40b.com?reason=invite-email`,
        html: `<p>${longLine}</p><a href="https://app.example.com/share/1?a=1&amp;b=2">Open &lt;it&gt;</a>`,
      });
      await harness.mailer.send(sent);

      const [mail] = await harness.delivered();
      expect(mail?.text).toBe(sent.text);
      expect(mail?.html).toBe(sent.html);
    });

    it('delivers two sends as two separate messages', async () => {
      const first = await harness.mailer.send(message({ to: 'first@example.org', subject: 'First' }));
      const second = await harness.mailer.send(message({ to: 'second@example.net', subject: 'Second' }));

      const delivered = await harness.delivered();
      expect(delivered).toHaveLength(2);
      expect(first.messageId).not.toBe(second.messageId);
      const byTo = new Map(delivered.map((m) => [m.to, m]));
      expect(byTo.get('first@example.org')).toMatchObject({ subject: 'First', messageId: first.messageId });
      expect(byTo.get('second@example.net')).toMatchObject({
        subject: 'Second',
        messageId: second.messageId,
      });
    });

    it('delivers concurrent sends', async () => {
      const recipients = [
        'a@example.org',
        'b@example.org',
        'c@example.org',
        'd@example.org',
        'e@example.org',
      ];
      await Promise.all(recipients.map((to) => harness.mailer.send(message({ to, subject: `For ${to}` }))));

      const delivered = await harness.delivered();
      expect(delivered.map((m) => m.to).sort()).toEqual(recipients);
      for (const mail of delivered) expect(mail.subject).toBe(`For ${mail.to}`);
    });

    it.each([
      ['a list of recipients', 'bob@example.org, eve@example.org'],
      ['a display name', 'Bob <bob@example.org>'],
      ['a header injection', 'bob@example.org\r\nBcc: eve@example.org'],
      ['an empty address', ''],
      ['no domain', 'bob'],
    ])('refuses %s as recipient without delivering anything', async (_label, to) => {
      await expectDeliveryError(harness.mailer.send(message({ to })), 'invalid_recipient');
      expect(await harness.delivered()).toEqual([]);
    });
  });
}
