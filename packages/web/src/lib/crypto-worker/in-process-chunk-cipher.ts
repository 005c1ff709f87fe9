import { answerSlice, encryptSliceRequest, errorFromFailure, type ChunkCipher } from './chunk-cipher';
import { processCryptoRequest } from './process-request';
import type { CryptoRequest } from './protocol';

/**
 * The {@link ChunkCipher} on the current thread, for tests (happy-dom has no Worker) and for
 * environments without module workers. It keeps the worker's ownership rules: input buffers are
 * detached, as a transfer would detach them, so code that reuses a transferred buffer fails here too.
 */
export function createInProcessChunkCipher(): ChunkCipher {
  let nextId = 1;
  const run = async (
    request: CryptoRequest,
    onRead?: (bytesRead: number) => void,
  ): Promise<{ data: ArrayBuffer; iv?: ArrayBuffer; hash?: ArrayBuffer }> => {
    const response = await processCryptoRequest(request, onRead);
    if (!response.ok) throw errorFromFailure(response.error);
    return response;
  };
  const moved = (data: ArrayBuffer): ArrayBuffer => structuredClone(data, { transfer: [data] });
  return {
    decrypt: async (key, index, isLast, data) =>
      new Uint8Array(
        (await run({ id: nextId++, op: 'decrypt', key, index, isLast, data: moved(data) })).data,
      ),
    encryptSlice: async (key, index, isLast, source, start, end, options) => {
      const request = encryptSliceRequest(key, index, isLast, source, start, end, options, 'encrypt-slice');
      const answer = await run({ id: nextId++, ...request }, options?.onRead);
      return answerSlice(answer.data, answer.iv, answer.hash);
    },
    dispose: () => undefined,
  };
}
