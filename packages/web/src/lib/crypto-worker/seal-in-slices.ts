import {
  HASH_PIECE_BYTES,
  IV_LENGTH,
  chunkAad,
  createChunkSealer,
  pieceIdentityBuilder,
  type PieceIdentity,
} from '@coffer/crypto';
import { askForCollection, releaseBuffer } from '../transfers/buffers';
import { readSlicesInto } from '../storage/read-slice';

/**
 * Plaintext bytes read from the user's file at a time (two such slices of memory per chunk): a
 * multiple of the seal calls below and of the resume hash's 256 KiB pieces (so the hash is computed
 * over the same slices).
 */
export const SEAL_SLICE_BYTES = 4 * 1024 * 1024;

/**
 * Plaintext bytes per WebCrypto call (a multiple of 16, as every slice but the last must be, and of
 * the resume hash's 256 KiB pieces). WebCrypto copies each call's input and allocates its output
 * afresh; whether Chromium's allocator gives the next call the memory of the last one's (freed at
 * once, `releaseBuffer`) depends on the size. Measured in session 20 (Chromium 156, a dedicated
 * worker sealing 1 GiB, each output freed at once): 256 KiB calls 4 k page faults and 0.33
 * CPU-seconds; 512 KiB calls (an output of 512 KiB + 16 bytes) 270 k faults, every page new, and
 * 3.6–4.7 CPU-seconds; 128 KiB 7 k faults and 0.5 s. ~400 calls per 95 MiB chunk cost a few BigInt
 * multiplications each.
 */
export const SEAL_CALL_BYTES = 256 * 1024;

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
  readonly sliceBytes?: number;
  /** Plaintext bytes per seal call (tests): {@link SEAL_CALL_BYTES}. */
  readonly callBytes?: number;
  /** Also answer the plaintext's resume identity in this scheme (`hash`). */
  readonly identity?: PieceIdentity;
  /** Bytes of the chunk read so far, after each read slice (4 MiB: ~4 % of a full chunk). */
  readonly onRead?: (bytesRead: number) => void;
}

export interface SealedInSlices {
  /** The plaintext's piece identity (`pieceIdentityOf`), where asked for. */
  readonly hash?: Uint8Array<ArrayBuffer>;
}

/**
 * Seals one chunk straight into its part: the IV, then each slice's ciphertext as it comes out
 * (the tag after the last), with a fresh random IV and the chunk's AAD. The part is byte for byte
 * what `sealChunk` would give for that IV; no buffer larger than a read slice exists on the way.
 * The chunk is read through one stream of its Blob into two slices of memory in turn
 * (`readSlicesInto`): each read slice is sealed in calls of `callBytes` while the next is read into
 * the other. The resume identity (`PieceIdentity`) is computed over the same bytes, 256 KiB pieces at
 * a time, while each call seals.
 *
 * Why one stream per chunk, not a fresh `Blob.arrayBuffer()` per slice (sessions 20–23, Chromium
 * 156): each `arrayBuffer()` is 4 MiB of memory the process never touched (~1,000 page faults) and a
 * reader of the browser's own; a 1 GiB upload's page process took 430 k faults that way against 40 k
 * with one stream per chunk, and Chromium's CPU per GiB 28.7 → 14.6 s; Firefox read 512 MiB with
 * 6.0 CPU-seconds against 1.3. A stream leaves its reads' objects as garbage that only a full
 * collection frees (+99 MB per GiB read, in session 20), hence `askForCollection` after each chunk.
 */
export async function sealInSlices(
  options: SealInSlicesOptions,
  writer: PartWriter,
): Promise<SealedInSlices> {
  const { key, index, isLast, source } = options;
  const sliceBytes = options.sliceBytes ?? SEAL_SLICE_BYTES;
  const callBytes = Math.min(options.callBytes ?? SEAL_CALL_BYTES, sliceBytes);
  const identity = options.identity === undefined ? null : pieceIdentityBuilder(options.identity);
  if (sliceBytes % callBytes !== 0 || callBytes % 16 !== 0)
    throw new RangeError('A slice must hold whole seal calls of whole blocks');
  if (identity !== null && callBytes % HASH_PIECE_BYTES !== 0)
    throw new RangeError('A seal call must hold whole hash pieces');
  const iv = crypto.getRandomValues(new Uint8Array(IV_LENGTH));
  const sealer = await createChunkSealer(key, iv, chunkAad(index, isLast), source.size);
  writer.append(iv);
  const report = throttledProgress(source.size, options.onRead);
  // Two slices' memory for the chunk: one is read (the next) while the other is sealed.
  const sliceMemory = Math.min(sliceBytes, source.size);
  const slices = readSlicesInto(source, [new ArrayBuffer(sliceMemory), new ArrayBuffer(sliceMemory)]);
  /** The memory of the last two slices read (a BYOB read moves it to a new object each time). */
  const held: ArrayBuffer[] = [];
  const nextSlice = async (): Promise<Uint8Array<ArrayBuffer>> => {
    const read = await slices.next();
    if (read.done === true) throw new Error('The file shrank while it was read');
    const value = read.value;
    held.unshift(value.buffer);
    held.length = Math.min(held.length, 2);
    return value;
  };
  let reading: Promise<Uint8Array<ArrayBuffer>> | null = nextSlice();
  let offset = 0;
  try {
    do {
      const plain = await (reading ?? nextSlice());
      reading = null;
      const next = offset + plain.length;
      report(next);
      // The next slice is read (into the other memory) while this one is sealed.
      if (next < source.size) {
        reading = nextSlice();
        // Its failure is thrown where it is awaited, or (a seal failed first) dropped below.
        reading.catch(() => undefined);
      }
      let at = 0;
      do {
        const call = plain.subarray(at, at + callBytes);
        // WebCrypto copies the call's bytes when called: hashing them meanwhile is safe.
        const sealing = sealer.sealSlice(call);
        sealing.catch(() => undefined);
        if (identity !== null) {
          // Each piece is copied when added; the identity's calls run beside the seal's.
          const adding: Promise<void>[] = [];
          for (let piece = 0; piece < call.length; piece += HASH_PIECE_BYTES) {
            adding.push(identity.addPiece(call.subarray(piece, piece + HASH_PIECE_BYTES)));
          }
          await Promise.all(adding);
        }
        const sealed = await sealing;
        writer.append(sealed);
        releaseBuffer(sealed.buffer);
        at += call.length;
      } while (at < plain.length);
      offset = next;
    } while (offset < source.size);
  } finally {
    // A failure mid-chunk leaves no read pending, and the stream closed.
    if (reading !== null) await reading.catch(() => null);
    await slices.return(undefined);
    for (const memory of held) releaseBuffer(memory);
  }
  // The chunk's ~760 WebCrypto calls left their browser objects behind: see askForCollection.
  askForCollection();
  return identity === null ? {} : { hash: await identity.finish() };
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
