/**
 * Schema-driven fuzzing of every route in the OpenAPI document, over a real socket: every request gets an
 * answer and none a 5xx, whatever its path values, query, headers or body (malformed, truncated,
 * overstated), every refusal is the spec's error body (`{code, message}`), and the server must still
 * answer afterwards.
 * Runs on each database with the fs store, and on SQLite with S3 (s3rver), where a store's errors are
 * another source of 5xx; one test file per case (`http/api-fuzz.{sqlite,postgres,s3}.int.test.ts`).
 * `FUZZ_REQUESTS` sets the number per case (default 1,000 per database and 500 on S3, 2,500 in all, a
 * bounded run for `npm test`; `npm run fuzz` sends 20,000 to each). The server's own log is read too,
 * so a 5xx answered to a client that had already gone (a truncated body) is counted as well.
 */
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from './app-harness.js';
import type { TestApp } from './app-harness.js';
import { operationsOf, requestsFor } from './api-fuzz.js';
import type { FuzzContext, FuzzRequest, OpenApiOperation } from './api-fuzz.js';
import { createBlobStore } from '../infra/storage/blob-store.factory.js';
import { startS3TestServer } from '../infra/storage/s3-test-server.js';
import type { S3TestServer } from '../infra/storage/s3-test-server.js';
import { dialectsUnderTest } from './db.js';
import type { TestDatabase } from './db.js';
import { userClaims } from './test-issuer.js';
import { createKey, startMultipart, uploadDirect } from '../modules/files/files.test-helpers.js';

const ASKED = process.env.FUZZ_REQUESTS;
const REQUESTS = Number(ASKED ?? 1000);
/** S3 adds the store's errors, not new routes: half as many in `npm test`. */
const S3_REQUESTS = ASKED === undefined ? 500 : REQUESTS;

/** A case: a database of `dialectsUnderTest`, and the blob store the server writes to. */
export type FuzzCase = 'sqlite' | 'postgres' | 'sqlite+s3';

/**
 * A ceiling for one answer. Every request must get one, also a body cut short (the client half-closes: the
 * server answers 400 at once); a request that reaches the ceiling, or whose connection closes without an
 * answer, fails the test. The server's own request timeout is 5 s here.
 */
const ANSWER_CEILING_MS = 15_000;

interface Answer {
  status: number;
  /** The body, when the whole answer arrived (Content-Length reached); undefined if it was cut off. */
  body: string | undefined;
}

/** The status and (when complete) the body of the raw HTTP answer in `received`, if its head is there. */
function parseAnswer(received: Buffer): Answer | null {
  const text = received.toString('latin1');
  const headEnd = text.indexOf('\r\n\r\n');
  const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
  if (headEnd < 0 || status === null) return null;
  const head = text.slice(0, headEnd);
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  const body = received.subarray(Buffer.byteLength(head, 'latin1') + 4);
  const whole = length === null ? undefined : Number(length[1]) <= body.length;
  return {
    status: Number(status[1]),
    body: whole === true ? body.subarray(0, Number(length?.[1])).toString('utf8') : undefined,
  };
}

/** Writes `req` on a fresh connection; resolves the answer, or null if none came. */
function send(port: number, req: FuzzRequest): Promise<Answer | null> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parseAnswer(Buffer.concat(chunks)));
    };
    const timer = setTimeout(finish, ANSWER_CEILING_MS);
    socket.on('error', finish);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // An error answer is read whole (to check its shape); of any other, the status is enough.
      const answer = parseAnswer(Buffer.concat(chunks));
      if (answer !== null && (answer.status < 400 || answer.body !== undefined)) finish();
    });
    socket.on('close', finish);
    socket.on('connect', () => {
      const sent = req.truncateAt === undefined ? req.body : req.body.subarray(0, req.truncateAt);
      const length = req.declaredLength ?? req.body.length;
      const head = [
        `${req.method} ${req.target} HTTP/1.1`,
        'host: 127.0.0.1',
        'connection: close',
        ...Object.entries(req.headers).map(([k, v]) => `${k}: ${v.replace(/[\r\n]/g, ' ')}`),
        ...(req.method === 'GET' && length === 0 ? [] : [`content-length: ${length}`]),
        '',
        '',
      ].join('\r\n');
      socket.write(head);
      socket.write(sent);
      // A body shorter than announced: the client stops sending (half-close) and waits for an answer.
      if (req.truncateAt !== undefined || req.declaredLength !== undefined) socket.end();
    });
  });
}

/** How `req` was framed, to name a request that got no answer. */
function framingOf(req: FuzzRequest): string {
  const sent = req.truncateAt ?? req.body.length;
  const declared = req.declaredLength ?? req.body.length;
  const halfClosed = req.truncateAt !== undefined || req.declaredLength !== undefined;
  const type = req.headers['content-type'] ?? 'no content-type';
  return `${type}, ${sent} of ${declared} bytes sent${halfClosed ? ', then half-closed' : ''}`;
}

/** The spec's error body: an error code and an error message. */
function hasErrorShape(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return false;
    const { code, message } = parsed as { code?: unknown; message?: unknown };
    return (
      typeof code === 'string' && /^[A-Z_]+$/.test(code) && typeof message === 'string' && message !== ''
    );
  } catch {
    return false;
  }
}

