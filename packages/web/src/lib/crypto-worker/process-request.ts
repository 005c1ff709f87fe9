import { decryptChunk, sealChunk, sha256, sha256PieceList } from '@coffer/crypto';
import { releaseBuffer } from '../transfers/buffers';
import { describeFailure, type ChunkHashScheme } from './chunk-cipher';
import { runDownloadJob } from './download-job';
import { createReadBufferPool } from './read-buffers';
import { readSliceInto } from './read-slice';
import type { CryptoRequest, CryptoResponse } from './protocol';

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
  onRead?: (bytesRead: number) => void,
): Promise<CryptoResponse> {
  const { id } = request;
  try {
    switch (request.op) {
      case 'download':
        await runDownloadJob(request.job, request.port);
        return { id, ok: true, data: new ArrayBuffer(0) };
      case 'decrypt': {
        const { key, index, isLast } = request;
        const decrypting = decryptChunk(key, index, isLast, new Uint8Array(request.data));
        // WebCrypto copied the input when called: it can go before the decryption ends.
        releaseBuffer(request.data);
        return { id, ok: true, data: wholeBuffer(await decrypting) };
      }
      case 'encrypt-slice':
        return { id, ...(await encryptSlice(request, onRead)) };
    }
  } catch (cause) {
    return { id, ok: false, error: describeFailure(cause) };
  }
}

/**
 * Reads the slice into a reused read buffer, starts the encryption (WebCrypto copies its input when
 * called) and the hash, and gives the buffer back once the hash has read it: the next chunk of the
 * upload lands in the same memory. The ciphertext is WebCrypto's output, transferred to the page.
 */
async function encryptSlice(
  request: Extract<CryptoRequest, { op: 'encrypt-slice' }>,
  onRead: ((bytesRead: number) => void) | undefined,
): Promise<{ ok: true; data: ArrayBuffer; iv: ArrayBuffer; hash?: ArrayBuffer }> {
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
      request.hashPlaintext === undefined ? undefined : await hashChunk(request.hashPlaintext, plaintext);
    const sealed = await sealing;
    return {
      ok: true,
      data: wholeBuffer(sealed.ciphertextBytes),
      iv: wholeBuffer(sealed.ivBytes),
      ...(hash === undefined ? {} : { hash: wholeBuffer(hash) }),
    };
  } finally {
    readBuffers.give(buffer);
  }
}

/** The chunk's identity for resumable uploads, in the scheme their record uses. */
function hashChunk(scheme: ChunkHashScheme, plaintext: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  switch (scheme) {
    case 'sha256-pieces':
      return sha256PieceList(plaintext);
    case 'sha256':
      // Records written before the piece list: WebCrypto copies the whole chunk for this one.
      return sha256(plaintext);
  }
}

/** The bytes as a buffer of their own, so it can be transferred without carrying anything else. */
function wholeBuffer(bytes: Uint8Array<ArrayBuffer>): ArrayBuffer {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes.buffer
    : bytes.slice().buffer;
}
