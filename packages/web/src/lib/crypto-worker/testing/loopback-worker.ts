import type { XhrFactory } from '../../transfers/upload-xhr';
import { responseTransfer } from '../chunk-cipher';
import { createPartStore, type PartStore } from '../part-store';
import { processCryptoRequest } from '../process-request';
import type { CryptoProgress, CryptoRequest, CryptoResponse } from '../protocol';
import type { CryptoWorkerLike } from '../worker-chunk-cipher';

/**
 * `postMessage`'s structured clone, top-level Blobs and ports kept as references (as a browser
 * sends them): happy-dom's Blob is not one Node's `structuredClone` knows.
 */
export function cloneMessage<T extends object>(message: T, transfer: Transferable[]): T {
  const byReference = (value: unknown): boolean => value instanceof Blob || value instanceof MessagePort;
  const kept = Object.entries(message).filter(([, value]) => byReference(value));
  const rest = Object.fromEntries(Object.entries(message).filter(([, value]) => !byReference(value)));
  return { ...structuredClone(rest, { transfer }), ...Object.fromEntries(kept) } as T;
}

/**
 * The crypto worker on the current thread, answering every message as the real one does: each
 * request runs at once and concurrently with the others (`processCryptoRequest`, the worker's own
 * code), its progress and its answer arrive as message events in later tasks, and buffers are
 * structured-cloned with their transfer lists (transferred ones are detached). Its uploads go
 * through `createXhr`, as the worker's go through the browser's XHR; the parts it holds are its own.
 */
export class LoopbackCryptoWorker extends EventTarget implements CryptoWorkerLike {
  readonly received: CryptoRequest[] = [];
  terminated = false;
  #running = new Set<Promise<void>>();
  #parts: PartStore;

  constructor(private readonly createXhr: XhrFactory) {
    super();
    this.#parts = createPartStore(createXhr);
  }

  /** Parts this worker holds now. */
  get heldParts(): number {
    return this.#parts.count;
  }

  postMessage(message: unknown, transfer?: Transferable[] | StructuredSerializeOptions): void {
    const list = Array.isArray(transfer) ? transfer : (transfer?.transfer ?? []);
    const request = cloneMessage(message as CryptoRequest, list);
    this.received.push(request);
    const running = this.#answer(request);
    this.#running.add(running);
    void running.finally(() => this.#running.delete(running));
  }

  /**
   * Resolves once every request posted so far, and any posted meanwhile (also by what an answer
   * set off a few promise steps later: each round ends with a task), has been answered.
   */
  async idle(): Promise<void> {
    do {
      await Promise.all(this.#running);
      await new Promise((resolve) => setTimeout(resolve, 0));
    } while (this.#running.size > 0);
  }

  /** What the browser reports when a worker dies (an uncaught error, out of memory). */
  crash(): void {
    this.dispatchEvent(new ErrorEvent('error', { message: 'the worker died' }));
  }

  terminate(): void {
    // A stopped worker's memory is gone, parts included; its requests still under way end unanswered.
    this.terminated = true;
    this.#parts = createPartStore(this.createXhr);
  }

  async #answer(request: CryptoRequest): Promise<void> {
    await Promise.resolve();
    const onProgress = (progress: number, total?: number | null): void => {
      if (this.terminated) return;
      this.#dispatch({
        id: request.id,
        progress,
        ...(total === undefined ? {} : { total }),
      } satisfies CryptoProgress);
    };
    const response = await processCryptoRequest(request, onProgress, this.#parts);
    if (!this.terminated) this.#dispatch(cloneMessage(response, responseTransfer(response)));
  }

  #dispatch(data: CryptoResponse | CryptoProgress): void {
    this.dispatchEvent(new MessageEvent('message', { data }));
  }
}
