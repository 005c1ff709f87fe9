import { decryptChunk, pieceIdentityOf, sealChunk, sha256 } from '@coffer/crypto';
import { releaseBuffer } from '../transfers/buffers';
import { createBrowserXhr } from '../transfers/upload-xhr';
import { describeFailure, pieceIdentityFor, type ChunkHashing } from './chunk-cipher';
import { runDownloadJob, runFeedJob } from './download-job';
import { createPartFiles } from './part-files';
import { createPartStore, type PartStore } from './part-store';
import { sealInSlices, type PartWriter } from './seal-in-slices';
import { createReadBufferPool } from './read-buffers';
import { readSliceInto } from '../storage/read-slice';
import { checkStreamingGcm } from './streaming-support';
import type { CryptoRequest, CryptoResponse } from './protocol';

/** This thread's parts, sent with the browser's XHR, on disk where the browser allows it. */
const thisThreadParts = createPartStore(createBrowserXhr, createPartFiles());

/** This thread's read buffers: one per upload reading at the same time, reused chunk after chunk. */
const readBuffers = createReadBufferPool();

/**
 * Runs one request with `@coffer/crypto`. Never throws: failures become `ok: false` answers, so
 * the worker always answers every id. Shared by the worker and the in-process fallback.
 *
 * Memory: a chunk is ~95 MiB, and a worker's garbage collector may take seconds to notice buffers
 * it no longer needs. The transfer paths therefore release each chunk-sized buffer of their own
 * the moment it has been used (see `releaseBuffer`), so the worker holds only the chunks it is
 * working on.
 */
export async function processCryptoRequest(
  request: CryptoRequest,
  onProgress?: (bytes: number, total?: number | null) => void,
  parts: PartStore = thisThreadParts,
): Promise<CryptoResponse> {
  const { id } = request;
  try {
    switch (request.op) {
      case 'download':
        await runDownloadJob(request.job, request.port);
        return { id, ok: true, data: new ArrayBuffer(0) };
      case 'feed-download':
        await runFeedJob(request.job, request.port, request.feed);
        return { id, ok: true, data: new ArrayBuffer(0) };
      case 'decrypt': {
        const { key, index, isLast } = request;
        const decrypting = decryptChunk(key, index, isLast, new Uint8Array(request.data));
        // WebCrypto copied the input when called: it can go before the decryption ends.
        releaseBuffer(request.data);
        return { id, ok: true, data: wholeBuffer(await decrypting) };
      }
      case 'encrypt-slice': {
        const sealed = await encryptSlice(request, onProgress);
        return {
          id,
          ok: true,
          data: wholeBuffer(sealed.ciphertext),
          iv: wholeBuffer(sealed.iv),
          ...(sealed.hash === undefined ? {} : { hash: wholeBuffer(sealed.hash) }),
        };
      }
      case 'seal-part': {
        const { size, hash } = await sealPart(request, parts, onProgress);
        return {
          id,
          ok: true,
          data: new ArrayBuffer(0),
          size,
          ...(hash === undefined ? {} : { hash: wholeBuffer(hash) }),
        };
      }
      case 'send-part':
        return {
          id,
          ok: true,
          data: new ArrayBuffer(0),
          sent: await parts.send(request, onProgress),
        };
      case 'cancel-send':
        parts.cancel(request.request);
        return { id, ok: true, data: new ArrayBuffer(0) };
      case 'drop-part':
        parts.drop(request.part);
        return { id, ok: true, data: new ArrayBuffer(0) };
      case 'status':
        return { id, ok: true, data: new ArrayBuffer(0), streaming: await checkStreamingGcm() };
    }
  } catch (cause) {
    return { id, ok: false, error: describeFailure(cause) };
  }
}

/**
 * Seals the request's chunk into a part `parts` holds under the request's id: slice by slice where
 * the streaming self-test passed, else (and for resume records hashed whole, `sha256`, which need
 * the whole chunk at once anyway) in one WebCrypto call. Answers the part's size and the hash asked for.
 */
