import { uploadMessages } from '@coffer/contracts';
import type { DownloadHost, PipelineProgress } from '../transfers/download/download-run';
import type { SaveSink, SinkHandOff } from '../transfers/save/save-sink';
import { TransferAbortedError, TransferError } from '../transfers/transfer-errors';
import type { XhrAnswer } from '../transfers/upload-xhr';
import {
  answerSlice,
  encryptSliceRequest,
  CryptoWorkerError,
  describeFailure,
  errorFromFailure,
  PartLostError,
  type ChunkCipher,
  type PartSendRequest,
  type SealedPart,
} from './chunk-cipher';
import type { PartsForm } from './protocol';
import type {
  CryptoProgress,
  CryptoRequest,
  CryptoResponse,
  DownloadCall,
  DownloadPageMessage,
  DownloadWorkerMessage,
  WorkerSinkTarget,
} from './protocol';

/** The subset of `Worker` the cipher uses, so tests can pass a fake. */
export type CryptoWorkerLike = Pick<Worker, 'postMessage' | 'addEventListener' | 'terminate'>;

/** A request before it gets its id (TypeScript's Omit would lose the union). */
type RequestBody = CryptoRequest extends infer R ? (R extends CryptoRequest ? Omit<R, 'id'> : never) : never;

type Answer = Extract<CryptoResponse, { ok: true }>;

interface Pending {
  resolve: (answer: Answer) => void;
  reject: (error: Error) => void;
  onProgress?: ((bytes: number, total?: number | null) => void) | undefined;
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
 * Why one: the machine class we target has 2 cores, and each worker holds chunk buffers of its own.
 * Note that Chromium runs `crypto.subtle` AES-GCM synchronously on the calling thread (measured in
 * session 7: the call returns after the whole chunk is done), so one worker does one chunk's cipher
 * work at a time and concurrent transfers take turns at chunk granularity; a second worker would let
 * two chunks run on two cores, at the price of their buffers (docs/transfers.md). Memory stays
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
    started.addEventListener('message', (event: MessageEvent<CryptoResponse | CryptoProgress>) => {
      const response = event.data;
      const call = pending.get(response.id);
      if (call === undefined) return;
      if (!('ok' in response)) {
        call.onProgress?.(response.progress, response.total);
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
      // Stopped like a crashed one: its answers can no longer be trusted to arrive, and what it
      // holds (a part sealed for a call now failed) must not outlive the calls.
      if (worker === started) worker = null;
      started.terminate();
      failAll(new CryptoWorkerError('The encryption worker sent an unreadable message'));
    });
    worker = started;
    return started;
  };

  const run = (
    body: RequestBody,
    transfer: Transferable[],
    onProgress?: (bytes: number, total?: number | null) => void,
    id = nextId++,
  ): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const request = { ...body, id } as CryptoRequest;
      pending.set(id, { resolve, reject, onProgress });
      try {
        ensureWorker().postMessage(request, transfer);
      } catch (cause) {
        pending.delete(id);
        reject(new CryptoWorkerError('Could not send a chunk to the encryption worker', { cause }));
      }
    });

  /** A download request whose calls the page answers on a port of its own (`DownloadPageSide`). */
  const runOnPort = async (
    host: DownloadHost,
    request: (port: MessagePort) => { body: RequestBody; transfer: Transferable[] },
  ): Promise<void> => {
    const channel = new MessageChannel();
    const page = new DownloadPageSide(channel.port1, host);
    const cancel = (): void => {
      page.send({ type: 'cancel' });
    };
    host.signal.addEventListener('abort', cancel, { once: true });
    if (host.signal.aborted) cancel();
    let outcome: 'closed' | 'aborted' = 'aborted';
    try {
      const { body, transfer } = request(channel.port2);
      await run(body, transfer);
      outcome = 'closed';
    } finally {
      host.signal.removeEventListener('abort', cancel);
      page.close();
      await page.settle(outcome);
    }
  };

  const parts = partHandles(
    (body, onProgress, id) => run(body, [], onProgress, id),
    () => nextId++,
    () => worker,
  );

  return {
    decrypt: async (key, index, isLast, data) =>
      new Uint8Array((await run({ op: 'decrypt', key, index, isLast, data }, [data])).data),
    // The File is sent as a reference: the worker reads the slice itself.
    encryptSlice: async (key, index, isLast, source, start, end, options) => {
      const request = encryptSliceRequest(key, index, isLast, source, start, end, options, 'encrypt-slice');
      const answer = await run(request, [], options?.onRead);
      return answerSlice(answer.data, answer.iv, answer.hash);
    },
    sealPart: async (key, index, isLast, source, start, end, options) => {
      const request = encryptSliceRequest(key, index, isLast, source, start, end, options, 'seal-part');
      const sealed = await run(request, [], options?.onRead);
      return parts.held(sealed, worker);
    },
    sendForm: (sealedParts, request) => parts.send(sealedParts, { ...request, method: 'POST' }),
    streaming: async () => (await run({ op: 'status' }, [])).streaming === true,
    runDownload: (job, host) =>
      runOnPort(host, (port) => ({ body: { op: 'download', job, port }, transfer: [port] })),
    feedDownload: (job, host, feed) =>
      runOnPort(host, (port) => ({ body: { op: 'feed-download', job, port, feed }, transfer: [port, feed] })),
    dispose: () => {
      worker?.terminate();
      worker = null;
      failAll(new CryptoWorkerError('The encryption worker was stopped'));
    },
  };
}

