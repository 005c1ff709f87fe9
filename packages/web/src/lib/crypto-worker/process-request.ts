import { decryptChunk, sealChunk, sha256 } from '@coffer/crypto';
import { releaseBuffer } from '../transfers/buffers';
import { describeFailure } from './chunk-cipher';
import { runDownloadJob } from './download-job';
import { readSlice } from './read-slice';
import type { CryptoRequest, CryptoResponse } from './protocol';

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
      case 'encrypt-slice': {
        const { key, index, isLast } = request;
        const plaintext = await readSlice(
          request.source.slice(request.start, request.end),
          request.reportRead === true ? onRead : undefined,
        );
        // WebCrypto copies its input when called: the plaintext can go before the encryption ends.
        const sealing = sealChunk(key, index, isLast, new Uint8Array(plaintext));
        // digest copies its input when called too; both run while the plaintext is already released.
        const hashing = request.hashPlaintext === true ? sha256(new Uint8Array(plaintext)) : undefined;
        releaseBuffer(plaintext);
        const sealed = await sealing;
        const digest = hashing === undefined ? undefined : wholeBuffer(await hashing);
        return {
          id,
          ok: true,
          data: wholeBuffer(sealed.ciphertextBytes),
          iv: wholeBuffer(sealed.ivBytes),
          ...(digest === undefined ? {} : { sha256: digest }),
        };
      }
    }
  } catch (cause) {
    return { id, ok: false, error: describeFailure(cause) };
  }
}

/** The bytes as a buffer of their own, so it can be transferred without carrying anything else. */
function wholeBuffer(bytes: Uint8Array<ArrayBuffer>): ArrayBuffer {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes.buffer
    : bytes.slice().buffer;
}
