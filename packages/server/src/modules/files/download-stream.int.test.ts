import { createHash, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdtemp, readdir, readlink, rm } from 'node:fs/promises';
import { get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pieces } from '../../infra/storage/blob-store.contract.js';
import type { BlobStore } from '../../infra/storage/blob-store.js';
import { createFsBlobStore } from '../../infra/storage/blob-store.fs.js';
import { IO_CHUNK_SIZE } from '../../infra/storage/byte-streams.js';
import { sendDownload } from './download-reply.js';
import { DownloadBodyStream, ResponseReadBuffers, downloadBodyFor } from './download-stream.js';
import { type Download, openStoredRange } from './downloads.service.js';
import { resolveRangeHeader } from './http-range.js';

const MiB = 1024 * 1024;
const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

/**
 * A download read from the fs store into a few reused buffers (download-stream.ts), served by Fastify
 * to real HTTP clients: one that reads slower than the server (so chunks wait in the socket while the
 * store reads the next), one that leaves, one that asks for a range.
 */
describe('download body from reused read buffers', () => {
  let root: string;
  let store: BlobStore;
  let app: FastifyInstance;
  let base: string;
  const opened: Download[] = [];
  // Three parts of a multipart object: the reads cross part files.
  const data = randomBytes(21 * MiB + 12_345);
  const partSizes = [8 * MiB, 8 * MiB, data.byteLength - 16 * MiB];

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'coffer-download-stream-'));
    store = createFsBlobStore({ root });
    const { uploadId } = await store.createMultipart('object');
    const parts = [];
    let offset = 0;
    for (const [index, size] of partSizes.entries()) {
      const body = pieces(data.subarray(offset, offset + size), [300_001]);
      const { etag } = await store.uploadPart('object', uploadId, index + 1, body, { size });
      parts.push({ partNumber: index + 1, etag });
      offset += size;
    }
    await store.completeMultipart('object', uploadId, parts);

    app = Fastify();
    app.get('/object', async (request, reply) => {
      const range = resolveRangeHeader(request.headers.range, data.byteLength);
      if (range.kind === 'unsatisfiable') throw new Error('unexpected range');
      const download = await openStoredRange(store, 'object', range);
      opened.push(download);
      return sendDownload(reply, download);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app.close();
    await rm(root, { recursive: true, force: true });
  });

  function request(headers: Record<string, string> = {}): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      get(`${base}/object`, { headers }, resolve).on('error', reject);
    });
  }

  /** Reads `response` pausing after every 256 KiB until the next macrotask: slower than the server. */
  async function readSlowly(response: IncomingMessage): Promise<Uint8Array> {
    const received: Buffer[] = [];
    let sincePause = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      received.push(chunk);
      sincePause += chunk.byteLength;
      if (sincePause >= 256 * 1024) {
        sincePause = 0;
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    }
    return Buffer.concat(received);
  }

  async function openDescriptorsOf(dir: string): Promise<number> {
    let count = 0;
    for (const fd of await readdir('/proc/self/fd')) {
      const target = await readlink(join('/proc/self/fd', fd)).catch(() => '');
      if (target.startsWith(dir)) count += 1;
    }
    return count;
  }

  it('gives a slow reader every byte as stored, read into no more than three buffers', async () => {
    const response = await request();
    expect(response.statusCode).toBe(200);
    const body = await readSlowly(response);
    expect(body.byteLength).toBe(data.byteLength);
    expect(sha256(body)).toBe(sha256(data));
    // 22 reads of 1 MiB (and the short ends of parts) from three buffers, each allocated once.
    expect(opened.at(-1)?.buffers.allocated).toBeLessThanOrEqual(3);
  });

  it('gives a range exactly, from the middle of one part to the middle of the next', async () => {
    const start = 5 * MiB + 3;
    const end = 13 * MiB + 7;
    const response = await request({ range: `bytes=${start}-${end}` });
    expect(response.statusCode).toBe(206);
    const body = await readSlowly(response);
    expect(sha256(body)).toBe(sha256(data.subarray(start, end + 1)));
  });

  it('closes the stored files when the client goes away mid-download', async () => {
    const response = await request();
    let received = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      received += chunk.byteLength;
      if (received >= 3 * IO_CHUNK_SIZE) break; // destroys the response: the client disconnects
    }
    await expect.poll(() => openDescriptorsOf(root), { timeout: 10_000 }).toBe(0);
  });

  it('fills a buffer again only once the destination has written every byte of it', async () => {
    // A destination that keeps what it is given (as libuv keeps a buffer until the kernel took it)
    // and finishes each write later, one at a time, checking the bytes as it does: a buffer filled
    // again too early would show another chunk's bytes. Its high-water mark never asks for a pause.
    const buffers = new ResponseReadBuffers();
    async function* numbered(): AsyncGenerator<Uint8Array> {
      for (let i = 1; i <= 16; i++) {
        const buffer = await buffers.take(64 * 1024);
        buffer.fill(i);
        yield buffer.subarray(0, 64 * 1024);
      }
    }
    const seen: number[] = [];
    const held: { chunk: Buffer; done: (error?: Error | null) => void }[] = [];
    let releasing = false;
    const destination = new Writable({
      highWaterMark: 64 * MiB,
      write(chunk: Buffer, _encoding, done) {
        held.push({ chunk, done });
        if (!releasing) {
          releasing = true;
          setTimeout(release, 5);
        }
      },
    });
    function release(): void {
      const next = held.shift();
      if (next === undefined) {
        releasing = false;
        return;
      }
      seen.push(...new Set(next.chunk));
      next.done();
      setTimeout(release, 5);
    }
    await pipeline(downloadBodyFor(destination, numbered(), buffers), destination);
    expect(seen).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(buffers.allocated).toBe(3);
  });

  it('stops waiting for a buffer when the destination closes, and closes the body', async () => {
    const buffers = new ResponseReadBuffers();
    let closed = false;
    async function* endless(): AsyncGenerator<Uint8Array> {
      try {
        for (;;) yield (await buffers.take(64 * 1024)).subarray(0, 64 * 1024);
      } finally {
        closed = true;
      }
    }
    // Takes every write and finishes none (a client that stopped reading).
    const destination = new Writable({
      highWaterMark: 64 * MiB,
      write: () => undefined,
    });
    const piping = pipeline(downloadBodyFor(destination, endless(), buffers), destination).catch(
      (error: unknown) => error,
    );
    await expect.poll(() => buffers.allocated, { timeout: 10_000 }).toBe(3); // every buffer out: the fourth waits
    destination.destroy();
    await expect.poll(() => closed, { timeout: 10_000 }).toBe(true);
    expect(await piping).toBeInstanceOf(Error);
  });

  it('hands no buffer out twice to a destination that cannot say what it still holds', async () => {
    const buffers = new ResponseReadBuffers();
    const destination = Object.assign(new EventEmitter(), { writableLength: Number.NaN, destroyed: false });
    buffers.bindTo(new DownloadBodyStream(pieces(new Uint8Array(0), [1])), destination);
    const taken = new Set<ArrayBufferLike>();
    for (let i = 0; i < 7; i++) taken.add((await buffers.take(MiB)).buffer);
    expect(taken.size).toBe(7);
  });

  it('hands no buffer out twice before it knows what the response has written', async () => {
    const buffers = new ResponseReadBuffers();
    const taken = new Set<ArrayBufferLike>();
    for (let i = 0; i < 9; i++) taken.add((await buffers.take(MiB)).buffer);
    expect(taken.size).toBe(9);
    expect(buffers.allocated).toBe(9);
  });
});