/**
 * The page's handles on the parts a worker holds (`seal-part`): `send` asks the worker to send
 * them (aborted with `cancel-send` when the request's signal aborts), `release` frees one there.
 * A part lives in the worker that sealed it: once that one is stopped, it is gone.
 */
function partHandles(
  run: (
    body: RequestBody,
    onProgress: ((bytes: number, total?: number | null) => void) | undefined,
    id: number,
  ) => Promise<Answer>,
  newId: () => number,
  currentWorker: () => CryptoWorkerLike | null,
) {
  interface Held {
    readonly id: number;
    readonly holder: CryptoWorkerLike | null;
    released: boolean;
  }
  const registry = new WeakMap<SealedPart, Held>();
  const isHeld = (held: Held): boolean => held.holder !== null && currentWorker() === held.holder;

  const send = async (
    sealedParts: readonly SealedPart[],
    request: PartSendRequest & { method: 'PUT' | 'POST'; form?: PartsForm },
  ): Promise<XhrAnswer> => {
    const held = sealedParts.map((part) => registry.get(part));
    if (held.length === 0 || held.some((part) => part === undefined || part.released)) {
      throw new CryptoWorkerError('The part was already released, or is not one of this worker');
    }
    const known = held as Held[];
    if (request.signal.aborted) throw new TransferAbortedError(uploadMessages.aborted);
    if (!known.every(isHeld)) throw new PartLostError();
    const size = sealedParts.reduce((sum, part) => sum + part.size, 0);
    const id = newId();
    const cancel = (): void => {
      run({ op: 'cancel-send', request: id }, undefined, newId()).catch(() => undefined);
    };
    request.signal.addEventListener('abort', cancel, { once: true });
    try {
      const answer = await run(
        {
          op: 'send-part',
          parts: known.map((part) => part.id),
          method: request.method,
          url: absoluteUrl(request.url),
          headers: request.headers,
          ...(request.form === undefined ? {} : { form: request.form }),
        },
        (sent, total) => request.onProgress?.(sent, total ?? (request.form === undefined ? size : null)),
        id,
      );
      const sent = answer.sent;
      if (sent === undefined) throw new CryptoWorkerError('The encryption worker answered no part answer');
      return {
        status: sent.status,
        responseText: sent.responseText,
        // The one header a part's answer is read for.
        header: (name) => (name.toLowerCase() === 'etag' ? sent.etag : null),
      };
    } catch (error) {
      if (error instanceof TransferError && error.status === 401) request.onUnauthorized?.();
      throw error;
    } finally {
      request.signal.removeEventListener('abort', cancel);
    }
  };

  return {
    send,
    held: (sealed: Answer, holder: CryptoWorkerLike | null): SealedPart => {
      const entry: Held = { id: sealed.id, holder, released: false };
      const part: SealedPart = {
        size: sealed.size ?? 0,
        ...(sealed.hash === undefined ? {} : { plaintextHash: new Uint8Array(sealed.hash) }),
        send: (request) => send([part], { ...request, method: 'PUT' }),
        release: () => {
          if (entry.released) return;
          entry.released = true;
          // A stopped worker took the part with it: no worker is started just to drop nothing.
          if (!isHeld(entry)) return;
          run({ op: 'drop-part', part: entry.id }, undefined, newId()).catch(() => undefined);
        },
      };
      registry.set(part, entry);
      return part;
    },
  };
}

