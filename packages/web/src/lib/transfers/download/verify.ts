import {
  CHUNK_OVERHEAD,
  IntegrityError,
  IV_LENGTH,
  TAG_LENGTH,
  chunkAad,
  createChunkOpener,
  type ChunkOpener,
} from '@coffer/crypto';
import type { ChunkTarget, StoredChunk } from './chunk-store';

/**
 * Bytes per slice when a chunk is received (two buffers of this size, one read while the other is
 * stored) and read back (one buffer) (docs/transfers.md, "The chunk store"); a multiple of 16.
 */
export const OPEN_SLICE_BYTES = 1024 * 1024;

/**
 * Bytes per WebCrypto call while a chunk is verified and decrypted. WebCrypto allocates each call's
 * input copy and output afresh; Chromium's allocator hands a freed one's memory to the next call of
 * the same size at 256 KiB, but at 512 KiB (and above) maps it anew, every 4 KiB page faulted in (the
 * measurement is at `SEAL_CALL_BYTES`: 4 k against 270 k faults per GiB). A multiple of 16.
 */
export const OPEN_CALL_BYTES = 256 * 1024;

/**
 * The download's verify stage (docs/transfers.md, "Pipeline"), run on the chunk's bytes AS THEY
 * ARRIVE: `append` each piece of the stored chunk (`iv || ciphertext || tag`, in order, any sizes),
 * then `finish`, which answers the opener only where the whole chunk's tag verified. The ciphertext
 * is hashed (a GMAC per call of at most `callBytes`, nothing decrypted) in the pieces it arrives in,
 * so the chunk is read back from its store once (to decrypt), not twice.
 *
 * The bytes verified are the bytes the fetch stage stores: the store copies each piece before the
 * reader reuses its buffer, and the chunk's file (or Blob) can change after that only by this
 * origin's own code, which holds the key anyway (so the opener keeps `immutableSource`).
 * Use only where the streaming self-test passed (`checkStreamingGcm`).
 */
export class ReceivedChunkVerifier {
  readonly #key: CryptoKey;
  readonly #aad: Uint8Array;
  readonly #length: number;
  readonly #cipherEnd: number;
  readonly #callBytes: number;
  readonly #iv = new Uint8Array(IV_LENGTH);
  readonly #tag = new Uint8Array(TAG_LENGTH);
  /** Ciphertext bytes short of a 16-byte block, carried to the next piece. */
  readonly #carry = new Uint8Array(16);
  #carried = 0;
  #received = 0;
  #opener: ChunkOpener | null = null;
  #appending: Promise<void> = Promise.resolve();

  constructor(
    key: CryptoKey,
    index: number,
    isLast: boolean,
    chunkLength: number,
    callBytes = OPEN_CALL_BYTES,
  ) {
    if (chunkLength < CHUNK_OVERHEAD) throw new IntegrityError();
    this.#key = key;
    this.#aad = chunkAad(index, isLast);
    this.#length = chunkLength;
    this.#cipherEnd = chunkLength - TAG_LENGTH;
    this.#callBytes = callBytes;
  }

  /**
   * The next piece of the chunk; `bytes` is the caller's again once this resolved. Pieces are
   * hashed in the order appended, one after the other, even when the next is appended before the
   * one before it resolved.
   */
  append(bytes: Uint8Array): Promise<void> {
    const appended = this.#appending.then(() => this.#appendNow(bytes));
    // A failed piece fails every later one too (the chain is broken).
    this.#appending = appended;
    return appended;
  }

