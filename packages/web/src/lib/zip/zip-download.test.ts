import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encryptChunk, chunkCount, generateFileKey } from '@coffer/crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../api/http';
import { createInProcessChunkCipher } from '../crypto-worker';
import type { SaveSink } from '../transfers/save/save-sink';
import { downloadZip, type ZipFile } from './zip-download';

const CHUNK = 1024;
const dir = mkdtempSync(join(tmpdir(), 'coffer-zipdl-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function pattern(length: number, seed: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 31 + seed * 17 + (i >> 5)) & 0xff;
  return bytes;
}

/** A stored file: its content encrypted in the coffer-v1 layout with small chunks. */
async function stored(
  content: Uint8Array,
): Promise<{ fileKey: CryptoKey; ciphertext: Uint8Array<ArrayBuffer> }> {
  const fileKey = await generateFileKey();
  const count = chunkCount(content.length, CHUNK);
  const pieces: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    pieces.push(
      await encryptChunk(fileKey, i, i === count - 1, content.subarray(i * CHUNK, (i + 1) * CHUNK)),
    );
  }
  const ciphertext = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    ciphertext.set(piece, at);
    at += piece.length;
  }
  return { fileKey, ciphertext };
}

/** A sink that keeps what it is given (copies: real sinks take the buffers). */
class Collected implements SaveSink {
  parts: Uint8Array[] = [];
  closed = false;
  aborted = false;
  write(bytes: Uint8Array<ArrayBuffer>): Promise<void> {
    this.parts.push(bytes.slice());
    return Promise.resolve();
  }
  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
  abort(): Promise<void> {
    this.aborted = true;
    return Promise.resolve();
  }
  bytes(): Uint8Array {
    return Uint8Array.from(this.parts.flatMap((part) => [...part]));
  }
}

const api = { authHeaders: () => Promise.resolve({ Authorization: 'Bearer t' }) } as unknown as ApiClient;

async function setUp(contents: { path: string[]; data: Uint8Array<ArrayBuffer> }[]) {
  const bodies = new Map<string, Uint8Array<ArrayBuffer>>();
  const files: ZipFile[] = [];
  for (const [index, content] of contents.entries()) {
    const { fileKey, ciphertext } = await stored(content.data);
    const downloadPath = `/users/files/f${index}/download`;
    bodies.set(`/api${downloadPath}`, ciphertext);
    files.push({
      path: content.path,
      size: content.data.length,
      job: () =>
        Promise.resolve({
          fileKey,
          size: content.data.length,
          chunkSize: CHUNK,
          downloadPath,
          retryDelaysMs: [],
        }),
    });
  }
  const fetchImpl = ((input: string) => {
    const body = bodies.get(new URL(input, 'http://x').pathname);
    return Promise.resolve(body === undefined ? new Response('no', { status: 404 }) : new Response(body));
  }) as unknown as typeof fetch;
  return { files, fetchImpl, bodies };
}

describe('downloadZip', () => {
  it('decrypts each file through the pipeline into one archive that unpacks byte for byte', async () => {
    const contents = [
      { path: ['Trip', 'day 1', 'photo.jpg'], data: pattern(3 * CHUNK + 17, 1) },
      { path: ['Trip', 'notes.txt'], data: pattern(10, 2) },
      { path: ['Trip', 'empty.bin'], data: pattern(0, 3) },
      { path: ['..', 'evil\u202Etxt.exe'], data: pattern(5, 4) },
    ];
    const { files, fetchImpl } = await setUp(contents);
    const sink = new Collected();
    const progress: number[] = [];
    await downloadZip({
      api,
      cipher: createInProcessChunkCipher(),
      fileName: 'Trip.zip',
      files,
      directories: [['Trip'], ['Trip', 'day 1'], ['Trip', 'nothing here']],
      method: 'blob',
      signal: new AbortController().signal,
      openSink: () => Promise.resolve(sink),
      fetchImpl,
      onProgress: (p) => progress.push(p.filesDone),
    });
    expect(sink.closed).toBe(true);
    const path = join(dir, 'trip.zip');
    writeFileSync(path, sink.bytes());
    expect(execFileSync('unzip', ['-t', path], { encoding: 'utf8' })).toContain('No errors detected');
    const out = join(dir, 'trip');
    execFileSync('unzip', ['-q', path, '-d', out]);
    const listing = execFileSync('find', [out, '-mindepth', '1'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((line) => line.slice(out.length + 1))
      .sort();
    expect(listing).toEqual([
      'Trip',
      'Trip/day 1',
      'Trip/day 1/photo.jpg',
      'Trip/empty.bin',
      'Trip/notes.txt',
      'Trip/nothing here',
      'unnamed',
      'unnamed/eviltxt.exe',
    ]);
    const sha = (file: string) =>
      execFileSync('sha256sum', [join(out, file)], { encoding: 'utf8' }).split(' ')[0];
    const { createHash } = await import('node:crypto');
    expect(sha('Trip/day 1/photo.jpg')).toBe(
      createHash('sha256')
        .update(contents[0]?.data ?? new Uint8Array())
        .digest('hex'),
    );
    expect(sha('Trip/notes.txt')).toBe(
      createHash('sha256')
        .update(contents[1]?.data ?? new Uint8Array())
        .digest('hex'),
    );
    expect(progress.at(-1)).toBe(4);
  });

  it('a tampered file aborts the archive: no complete-looking ZIP', async () => {
    const { files, fetchImpl, bodies } = await setUp([
      { path: ['a.txt'], data: pattern(100, 1) },
      { path: ['b.txt'], data: pattern(2 * CHUNK, 2) },
    ]);
    const body = bodies.get('/api/users/files/f1/download');
    if (body !== undefined) body[40] = (body[40] ?? 0) ^ 1;
    const sink = new Collected();
    await expect(
      downloadZip({
        api,
        cipher: createInProcessChunkCipher(),
        fileName: 'x.zip',
        files,
        method: 'blob',
        signal: new AbortController().signal,
        openSink: () => Promise.resolve(sink),
        fetchImpl,
      }),
    ).rejects.toThrow();
    expect(sink.aborted).toBe(true);
    expect(sink.closed).toBe(false);
  });
});