/** A URL as the page resolves it: the worker would resolve a relative one against its script's. */
function absoluteUrl(url: string): string {
  const base = (globalThis as { location?: { href?: string } }).location?.href;
  if (base === undefined) return url;
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}

/**
 * What the page does with a download worker's message, whichever worker runs the download (the
 * crypto worker, the download service worker): shows the progress and answers each `call` on `port`
 * with what `run` returns or throws. `alive` and `result` are left to the caller.
 */
export function pageSideOfDownload(
  message: DownloadWorkerMessage,
  progress: PipelineProgress,
  run: (call: DownloadCall) => Promise<{ value: unknown; transfer: Transferable[] }>,
  port: MessagePort,
): void {
  switch (message.type) {
    case 'text':
      progress.text(message.text);
      break;
    case 'fraction':
      progress.fraction(message.done, message.total);
      break;
    case 'call': {
      const { seq } = message;
      run(message.call).then(
        ({ value, transfer }) => {
          port.postMessage({ type: 'return', seq, value } satisfies DownloadPageMessage, transfer);
        },
        (error: unknown) => {
          port.postMessage({
            type: 'throw',
            seq,
            failure: describeFailure(error),
          } satisfies DownloadPageMessage);
        },
      );
      break;
    }
    case 'alive':
    case 'result':
      break;
  }
}

/**
 * The page's end of a download running in the worker: answers its calls (headers, the save
 * target, the Blob fallback's writes) and passes the progress on. This is all the main thread
 * does during a download.
 */
class DownloadPageSide {
  #sink: SaveSink | null = null;
  #handOff: SinkHandOff | null = null;
  /** The page sink was closed or aborted at the worker's request. */
  #ended = false;

  constructor(
    readonly port: MessagePort,
    readonly host: DownloadHost,
  ) {
    port.onmessage = (event: MessageEvent<DownloadWorkerMessage>) => {
      // `alive` and `result` are the download service worker's; the crypto worker answers its request.
      pageSideOfDownload(event.data, host.progress, (call) => this.#run(call), this.port);
    };
  }

  send(message: DownloadPageMessage, transfer: Transferable[] = []): void {
    this.port.postMessage(message, transfer);
  }

  async #run(call: DownloadCall): Promise<{ value: unknown; transfer: Transferable[] }> {
    const none = { value: null, transfer: [] };
    switch (call.method) {
      case 'headers':
        return { value: await this.host.headers(), transfer: [] };
      case 'open-sink': {
        const sink = await this.host.openSink();
        this.#sink = sink;
        const handOff = sink.handOff?.() ?? null;
        this.#handOff = handOff;
        const target: WorkerSinkTarget = handOff?.target ?? { kind: 'page' };
        return { value: target, transfer: handOff?.transfer ?? [] };
      }
      case 'write':
        await this.#pageSink().write(new Uint8Array(call.bytes));
        return none;
      case 'close':
        this.#ended = true;
        await this.#pageSink().close();
        return none;
      case 'abort':
        this.#ended = true;
        await this.#pageSink().abort(errorFromFailure(call.failure));
        return none;
    }
  }

  #pageSink(): SaveSink {
    if (this.#sink === null || this.#handOff !== null) throw new Error('No page sink is open');
    return this.#sink;
  }

  /** The page's part of the ending of a handed-off sink. */
  async settle(outcome: 'closed' | 'aborted'): Promise<void> {
    await this.#handOff?.settle(outcome);
    // The worker died before it could end the page sink: no complete-looking file.
    if (outcome === 'aborted' && this.#handOff === null && !this.#ended) {
      await this.#sink?.abort(new CryptoWorkerError('The download stopped'));
    }
  }

  close(): void {
    this.port.onmessage = null;
    this.port.close();
  }
}
