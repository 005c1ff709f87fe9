import {
  decryptChunk,
  generateChunkIdentityKey,
  generateFileKey,
  gmacPieceList,
  IV_LENGTH,
  sha256PieceList,
  type PieceIdentity,
} from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import { sealInSlices } from './seal-in-slices';

/**
 * Byte equality without Vitest's element-by-element deep equality, which takes tens of seconds over
 * half a MiB on a busy machine.
 */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

const SHA_PIECES: PieceIdentity = { scheme: 'sha256-pieces' };

function pattern(length: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(length).map((_, i) => (i * 31 + 7) & 0xff);
}

async function seal(
  plain: Uint8Array<ArrayBuffer>,
  sliceBytes: number,
  identity: PieceIdentity | null,
  { callBytes = sliceBytes }: { callBytes?: number } = {},
) {
  const key = await generateFileKey();
  const appended: Uint8Array<ArrayBuffer>[] = [];
  const reads: number[] = [];
  const sealed = await sealInSlices(
    {
      key,
      index: 3,
      isLast: true,
      source: new Blob([plain]),
      sliceBytes,
      callBytes,
      ...(identity === null ? {} : { identity }),
      onRead: (read) => reads.push(read),
    },
    { append: (bytes) => appended.push(bytes.slice()) },
  );
  const part = new Uint8Array(await new Blob(appended).arrayBuffer());
  return { key, part, appended, reads, sealed };
}

/**
 * A Blob whose stream is a byte stream over `plain`, as Chromium's and Firefox's Blob streams are: each
 * BYOB read is filled with the next bytes (`read <offset>` in `events`). Reading it per slice fails.
 */
function byteSource(plain: Uint8Array, events: string[]) {
  const readInto = new Set<number>();
  let streams = 0;
  let cancelled = false;
  let at = 0;
  const source = {
    size: plain.length,
    stream: () => {
      streams++;
      return new ReadableStream({
        type: 'bytes',
        pull(controller) {
          const request = controller.byobRequest;
          if (request?.view === null || request === null) throw new Error('expected a BYOB read');
          if (at === plain.length) {
            controller.close();
            request.respond(0);
            return;
          }
          events.push(`read ${String(at)}`);
          readInto.add(request.view.buffer.byteLength);
          const view = new Uint8Array(request.view.buffer, request.view.byteOffset, request.view.byteLength);
          const length = Math.min(view.length, plain.length - at);
          view.set(plain.subarray(at, at + length));
          at += length;
          request.respond(length);
        },
        cancel() {
          cancelled = true;
        },
      });
    },
    slice: () => {
      throw new Error('read through one stream, not per slice');
    },
    arrayBuffer: () => Promise.reject(new Error('read through one stream')),
  } as unknown as Blob;
  return { source, readInto, streams: () => streams, cancelled: () => cancelled };
}

