import { HASH_PIECE_BYTES, IV_LENGTH, chunkAad, createChunkSealer, sha256 } from '@coffer/crypto';
import { releaseBuffer } from '../transfers/buffers';
import { readSliceInto } from './read-slice';

/**
 * Plaintext bytes per slice when a chunk is sealed slice by slice: within the 1–4 MiB the streaming
 * computation runs best at, and a multiple of 16 (a slice before the last must be) and of the
 * resume hash's 256 KiB pieces (so the hash is computed over the same slices).
 */
export const SEAL_SLICE_BYTES = 4 * 1024 * 1024;

/** Where a part's bytes go as they are sealed: a part file, or the pieces of a Blob. */
export interface PartWriter {
  append(bytes: Uint8Array<ArrayBuffer>): void;
}

export interface SealInSlicesOptions {
  readonly key: CryptoKey;
  readonly index: number;
  readonly isLast: boolean;
  /** The chunk's plaintext: a slice of the user's file (read here, a slice at a time). */
  readonly source: Blob;
  /** The one read buffer, at least `sliceBytes` long, reused for every slice. */
  readonly readBuffer: ArrayBuffer;
  readonly sliceBytes?: number;
  readonly hashScheme?: 'sha256-pieces';
  /** Bytes of the chunk read so far, about every 1 % of it. */
  readonly onRead?: (bytesRead: number) => void;
}

export interface SealedInSlices {
  /** The read buffer (a BYOB read may hand back another object over the same memory). */
  readonly readBuffer: ArrayBuffer;
  /** `sha256PieceList` of the plaintext, where asked for. */
  readonly hash?: Uint8Array<ArrayBuffer>;
}

/**
 * Seals one chunk straight into its part: the IV, then each slice's ciphertext as it comes out
 * (the tag after the last), with a fresh random IV and the chunk's AAD. The part is byte for byte
 * what `sealChunk` would give for that IV; no buffer larger than a slice exists on the way. The
 * resume hash (`sha256-pieces`) is computed over the same slices, 256 KiB pieces at a time.
 */
export async function sealInSlices(
  options: SealInSlicesOptions,
  writer: PartWriter,
): Promise<SealedInSlices> {
  const { key, index, isLast, source } = options;
  const sliceBytes = options.sliceBytes ?? SEAL_SLICE_BYTES;
  if (sliceBytes % HASH_PIECE_BYTES !== 0 && options.hashScheme !== undefined)
    throw new RangeError('A slice must hold whole hash pieces');
  const iv = crypto.getRandomValues(new Uint8Array(IV_LENGTH));
  const sealer = await createChunkSealer(key, iv, chunkAad(index, isLast), source.size);
  writer.append(iv);
  const pieceDigests: Uint8Array[] = [];
  const report = throttledProgress(source.size, options.onRead);
  let buffer = options.readBuffer;
  let offset = 0;
  do {
    const length = Math.min(sliceBytes, source.size - offset);
    const plain = await readSliceInto(source.slice(offset, offset + length), buffer, (read) => {
      report(offset + read);
    });
    buffer = plain.buffer;
    // WebCrypto copies the slice when called: hashing the same bytes meanwhile is safe.
    const sealing = sealer.sealSlice(plain);
    sealing.catch(() => undefined);
    if (options.hashScheme !== undefined) {
      for (let at = 0; at < length || (at === 0 && source.size === 0); at += HASH_PIECE_BYTES) {
        pieceDigests.push(await sha256(plain.subarray(at, at + HASH_PIECE_BYTES)));
      }
    }
    const sealed = await sealing;
    writer.append(sealed);
    releaseBuffer(sealed.buffer);
    offset += length;
  } while (offset < source.size);
  const hash = options.hashScheme === undefined ? undefined : await sha256(joined(pieceDigests));
  return { readBuffer: buffer, ...(hash === undefined ? {} : { hash }) };
}

function joined(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function throttledProgress(size: number, onRead: ((bytesRead: number) => void) | undefined) {
  const step = Math.max(1, Math.floor(size / 100));
  let reported = 0;
  return (bytesRead: number): void => {
    if (onRead === undefined || (bytesRead - reported < step && bytesRead !== size)) return;
    reported = bytesRead;
    onRead(bytesRead);
  };
}
