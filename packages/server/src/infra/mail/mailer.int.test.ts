import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import type { SMTPServerOptions } from 'smtp-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../config.js';
import { createMailer } from './create-mailer.js';
import type { DeliveredMail } from './mailer.contract.js';
import { CONTRACT_FROM, runMailerContract } from './mailer.contract.js';
import type { MailLogger, MailMessage } from './mailer.js';
import { MailDeliveryError } from './mailer.js';
import { createMemoryMailer } from './mailer.memory.js';
import { createOutboxMailer } from './mailer.outbox.js';
import { createSmtpMailer } from './mailer.smtp.js';
import { parseEml } from './parse-eml.js';

/** A pino logger writing JSON lines into `lines`, so tests can check what gets logged. */
function capturingLogger(): { logger: MailLogger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString('utf8'));
      callback();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

const silent: MailLogger = pino({ level: 'silent' });

function message(overrides: Partial<MailMessage> = {}): MailMessage {
  return { to: 'bob@example.org', subject: 'Subject', text: 'Text', html: '<p>HTML</p>', ...overrides };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

// --- outbox -------------------------------------------------------------------------------------

async function readOutbox(dir: string): Promise<DeliveredMail[]> {
  const names = (await readdir(dir).catch(() => [])).filter((name) => name.endsWith('.eml'));
  return Promise.all(names.map(async (name) => parseEml(await readFile(join(dir, name), 'utf8'))));
}

runMailerContract('outbox', async () => {
  const root = await mkdtemp(join(tmpdir(), 'coffer-outbox-'));
  const dir = join(root, 'outbox');
  return {
    mailer: createOutboxMailer({ dir, from: CONTRACT_FROM, logger: silent }),
    from: CONTRACT_FROM,
    delivered: () => readOutbox(dir),
    teardown: () => rm(root, { recursive: true, force: true }),
  };
});

// --- SMTP ---------------------------------------------------------------------------------------

interface TestSmtpServer {
  port: number;
  received: { raw: string; rcptTo: string[] }[];
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 that keeps every message it accepts. */
async function startSmtpServer(options: SMTPServerOptions = {}): Promise<TestSmtpServer> {
  const received: TestSmtpServer['received'] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          raw: Buffer.concat(chunks).toString('utf8'),
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
        });
        callback();
      });
    },
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}

runMailerContract('smtp', async () => {
  const server = await startSmtpServer();
  const mailer = createSmtpMailer({
    url: `smtp://127.0.0.1:${server.port}`,
    from: CONTRACT_FROM,
    logger: silent,
  });
  return {
    mailer,
    from: CONTRACT_FROM,
    delivered: () =>
      Promise.resolve(
        server.received.map(({ raw, rcptTo }) => {
          const mail = parseEml(raw);
          // The envelope, not only the header, must name exactly the one recipient.
          expect(rcptTo).toEqual([mail.to]);
          return mail;
        }),
      ),
    teardown: async () => {
      await mailer.close();
      await server.close();
    },
  };
});

// --- memory -------------------------------------------------------------------------------------

runMailerContract('memory', () => {
  const mailer = createMemoryMailer();
  return Promise.resolve({
    mailer,
    from: CONTRACT_FROM,
    delivered: () => Promise.resolve(mailer.sent.map((m) => ({ ...m, from: CONTRACT_FROM }))),
    teardown: () => mailer.close(),
  });
});

// --- implementation specifics -------------------------------------------------------------------

describe('outbox mailer', () => {
  let root: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'coffer-outbox-'));
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('writes <timestamp>-<id>.eml files and leaves no temp files behind', async () => {
    const dir = join(root, 'nested', 'outbox');
    const mailer = createOutboxMailer({ dir, from: CONTRACT_FROM, logger: silent });
    await Promise.all([mailer.send(message()), mailer.send(message()), mailer.send(message())]);

    const names = await readdir(dir);
    expect(names).toHaveLength(3);
    for (const name of names)
      expect(name).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[A-Za-z0-9-]+\.eml$/);
    const raw = await readFile(join(dir, names[0] ?? ''), 'utf8');
    // RFC 5322 line ends, and a date header a mail client can sort by.
    expect(raw).toContain('\r\n');
    expect(raw.replace(/\r\n/g, '')).not.toContain('\n');
    expect(raw).toMatch(/^Date: /m);
  });

  it('logs the file and subject but never the recipient address', async () => {
    const { logger, lines } = capturingLogger();
    const dir = join(root, 'outbox');
    const mailer = createOutboxMailer({ dir, from: CONTRACT_FROM, logger });
    await mailer.send(message({ to: 'secret.person@example.org', subject: 'Ada invited you to Coffer' }));

    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] ?? '{}') as { file: string; subject: string; msg: string };
    const [name] = await readdir(dir);
    expect(line).toMatchObject({ file: join(dir, name ?? ''), subject: 'Ada invited you to Coffer' });
    expect(lines[0]).not.toContain('secret.person');
  });

  it('fails with MailDeliveryError when the folder cannot be written, leaving nothing behind', async () => {
    const blocker = join(root, 'not-a-folder');
    await writeFile(blocker, 'x');
    const mailer = createOutboxMailer({ dir: join(blocker, 'outbox'), from: CONTRACT_FROM, logger: silent });

    const error = await rejection(mailer.send(message()));
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect(error).toMatchObject({ code: 'MAIL_DELIVERY_FAILED', reason: 'failed' });
    expect(await readdir(root)).toEqual(['not-a-folder']);
  });
});

