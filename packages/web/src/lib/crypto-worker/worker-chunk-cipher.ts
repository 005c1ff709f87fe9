import { answerSlice, CryptoWorkerError, errorFromFailure, type ChunkCipher } from './chunk-cipher';
import type { CryptoReadProgress, CryptoRequest, CryptoResponse } from './protocol';

/** The subset of `Worker` the cipher uses, so tests can pass a fake. */
export type CryptoWorkerLike = Pick<Worker, 'postMessage' | 'addEventListener' | 'terminate'>;

/** A request before it gets its id (TypeScript's Omit would lose the union). */
type RequestBody = CryptoRequest extends infer R ? (R extends CryptoRequest ? Omit<R, 'id'> : never) : never;

interface Answer {
  readonly data: ArrayBuffer;
  readonly iv?: ArrayBuffer;
  readonly sha256?: ArrayBuffer;
}

interface Pending {
  resolve: (answer: Answer) => void;
  reject: (error: Error) => void;
  onRead?: ((bytesRead: number) => void) | undefined;
}

/** Starts the bundled crypto worker. The `new URL(…, import.meta.url)` form is what Vite bundles. */
export function startCryptoWorker(): CryptoWorkerLike {
  return new Worker(new URL('./crypto.worker.ts', import.meta.url), {
    type: 'module',
    name: 'coffer-crypto',
  });
}

/**
 * A {@link ChunkCipher} backed by ONE worker, started on first use and shared by every transfer.
 *
 * Why one: the machine class we target has 2 cores, WebCrypto already runs AES-GCM on its own
 * threads, and the worker only forwards chunks to it, so more workers would add memory, not speed.
 * The worker handles requests concurrently, so transfers do not wait for each other; memory stays
 * bounded because each transfer keeps at most two chunks in flight. If the worker dies, pending
 * calls fail with {@link CryptoWorkerError} and the next call starts a new one.
 */
export function createWorkerChunkCipher(
  startWorker: () => CryptoWorkerLike = startCryptoWorker,
): ChunkCipher {
  let worker: CryptoWorkerLike | null = null;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  const failAll = (error: Error): void => {
    const waiting = [...pending.values()];
    pending.clear();
    for (const call of waiting) call.reject(error);
  };

  const ensureWorker = (): CryptoWorkerLike => {
    if (worker !== null) return worker;
    const started = startWorker();
    started.addEventListener('message', (event: MessageEvent<CryptoResponse | CryptoReadProgress>) => {
      const response = event.data;
      const call = pending.get(response.id);
      if (call === undefined) return;
      if (!('ok' in response)) {
        call.onRead?.(response.read);
        return;
      }
      pending.delete(response.id);
      if (response.ok) call.resolve(response);
      else call.reject(errorFromFailure(response.error));
    });
    started.addEventListener('error', (event: ErrorEvent) => {
      // A load failure or an uncaught error: this worker is unusable, the next call starts another.
      event.preventDefault();
      if (worker === started) worker = null;
      started.terminate();
      failAll(new CryptoWorkerError(`The encryption worker failed: ${event.message || 'unknown error'}`));
    });
    started.addEventListener('messageerror', () => {
      failAll(new CryptoWorkerError('The encryption worker sent an unreadable message'));
    });
    worker = started;
    return started;
  };

  const run = (
    body: RequestBody,
    transfer: Transferable[],
    onRead?: (bytesRead: number) => void,
  ): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const request = { ...body, id } as CryptoRequest;
      pending.set(id, { resolve, reject, onRead });
      try {
        ensureWorker().postMessage(request, transfer);
      } catch (cause) {
        pending.delete(id);
        reject(new CryptoWorkerError('Could not send a chunk to the encryption worker', { cause }));
      }
    });

  return {
    decrypt: async (key, index, isLast, data) =>
      new Uint8Array((await run({ op: 'decrypt', key, index, isLast, data }, [data])).data),
    // The File is sent as a reference: the worker reads the slice itself.
    encryptSlice: async (key, index, isLast, source, start, end, options) => {
      const onRead = options?.onRead;
      const answer = await run(
        {
          op: 'encrypt-slice',
          key,
          index,
          isLast,
          source,
          start,
          end,
          reportRead: onRead !== undefined,
          hashPlaintext: options?.hashPlaintext === true,
        },
        [],
        onRead,
      );
      return answerSlice(answer.data, answer.iv, answer.sha256);
    },
    dispose: () => {
      worker?.terminate();
      worker = null;
      failAll(new CryptoWorkerError('The encryption worker was stopped'));
    },
  };
}
