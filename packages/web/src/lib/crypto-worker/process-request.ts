import { decryptChunk, encryptChunk, IntegrityError } from '@coffer/crypto';
import type { CryptoFailure, CryptoRequest, CryptoResponse } from './protocol';

/**
 * Runs one request with `@coffer/crypto`. Never throws: failures become `ok: false` answers, so
 * the worker always answers every id. Shared by the worker and the in-process fallback.
 */
export async function processCryptoRequest(request: CryptoRequest): Promise<CryptoResponse> {
  const { id, op, key, index, isLast } = request;
  try {
    const input = new Uint8Array(request.data);
    const output =
      op === 'encrypt'
        ? await encryptChunk(key, index, isLast, input)
        : await decryptChunk(key, index, isLast, input);
    return { id, ok: true, data: wholeBuffer(output) };
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

function describeFailure(cause: unknown): CryptoFailure {
  if (cause instanceof IntegrityError) {
    return { kind: 'integrity', name: cause.name, message: cause.message };
  }
  if (cause instanceof Error) return { kind: 'failed', name: cause.name, message: cause.message };
  return { kind: 'failed', name: 'Error', message: String(cause) };
}
