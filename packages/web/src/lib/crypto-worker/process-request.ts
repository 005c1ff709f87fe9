import { decryptChunk, encryptChunk, IntegrityError, sealChunk } from '@coffer/crypto';
import type { CryptoFailure, CryptoRequest, CryptoResponse } from './protocol';

const BINARY = { type: 'application/octet-stream' } as const;

/**
 * Runs one request with `@coffer/crypto`. Never throws: failures become `ok: false` answers, so
 * the worker always answers every id. Shared by the worker and the in-process fallback.
 *
 * Memory: a chunk is ~95 MiB, and a worker's garbage collector may take seconds to notice buffers
 * it no longer needs. The transfer paths therefore release each chunk-sized buffer of their own
 * the moment it has been used (see {@link release}), so the worker holds only the chunks it is
 * working on.
 */
export async function processCryptoRequest(request: CryptoRequest): Promise<CryptoResponse> {
  const { id, key, index, isLast } = request;
  try {
    switch (request.op) {
      case 'encrypt': {
        const output = await encryptChunk(key, index, isLast, new Uint8Array(request.data));
        return { id, ok: true, data: wholeBuffer(output) };
      }
      case 'decrypt': {
        const output = await decryptChunk(key, index, isLast, new Uint8Array(request.data));
        return { id, ok: true, data: wholeBuffer(output) };
      }
      case 'encrypt-slice': {
        const plaintext = await request.source.slice(request.start, request.end).arrayBuffer();
        const sealed = await sealChunk(key, index, isLast, new Uint8Array(plaintext));
        release(plaintext);
        return { id, ok: true, data: wholeBuffer(sealed.ciphertextBytes), iv: wholeBuffer(sealed.ivBytes) };
      }
      case 'decrypt-to-blob': {
        const plaintext = await decryptChunk(key, index, isLast, new Uint8Array(request.data));
        release(request.data);
        const blob = new Blob([plaintext], BINARY);
        release(plaintext.buffer);
        return { id, ok: true, data: blob };
      }
    }
  } catch (cause) {
    return { id, ok: false, error: describeFailure(cause) };
  }
}

/**
 * Frees a buffer's memory now instead of at the next garbage collection: `transfer(0)` (ES2024)
 * detaches it and moves its contents into a new, empty buffer. A Blob built from it has already
 * copied the bytes. Where `transfer` is missing (Node 20) the buffer is left to the collector.
 */
function release(buffer: ArrayBuffer): void {
  const transferable = buffer as ArrayBuffer & { transfer?: (newLength: number) => ArrayBuffer };
  if (typeof transferable.transfer === 'function' && !isDetached(buffer)) transferable.transfer(0);
}

function isDetached(buffer: ArrayBuffer): boolean {
  return (buffer as ArrayBuffer & { detached?: boolean }).detached === true;
}

/** The bytes as a buffer of their own, so it can be transferred without carrying anything else. */
function wholeBuffer(bytes: Uint8Array<ArrayBuffer>): ArrayBuffer {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes.buffer
    : bytes.slice().buffer;
}

function describeFailure(cause: unknown): CryptoFailure {
  if (cause instanceof IntegrityError) {
    return { kind: 'integrity', name: cause.name, message: cause.message };
  }
  if (cause instanceof Error) return { kind: 'failed', name: cause.name, message: cause.message };
  return { kind: 'failed', name: 'Error', message: String(cause) };
}