  async #appendNow(bytes: Uint8Array): Promise<void> {
    const start = this.#received;
    const end = start + bytes.length;
    if (end > this.#length) throw new IntegrityError();
    this.#received = end;
    const part = (from: number, to: number): Uint8Array =>
      bytes.subarray(Math.max(from, start) - start, Math.max(Math.min(to, end), start) - start);
    if (start < IV_LENGTH) {
      this.#iv.set(part(0, IV_LENGTH), start);
      if (end >= IV_LENGTH) {
        this.#opener = await createChunkOpener(this.#key, this.#iv, this.#aad, this.#cipherEnd - IV_LENGTH, {
          immutableSource: true,
        });
      }
    }
    await this.#hash(part(IV_LENGTH, this.#cipherEnd));
    if (end > this.#cipherEnd) {
      this.#tag.set(part(this.#cipherEnd, this.#length), Math.max(start, this.#cipherEnd) - this.#cipherEnd);
    }
  }

  /**
   * The opener of the chunk, whose tag verified over every byte appended.
   * @throws {IntegrityError} the chunk is corrupted, truncated, out of place or under another key.
   */
  async finish(): Promise<ChunkOpener> {
    await this.#appending;
    const opener = this.#opener;
    if (opener === null || this.#received !== this.#length) throw new IntegrityError();
    // The last slice may be short of a block (an empty chunk is one empty slice).
    if (this.#carried > 0 || this.#cipherEnd === IV_LENGTH) {
      await opener.verifySlice(this.#carry.slice(0, this.#carried));
      this.#carried = 0;
    }
    if (!opener.verifyTag(this.#tag)) throw new IntegrityError();
    return opener;
  }

  /** Hashes whole blocks in calls of at most `callBytes`, carrying what is short of a block. */
  async #hash(ciphertext: Uint8Array): Promise<void> {
    const opener = this.#opener;
    if (ciphertext.length === 0 || opener === null) return;
    let rest = ciphertext;
    if (this.#carried > 0) {
      const taken = Math.min(16 - this.#carried, rest.length);
      this.#carry.set(rest.subarray(0, taken), this.#carried);
      this.#carried += taken;
      rest = rest.subarray(taken);
      if (this.#carried < 16) return;
      await opener.verifySlice(this.#carry);
      this.#carried = 0;
    }
    const whole = rest.length - (rest.length % 16);
    for (let offset = 0; offset < whole; offset += this.#callBytes) {
      await opener.verifySlice(rest.subarray(offset, Math.min(whole, offset + this.#callBytes)));
    }
    this.#carry.set(rest.subarray(whole));
    this.#carried = rest.length - whole;
  }
}

/** The ciphertext of a stored chunk (`iv || ciphertext || tag`), without its IV and tag. */
export function storedCiphertext(chunk: Blob): Blob {
  return chunk.slice(IV_LENGTH, chunk.size - TAG_LENGTH);
}

/** A chunk the fetch stage stored and verified as it arrived: decrypt it from `chunk.data`. */
export interface VerifiedStoredChunk {
  readonly chunk: StoredChunk;
  /** The opener whose verify pass matched the chunk's tag. */
  readonly opener: ChunkOpener;
}

/**
 * `store`, with a verifier beside each chunk it writes (a new one per attempt: a chunk received
 * again after a break is verified again from its first byte). `finish` answers the stored chunk
 * only where its tag verified; else its file (or Blob) is removed and the chunk refused.
 */
export function verifiedAsStored(
  store: ChunkTarget,
  newVerifier: () => ReceivedChunkVerifier,
): ChunkTarget<VerifiedStoredChunk> {
  return {
    async begin() {
      const writer = await store.begin();
      const verifier = newVerifier();
      return {
        async append(bytes) {
          // The store copies the piece to disk while this thread hashes it; both are done with the
          // caller's buffer before this settles, even when one of them failed.
          const [stored, hashed] = await Promise.allSettled([writer.append(bytes), verifier.append(bytes)]);
          if (stored.status === 'rejected') throw stored.reason;
          if (hashed.status === 'rejected') throw hashed.reason;
        },
        async finish() {
          const chunk = await writer.finish();
          try {
            return { chunk, opener: await verifier.finish() };
          } catch (error) {
            chunk.remove();
            throw error;
          }
        },
        abandon: () => writer.abandon(),
      };
    },
  };
}

/** The receive/read-back slice and the WebCrypto call sizes of a streaming download (defaults above). */
export interface OpenSizes {
  readonly sliceBytes: number;
  readonly callBytes: number;
}

/** `sliceBytes` and `callBytes` as given (tests use small ones), else the defaults; a call never exceeds a slice. */
export function openSizes(
  given: { readonly sliceBytes?: number; readonly callBytes?: number } = {},
): OpenSizes {
  const sliceBytes = given.sliceBytes ?? OPEN_SLICE_BYTES;
  return { sliceBytes, callBytes: Math.min(given.callBytes ?? OPEN_CALL_BYTES, sliceBytes) };
}

/** What receives a chunk into a store (`ResumableReader.readChunk`). */
export interface ChunkReceiver {
  readChunk<Stored>(length: number, sliceBytes: number, store: ChunkTarget<Stored>): Promise<Stored>;
}

/**
 * The fetch and verify stages for one chunk: received from `input` into `store` a slice at a time
 * while a new `ReceivedChunkVerifier` hashes the same pieces (again from the first byte after a
 * break). Answers the stored chunk and its opener once the whole tag verified.
 * @throws {IntegrityError} the chunk did not verify (its file or Blob is removed).
 */
export function receiveVerifiedChunk(
  input: ChunkReceiver,
  store: ChunkTarget,
  key: CryptoKey,
  chunk: { readonly index: number; readonly isLast: boolean; readonly length: number },
  sizes: OpenSizes,
): Promise<VerifiedStoredChunk> {
  const { index, isLast, length } = chunk;
  return input.readChunk(
    length,
    sizes.sliceBytes,
    verifiedAsStored(store, () => new ReceivedChunkVerifier(key, index, isLast, length, sizes.callBytes)),
  );
}
