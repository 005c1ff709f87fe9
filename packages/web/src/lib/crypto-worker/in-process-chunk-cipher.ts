import { errorFromFailure, type ChunkCipher } from './chunk-cipher';
import { processCryptoRequest } from './process-request';
import type { CryptoOperation } from './protocol';

/**
 * The {@link ChunkCipher} on the current thread, for tests (happy-dom has no Worker) and for
 * environments without module workers. It keeps the worker's ownership rules: input buffers are
 * detached, as a transfer would detach them, so code that reuses a transferred buffer fails here too.
 */
export function createInProcessChunkCipher(): ChunkCipher {
  let nextId = 1;
  const run = async (
    op: CryptoOperation,
    key: CryptoKey,
    index: number,
    isLast: boolean,
    data: ArrayBuffer,
  ): Promise<Uint8Array<ArrayBuffer>> => {
    const moved = structuredClone(data, { transfer: [data] });
    const response = await processCryptoRequest({ id: nextId++, op, key, index, isLast, data: moved });
    if (!response.ok) throw errorFromFailure(response.error);
    return new Uint8Array(response.data);
  };
  return {
    encrypt: (key, index, isLast, plaintext) => run('encrypt', key, index, isLast, plaintext),
    decrypt: (key, index, isLast, encrypted) => run('decrypt', key, index, isLast, encrypted),
    dispose: () => undefined,
  };
}
