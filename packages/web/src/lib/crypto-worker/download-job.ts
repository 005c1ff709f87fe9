import { downloadMessages } from '@coffer/contracts';
import { decryptChunk } from '@coffer/crypto';
import { runDownloadPipeline, type ChunkFeed, type DownloadJob } from '../transfers/download/download-run';
import type { OpenedStream } from '../transfers/download/resumable-reader';
import { feedVerifiedChunks } from './download-feed';
import { openDownloadStream } from '../transfers/download/fetch';
import { progressGate } from '../transfers/progress';
import { openFileTargetSink } from '../transfers/save/fs-access-sink';
import type { SaveSink } from '../transfers/save/save-sink';
import { TransferAbortedError } from '../transfers/transfer-errors';
import { createChunkFiles, type ChunkStore, type ChunkStores } from '../transfers/download/chunk-store';
import { describeFailure, errorFromFailure } from './chunk-cipher';
import { checkStreamingGcm } from './streaming-support';
import type { DownloadCall, DownloadPageMessage, DownloadWorkerMessage, WorkerSinkTarget } from './protocol';

/**
 * A download, in the crypto worker: the page checked the metadata and unwrapped the file key; here
 * the ciphertext is fetched (with `Range` resume), cut into chunks, decrypted and written to the
 * save target the page handed over (the picked file, or the page for the Blob fallback), so none
 * of it runs on the page's main thread. (Service-worker downloads run in the download service
 * worker instead, with the same pipeline: `src/sw/download-service-worker.ts`.) The page hears the progress and answers `port` calls.
 */
export async function runDownloadJob(job: DownloadJob, port: MessagePort): Promise<void> {
  const page = new PagePort(port);
  try {
    await runDownloadOnPort(
      job,
      page,
      async () => sinkFor((await page.call({ method: 'open-sink' })) as WorkerSinkTarget, page),
      undefined,
      workerChunkFiles().forDownload(),
    );
  } finally {
    page.close();
  }
}

/**
 * A download's fetch and verify stages, in the crypto worker, for the download service worker that
 * decrypts and saves (`download-feed.ts`): the page answers `port` calls (headers); the chunks, the
 * progress and any failure go over `feed`.
 */
export async function runFeedJob(job: DownloadJob, port: MessagePort, feed: MessagePort): Promise<void> {
  const page = new PagePort(port);
  try {
    await feedVerifiedChunks({
      job,
      open: openWithFreshHeaders(job, page),
      store: workerChunkFiles().forDownload(),
      port: feed,
      streaming: await checkStreamingGcm(),
      signal: page.cancelled.signal,
    });
  } finally {
    page.close();
  }
}

/** The content's GET from `offset`, with the auth headers the page gives for each request. */
function openWithFreshHeaders(
  job: DownloadJob,
  page: PagePort,
): (offset: number, signal: AbortSignal, end?: number) => Promise<OpenedStream> {
  return async (offset, signal, end) =>
    openDownloadStream(
      (input, init) => fetch(input, init),
      job,
      (await page.call({ method: 'headers' })) as Record<string, string>,
      offset,
      signal,
      end,
    );
}

/**
 * The download pipeline of a worker that talks to the page over `page`: the crypto worker's, and the
 * download service worker's, which writes to its own response stream (`openSink`). Does not close
 * the port.
 */
export async function runDownloadOnPort(
  job: DownloadJob,
  page: PagePort,
  openSink: () => Promise<SaveSink>,
  /** Bytes per slice a chunk is verified and decrypted in (tests use small ones). */
  openSliceBytes?: number,
  /** Where chunks wait between verify and decrypt (default: Blobs). */
  chunkStore?: ChunkStore,
  /** The download service worker's: verified chunks from the crypto worker (`download-feed.ts`). */
  feed?: ChunkFeed,
): Promise<void> {
  const posts = progressGate();
  // Verify each chunk as it arrives, then decrypt it slice by slice, where this engine computes GCM that way.
  const streaming = await checkStreamingGcm();
  await runDownloadPipeline({
    job,
    open: openWithFreshHeaders(job, page),
    ...(feed === undefined ? {} : { feed }),
    // WebCrypto copies its input when called: the read buffer is free again at once.
    decrypt: (key, index, isLast, encrypted) => decryptChunk(key, index, isLast, new Uint8Array(encrypted)),
    decryptCopiesInput: true,
    ...(streaming
      ? {
          inSlices: openSliceBytes === undefined ? {} : { sliceBytes: openSliceBytes },
          ...(chunkStore === undefined ? {} : { chunkStore }),
        }
      : {}),
    openSink,
    progress: {
      text: (text) => {
        page.post({ type: 'text', text });
      },
      fraction: (done, total) => {
        // One message per visible step (at most one every 150 ms), not per network piece.
        if (posts(done, total)) page.post({ type: 'fraction', done, total });
      },
    },
    signal: page.cancelled.signal,
  });
}

let chunkFiles: ChunkStores | null = null;

/** This crypto worker's chunk files (made at its first download; they sweep dead workers' folders). */
function workerChunkFiles(): ChunkStores {
  chunkFiles ??= createChunkFiles();
  return chunkFiles;
}

async function sinkFor(target: WorkerSinkTarget, page: PagePort): Promise<SaveSink> {
  switch (target.kind) {
    case 'file':
      return openFileTargetSink(target.handle);
    case 'page':
      // The Blob fallback lives on the page: each verified chunk goes there (transferred, no copy).
      return {
        async write(bytes) {
          const buffer =
            bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
              ? bytes.buffer
              : bytes.slice().buffer;
          await page.call({ method: 'write', bytes: buffer }, [buffer]);
        },
        async close() {
          await page.call({ method: 'close' });
        },
        async abort(reason) {
          await page.call({ method: 'abort', failure: describeFailure(reason) }).catch(() => undefined);
        },
      };
  }
}

/** The worker's end of a download's MessageChannel. */
export class PagePort {
  readonly cancelled = new AbortController();
  readonly #port: MessagePort;
  readonly #waiting = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  #nextSeq = 1;

  constructor(port: MessagePort) {
    this.#port = port;
    port.onmessage = (event: MessageEvent<DownloadPageMessage>) => {
      const message = event.data;
      if (message.type === 'cancel') {
        this.cancelled.abort();
        // A page that cancels (or gave up on this worker) answers nothing more.
        this.#failWaiting();
        return;
      }
      const call = this.#waiting.get(message.seq);
      if (call === undefined) return;
      this.#waiting.delete(message.seq);
      if (message.type === 'return') call.resolve(message.value);
      else call.reject(errorFromFailure(message.failure));
    };
  }

  post(message: DownloadWorkerMessage, transfer: Transferable[] = []): void {
    this.#port.postMessage(message, transfer);
  }

  call(call: DownloadCall, transfer: Transferable[] = []): Promise<unknown> {
    const seq = this.#nextSeq++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(seq, { resolve, reject });
      this.post({ type: 'call', seq, call }, transfer);
    });
  }

  close(): void {
    this.#port.onmessage = null;
    this.#port.close();
    this.#failWaiting();
  }

  #failWaiting(): void {
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const call of waiting) call.reject(new TransferAbortedError(downloadMessages.aborted));
  }
}