describe('sealInSlices', () => {
  it('writes the IV, then each slice sealed: the part one-shot AES-GCM would make, opened whole', async () => {
    const plain = pattern(1000);
    const { key, part, appended, reads } = await seal(plain, 64, null);
    // The IV, 16 slices (15 × 64 bytes, then 40 and the tag): never more than a slice at once.
    expect(appended[0]).toHaveLength(IV_LENGTH);
    expect(appended).toHaveLength(1 + 16);
    expect(Math.max(...appended.map((bytes) => bytes.length))).toBe(64);
    expect(part.length).toBe(1000 + 28);
    expect(sameBytes(await decryptChunk(key, 3, true, part), plain)).toBe(true);
    await expect(decryptChunk(key, 2, true, part)).rejects.toThrow();
    expect(reads.at(-1)).toBe(1000);
  });

  it('computes the resume hash over the same slices: sha256PieceList of the chunk', async () => {
    const plain = pattern(256 * 1024 * 2 + 12_345);
    const { key, part, sealed } = await seal(plain, 256 * 1024, SHA_PIECES);
    expect(sealed.hash).toEqual(await sha256PieceList(plain));
    expect(sameBytes(await decryptChunk(key, 3, true, part), plain)).toBe(true);
  });

  it('seals an empty chunk as its IV and tag, hashed like sha256PieceList', async () => {
    const plain = new Uint8Array(0);
    const { key, part, sealed } = await seal(plain, 256 * 1024, SHA_PIECES);
    expect(part.length).toBe(28);
    expect(sameBytes(await decryptChunk(key, 3, true, part), plain)).toBe(true);
    expect(sealed.hash).toEqual(await sha256PieceList(plain));
  });

  it('seals each read slice in several calls', async () => {
    const plain = pattern(1000);
    const { key, part, appended, reads } = await seal(plain, 128, null, { callBytes: 32 });
    // The IV, then 31 calls of 32 bytes and one of 8 with the tag: never more than a call at once.
    expect(appended).toHaveLength(1 + 32);
    expect(Math.max(...appended.slice(1, -1).map((bytes) => bytes.length))).toBe(32);
    expect(appended.at(-1)).toHaveLength(8 + 16);
    expect(sameBytes(await decryptChunk(key, 3, true, part), plain)).toBe(true);
    expect(reads.at(-1)).toBe(1000);
  });

  it('hashes the pieces of each call: sha256PieceList of the chunk', async () => {
    const plain = pattern(256 * 1024 * 2 + 999);
    const { key, part, sealed } = await seal(plain, 512 * 1024, SHA_PIECES, { callBytes: 256 * 1024 });
    expect(sealed.hash).toEqual(await sha256PieceList(plain));
    expect(sameBytes(await decryptChunk(key, 3, true, part), plain)).toBe(true);
  });

  it('computes the keyed identity (gmac-pieces) of the chunk, with its index, two pieces per call', async () => {
    const plain = pattern(256 * 1024 * 3 + 77);
    const hashKey = await generateChunkIdentityKey();
    const identity = { scheme: 'gmac-pieces', key: hashKey, chunkIndex: 3 } as const;
    const { key, part, sealed } = await seal(plain, 512 * 1024, identity);
    expect(sealed.hash).toEqual(await gmacPieceList(hashKey, 3, plain));
    expect(sealed.hash).not.toEqual(await gmacPieceList(hashKey, 2, plain));
    expect(sameBytes(await decryptChunk(key, 3, true, part), plain)).toBe(true);
    const empty = await seal(new Uint8Array(0), 256 * 1024, identity);
    expect(empty.sealed.hash).toEqual(await gmacPieceList(hashKey, 3, new Uint8Array(0)));
  });

  it('reads the chunk through one stream into two slices of memory, the next while one is sealed', async () => {
    const plain = pattern(1000);
    const events: string[] = [];
    const { source, readInto, streams } = byteSource(plain, events);
    const appended: Uint8Array<ArrayBuffer>[] = [];
    const key = await generateFileKey();
    await sealInSlices(
      { key, index: 3, isLast: true, source, sliceBytes: 256, callBytes: 128 },
      {
        append: (bytes) => {
          events.push('sealed');
          appended.push(bytes.slice());
        },
      },
    );
    expect(
      sameBytes(
        await decryptChunk(key, 3, true, new Uint8Array(await new Blob(appended).arrayBuffer())),
        plain,
      ),
    ).toBe(true);
    expect(streams()).toBe(1);
    // Each read filled a slice's memory (256 bytes), never a buffer of the chunk's size.
    expect([...readInto]).toEqual([256]);
    // The second slice was asked for before the first one's seal calls came out.
    expect(events.slice(0, 3)).toEqual(['sealed', 'read 0', 'read 256']);
  });

  it('a chunk that fails half-way stops reading: its stream is cancelled and the failure thrown', async () => {
    const plain = pattern(4096);
    const { source, cancelled } = byteSource(plain, []);
    let appends = 0;
    const key = await generateFileKey();
    const sealing = sealInSlices(
      { key, index: 0, isLast: true, source, sliceBytes: 256, callBytes: 128 },
      {
        append: () => {
          // The IV, then the second seal call's output: the disk is full.
          if (++appends === 3) throw new Error('no space');
        },
      },
    );
    await expect(sealing).rejects.toThrow('no space');
    expect(cancelled()).toBe(true);
  });

  it('refuses calls that do not fill a slice, or split a hash piece', async () => {
    await expect(seal(pattern(100), 96, null, { callBytes: 64 })).rejects.toThrow(RangeError);
    await expect(seal(pattern(100), 512 * 1024, SHA_PIECES, { callBytes: 128 * 1024 })).rejects.toThrow(
      RangeError,
    );
  });
});