describe('SMTP mailer', () => {
  const cleanups: (() => Promise<void>)[] = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function server(options: SMTPServerOptions = {}): Promise<TestSmtpServer> {
    const started = await startSmtpServer(options);
    cleanups.push(() => started.close());
    return started;
  }

  function mailer(url: string, logger: MailLogger = silent): ReturnType<typeof createSmtpMailer> {
    const created = createSmtpMailer({ url, from: CONTRACT_FROM, logger });
    cleanups.push(() => created.close());
    return created;
  }

  async function closedPort(): Promise<number> {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => {
      probe.close(() => {
        resolve();
      });
    });
    return port;
  }

  it('fails quickly with MailDeliveryError when the server is down', async () => {
    const port = await closedPort();
    const started = Date.now();
    const error = await rejection(mailer(`smtp://127.0.0.1:${port}`).send(message()));

    expect(error).toBeInstanceOf(MailDeliveryError);
    expect(error).toMatchObject({ code: 'MAIL_DELIVERY_FAILED', reason: 'unavailable' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('fails with MailDeliveryError when the server rejects the recipient, without echoing the address', async () => {
    const { logger, lines } = capturingLogger();
    const smtp = await server({
      onRcptTo(address, _session, callback) {
        const error = Object.assign(new Error(`<${address.address}>: no such user here`), {
          responseCode: 550,
        });
        callback(error);
      },
    });

    const error = await rejection(
      mailer(`smtp://127.0.0.1:${smtp.port}`, logger).send(message({ to: 'ghost@example.org' })),
    );
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect(error).toMatchObject({ code: 'MAIL_DELIVERY_FAILED', reason: 'rejected' });
    expect((error as Error).message).not.toContain('ghost');
    expect(lines.join('')).not.toContain('ghost');
    expect(smtp.received).toEqual([]);
  });

  it('authenticates with the credentials in the URL', async () => {
    const smtp = await server({
      authOptional: false,
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        if (auth.username === 'coffer' && auth.password === 'p@ss word') callback(null, { user: 'coffer' });
        else callback(new Error('Invalid username or password'));
      },
    });
    const url = `smtp://coffer:${encodeURIComponent('p@ss word')}@127.0.0.1:${smtp.port}`;

    await mailer(url).verify();
    await mailer(url).send(message());
    expect(smtp.received).toHaveLength(1);
  });

  it('keeps the password out of errors and logs when authentication fails', async () => {
    const { logger, lines } = capturingLogger();
    const smtp = await server({
      authOptional: false,
      allowInsecureAuth: true,
      onAuth(_auth, _session, callback) {
        callback(new Error('Invalid username or password'));
      },
    });
    const url = `smtp://coffer:hunter2secret@127.0.0.1:${smtp.port}`;

    const error = await rejection(mailer(url, logger).send(message()));
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect(error).toMatchObject({ reason: 'failed' });
    expect((error as Error).message).not.toContain('hunter2secret');
    expect(lines.join('')).not.toContain('hunter2secret');
    expect(lines.join('')).not.toContain('bob@example.org');
  });

  it('verify() fails with MailDeliveryError when the server is down', async () => {
    const port = await closedPort();
    const error = await rejection(mailer(`smtp://127.0.0.1:${port}`).verify());
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect(error).toMatchObject({ reason: 'unavailable' });
  });

  it('logs one line per message with the recipient domain only', async () => {
    const { logger, lines } = capturingLogger();
    const smtp = await server();
    const receipt = await mailer(`smtp://127.0.0.1:${smtp.port}`, logger).send(
      message({ to: 'carol@example.net' }),
    );

    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      messageId: receipt.messageId,
      recipientDomain: 'example.net',
    });
    expect(lines[0]).not.toContain('carol');
  });

  it.each([
    ['an unparsable URL', 'not a url with secret-password'],
    ['another scheme', 'https://user:secret-password@mail.example.com'],
  ])('refuses %s with a ConfigError that does not echo it', (_label, url) => {
    let error: unknown;
    try {
      createSmtpMailer({ url, from: CONTRACT_FROM, logger: silent });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).not.toContain('secret-password');
  });
});

describe('createMailer', () => {
  let root: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'coffer-mailer-'));
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('uses the outbox when no SMTP URL is set', async () => {
    const outboxDir = join(root, 'outbox');
    for (const smtpUrl of [undefined, '']) {
      const mailer = createMailer({ smtpUrl, from: CONTRACT_FROM, outboxDir, logger: silent });
      await mailer.send(message());
      await mailer.close();
    }
    expect(await readdir(outboxDir)).toHaveLength(2);
  });

  it('uses SMTP when an SMTP URL is set', async () => {
    const smtp = await startSmtpServer();
    const outboxDir = join(root, 'outbox');
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
      from: CONTRACT_FROM,
      outboxDir,
      logger: silent,
    });
    try {
      await mailer.send(message());
    } finally {
      await mailer.close();
      await smtp.close();
    }
    expect(smtp.received).toHaveLength(1);
    expect(await readdir(root)).toEqual([]);
  });
});