async function sealPart(
  request: Extract<CryptoRequest, { op: 'seal-part' }>,
  parts: PartStore,
  onProgress: ((bytesRead: number) => void) | undefined,
): Promise<{ size: number; hash?: Uint8Array<ArrayBuffer> }> {
  if (request.hashPlaintext?.scheme !== 'sha256' && (await checkStreamingGcm())) {
    const { size, sealed } = await parts.holdSealing(request.id, (writer) =>
      sealPartInSlices(request, writer, onProgress),
    );
    return { size, ...sealed };
  }
  const sealed = await encryptSlice(request, onProgress);
  const size = await parts.hold(request.id, sealed.iv, sealed.ciphertext);
  // The file or the Blob holds a copy: the chunk-sized output goes now, not at the next collection.
  releaseBuffer(sealed.ciphertext.buffer);
  return { size, ...(sealed.hash === undefined ? {} : { hash: sealed.hash }) };
}

/**
 * Seals the request's chunk slice by slice into `writer` (`seal-in-slices.ts`), reading each slice
 * while the one before it is sealed.
 */
async function sealPartInSlices(
  request: Extract<CryptoRequest, { op: 'seal-part' }>,
  writer: PartWriter,
  onRead: ((bytesRead: number) => void) | undefined,
): Promise<{ hash?: Uint8Array<ArrayBuffer> }> {
  const hashing = request.hashPlaintext;
  const identity = hashing === undefined ? null : pieceIdentityFor(hashing, request.index);
  if (hashing !== undefined && identity === null)
    throw new Error('A whole-chunk hash cannot be sealed in slices');
  return sealInSlices(
    {
      key: request.key,
      index: request.index,
      isLast: request.isLast,
      source: request.source.slice(request.start, request.end),
      ...(identity === null ? {} : { identity }),
      ...(request.reportRead === true && onRead !== undefined ? { onRead } : {}),
    },
    writer,
  );
}

/**
 * Reads the slice into a reused read buffer, starts the encryption (WebCrypto copies its input when
 * called) and the hash, and gives the buffer back once the hash has read it: the next chunk of the
 * upload lands in the same memory. The ciphertext is WebCrypto's output.
 */
async function encryptSlice(
  request: Extract<CryptoRequest, { op: 'encrypt-slice' | 'seal-part' }>,
  onRead: ((bytesRead: number) => void) | undefined,
): Promise<{
  ciphertext: Uint8Array<ArrayBuffer>;
  iv: Uint8Array<ArrayBuffer>;
  hash?: Uint8Array<ArrayBuffer>;
}> {
  const { key, index, isLast, start, end } = request;
  const slice = request.source.slice(start, end);
  let buffer = readBuffers.take(end - start);
  try {
    const plaintext = await readSliceInto(slice, buffer, request.reportRead === true ? onRead : undefined);
    buffer = plaintext.buffer;
    const sealing = sealChunk(key, index, isLast, plaintext);
    // A rejection is awaited below; until then it must not count as unhandled.
    sealing.catch(() => undefined);
    const hash =
      request.hashPlaintext === undefined
        ? undefined
        : await hashChunk(request.hashPlaintext, request.index, plaintext);
    const sealed = await sealing;
    return {
      ciphertext: sealed.ciphertextBytes,
      iv: sealed.ivBytes,
      ...(hash === undefined ? {} : { hash }),
    };
  } finally {
    readBuffers.give(buffer);
  }
}

/** The chunk's identity for resumable uploads, in the scheme their record uses. */
function hashChunk(
  hashing: ChunkHashing,
  index: number,
  plaintext: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  const identity = pieceIdentityFor(hashing, index);
  // `sha256`, records written before the piece lists: WebCrypto copies the whole chunk for this one.
  return identity === null ? sha256(plaintext) : pieceIdentityOf(identity, plaintext);
}

/** The bytes as a buffer of their own, so it can be transferred without carrying anything else. */
function wholeBuffer(bytes: Uint8Array<ArrayBuffer>): ArrayBuffer {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes.buffer
    : bytes.slice().buffer;
}
