import { describe, expect, it } from 'vitest';
import {
  askForCollection,
  blobPartsOf,
  collectionHint,
  COLLECTION_HINT_BYTES,
  releaseBuffer,
  SLICE_BYTES,
} from './buffers';

describe('blobPartsOf', () => {
  it('copies the bytes into Blobs of at most SLICE_BYTES, in order', async () => {
    const bytes = new Uint8Array(2 * SLICE_BYTES + 5).map((_, i) => i % 253);
    const parts = await blobPartsOf(bytes);
    expect(parts.map((part) => part.size)).toEqual([SLICE_BYTES, SLICE_BYTES, 5]);
    const joined = new Uint8Array(await new Blob(parts).arrayBuffer());
    expect(Buffer.from(joined).equals(Buffer.from(bytes))).toBe(true);
  });

  it('runs the check before every slice after the first, and stops when it throws', async () => {
    const bytes = new Uint8Array(3 * SLICE_BYTES);
    let checks = 0;
    const stopped = blobPartsOf(bytes, () => {
      checks++;
      throw new Error('aborted');
    });
    await expect(stopped).rejects.toThrow('aborted');
    expect(checks).toBe(1);
    expect(await blobPartsOf(new Uint8Array(SLICE_BYTES), () => (checks += 10))).toHaveLength(1);
    expect(checks).toBe(1);
  });
});

describe('releaseBuffer', () => {
  it('detaches the buffer (its memory goes with a dropped message), and a second release is harmless', () => {
    const buffer = new Uint8Array(16).buffer;
    releaseBuffer(buffer);
    expect(buffer.byteLength).toBe(0);
    expect(() => {
      releaseBuffer(buffer);
    }).not.toThrow();
  });

  it('posts every buffer through one channel, not a channel each (each is browser memory until a collection)', () => {
    const original = globalThis.MessageChannel;
    let made = 0;
    globalThis.MessageChannel = class extends original {
      constructor() {
        super();
        made++;
      }
    };
    try {
      const buffers = Array.from({ length: 100 }, () => new Uint8Array(64).buffer);
      for (const buffer of buffers) releaseBuffer(buffer);
      expect(buffers.every((buffer) => buffer.byteLength === 0)).toBe(true);
      expect(made).toBeLessThanOrEqual(1);
    } finally {
      globalThis.MessageChannel = original;
    }
  });

  it('falls back to transfer(0) where messages cannot carry the buffer, and leaves it alone without either', () => {
    const withTransfer = new Uint8Array(16).buffer;
    const withNeither = new Uint8Array(16).buffer;
    const channel = globalThis.MessageChannel;
    const transfer = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'transfer');
    try {
      // @ts-expect-error -- a runtime without MessageChannel
      delete globalThis.MessageChannel;
      releaseBuffer(withTransfer);
      expect(withTransfer.byteLength).toBe(transfer === undefined ? 16 : 0);
      // @ts-expect-error -- a runtime without ArrayBuffer.prototype.transfer either
      delete ArrayBuffer.prototype.transfer;
      releaseBuffer(withNeither);
      expect(withNeither.byteLength).toBe(16);
    } finally {
      globalThis.MessageChannel = channel;
      if (transfer !== undefined) Object.defineProperty(ArrayBuffer.prototype, 'transfer', transfer);
    }
  });
});

describe('askForCollection', () => {
  it('keeps one untouched buffer of COLLECTION_HINT_BYTES until the next call', () => {
    askForCollection();
    const first = collectionHint.buffer;
    expect(first?.byteLength).toBe(COLLECTION_HINT_BYTES);
    askForCollection();
    expect(collectionHint.buffer).not.toBe(first);
    expect(collectionHint.buffer?.byteLength).toBe(COLLECTION_HINT_BYTES);
  });

  it('is a hint only: where the buffer cannot be had, the transfer goes on', () => {
    const original = globalThis.ArrayBuffer;
    try {
      globalThis.ArrayBuffer = class extends original {
        constructor(length: number) {
          if (length === COLLECTION_HINT_BYTES) throw new RangeError('Array buffer allocation failed');
          super(length);
        }
      } as ArrayBufferConstructor;
      expect(() => {
        askForCollection();
      }).not.toThrow();
      expect(collectionHint.buffer).toBeNull();
    } finally {
      globalThis.ArrayBuffer = original;
    }
  });
});