/**
 * Fuzzes one case. Each case is its own test file (`api-fuzz.<case>.int.test.ts`), so Vitest's two
 * workers share them instead of one worker running all three one after another.
 */
export function describeApiFuzz(fuzzCase: FuzzCase): void {
  const name = fuzzCase === 'postgres' ? 'postgres' : 'sqlite';
  const dialect = dialectsUnderTest.find((d) => d.name === name);
  // Never a silent pass: a case whose database is not under test is a failure, not a skip.
  if (dialect === undefined) throw new Error(`no ${name} database under test`);
  const store = fuzzCase === 'sqlite+s3' ? 's3' : 'fs';
  const requests = store === 's3' ? S3_REQUESTS : REQUESTS;
  const { open } = dialect;

  describe(`API fuzz (${name} ${dialect.backend}, ${store} store)`, () => {
    let database: TestDatabase;
    let s3: S3TestServer | undefined;
    let t: TestApp;
    let port: number;
    const logLines: string[] = [];

    beforeAll(async () => {
      database = await open();
      if (store === 's3') s3 = await startS3TestServer();
      t = await startTestApp({
        database,
        env: { LOG_LEVEL: 'info', ADMIN_EMAILS: 'fuzzadmin@example.test', REQUEST_TIMEOUT_SECONDS: '5' },
        overrides: {
          logStream: { write: (line: string) => logLines.push(line) },
          ...(s3 === undefined
            ? {}
            : {
                blobStore: createBlobStore({
                  kind: 's3',
                  bucket: s3.bucket,
                  endpoint: s3.endpoint,
                  region: 'us-east-1',
                  forcePathStyle: true,
                  credentials: s3.credentials,
                }),
              }),
        },
      });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as AddressInfo).port;
    });
    afterAll(async () => {
      await t.close();
      await s3?.close();
      await database.destroy();
    });

    it(
      `answers ${requests} fuzzed requests with no 5xx and stays up`,
      async () => {
        const docRes = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
        const operations: OpenApiOperation[] = operationsOf(docRes.json());
        expect(operations.length).toBeGreaterThan(30);

        const keyId = await createKey(t, 'fuzzer');
        await createKey(t, 'fuzzpeer');
        const { file } = await uploadDirect(t, 'fuzzer', { keyId, size: 1000 });
        const upload = await startMultipart(t, 'fuzzer', { keyId, size: 200 * 1024 * 1024 });
        const ctx: FuzzContext = {
          tokens: [await t.tokenFor('fuzzer'), await t.tokenFor('fuzzer'), await t.tokenFor('fuzzadmin')],
          badTokens: [await t.issuer.mintToken(userClaims('fuzzer'), { expiresInSec: -60 }), 'not-a-jwt'],
          ids: [file.fileId, upload.uploadId, upload.objectKey, keyId, 'fuzzpeer@example.test', '1', '2'],
        };

        const statuses = new Map<number | null, number>();
        const shapeless: string[] = [];
        const unanswered: string[] = [];
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom(...operations).chain((op) => requestsFor(op, ctx)),
            async (req) => {
              const sentAt = Date.now();
              const answer = await send(port, req);
              const status = answer?.status ?? null;
              statuses.set(status, (statuses.get(status) ?? 0) + 1);
              if (answer === null) {
                unanswered.push(
                  `${req.method} ${req.target.slice(0, 80)} (${framingOf(req)}): no answer, ` +
                    `after ${Date.now() - sentAt} ms`,
                );
                return true;
              }
              // A refusal the client read whole says what was wrong, in the spec's shape.
              if (answer.status >= 400 && answer.body !== undefined && !hasErrorShape(answer.body)) {
                shapeless.push(
                  `${req.method} ${req.target.slice(0, 80)} → ${answer.status} ${answer.body.slice(0, 120)}`,
                );
              }
              return answer.status < 500;
            },
          ),
          { numRuns: requests, endOnFailure: true },
        );

        expect(unanswered.slice(0, 5), `${unanswered.length} requests without an answer`).toEqual([]);
        expect(shapeless.slice(0, 5), `${shapeless.length} refusals without {code, message}`).toEqual([]);

        // Still up, and answering normally.
        const health = await fetch(`http://127.0.0.1:${port}/api/health`);
        expect(health.status).toBe(200);
        const list = await fetch(`http://127.0.0.1:${port}/api/users/files`, {
          headers: { authorization: `Bearer ${await t.tokenFor('fuzzer')}` },
        });
        expect(list.status).toBe(200);

        // Every response the server sent, including those nobody read.
        const completed = logLines
          .map((line) => JSON.parse(line) as { msg?: string; res?: { statusCode?: number } })
          .filter((entry) => entry.msg === 'request completed');
        const serverErrors = completed.filter((entry) => (entry.res?.statusCode ?? 0) >= 500);
        expect(serverErrors, JSON.stringify(serverErrors.slice(0, 3))).toEqual([]);
        expect(logLines.filter((line) => line.includes('unhandled error'))).toEqual([]);
        console.info(
          `fuzz (${store}): ${requests} requests, answers by status: ${JSON.stringify([...statuses])}`,
        );
        // A ceiling only: ~10 ms a request on an idle machine, ~100 ms at load 14 and over 200 ms at load 27
        // (the S3 case then hit the old 200 ms-a-request ceiling); requests the client cuts short wait for
        // the server's close.
      },
      requests * 600,
    );
  });
}
