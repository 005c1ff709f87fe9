import { downloadMessages } from '@coffer/contracts';
import { CHUNK_OVERHEAD, chunkCount, encryptedSize, plainChunkLength } from '@coffer/crypto';
import type { ChunkStore, StoredChunk } from '../transfers/download/chunk-store';
import type { ChunkFeed, DownloadJob } from '../transfers/download/download-run';
import {
  ResumableReader,
  downloadWindowBytes,
  windowsFor,
  type OpenedStream,
} from '../transfers/download/resumable-reader';
import { openSizes, receiveVerifiedChunk } from '../transfers/download/verify';
import { progressGate } from '../transfers/progress';
import { askForCollection } from '../transfers/buffers';
import { TransferAbortedError } from '../transfers/transfer-errors';
import { describeFailure, errorFromFailure } from './chunk-cipher';
import type { CryptoFailure } from './protocol';

/**
 * A download in two threads (docs/transfers.md, "Two threads"): the crypto worker runs the fetch and
 * verify stages and keeps each chunk in a file of its own (a synchronous access handle: a write is
 * one system call, no copy in fresh memory, no hop to the browser process); the download service
 * worker reads each VERIFIED chunk back from that file, decrypts it and saves it. The two talk over
 * one MessagePort (the "feed"), which the page made and handed to both.
 *
 * Why: in the service worker alone, every byte crossed the browser process twice more (into the
 * chunk store and back) and was copied into fresh memory there (docs/benchmarks.md); a dedicated
 * worker, the only place with synchronous file handles, stores it for almost nothing, and the two
 * threads run on the two cores at once: chunk i + 1 arrives and verifies while chunk i decrypts.
 *
 * What crosses the port: small messages and each chunk's `File` (a handle on the file on disk, never
 * its bytes). Nothing unverified: a chunk is posted only once its whole tag verified in the crypto
 * worker, and the file is this origin's, so only this origin's code (which holds the key anyway) can
 * change it before the service worker reads it (`createVerifiedChunkOpener`).
 */

/** Crypto worker → download service worker. */
export type FeedMessage =
  /** The crypto worker cannot verify in slices: the service worker runs the whole download itself. */
  | { readonly type: 'declined' }
  /** The first answer arrived (the service worker may open the browser's download now). */
  | { readonly type: 'opened' }
  /** Encrypted bytes received so far, of `total` (`progressGate`: a 0.5 % step, at most every 150 ms). */
  | { readonly type: 'received'; readonly done: number; readonly total: number }
  /** Chunk `index`, `iv || ciphertext || tag`, whose tag verified: decrypt it, then say `taken`. */
  | { readonly type: 'chunk'; readonly index: number; readonly data: Blob }
  /** The fetch or verify stage failed (an IntegrityError, a network failure): nothing more comes. */
  | { readonly type: 'failed'; readonly failure: CryptoFailure };

/** Download service worker → crypto worker. */
export type FeedReply =
  /** Chunk `index` is decrypted and saved: its file can go, and the next one may be fetched. */
  | { readonly type: 'taken'; readonly index: number }
  /** The download ended here (cancelled, failed): stop fetching and remove every file. */
  | { readonly type: 'cancel' };

/** Chunks stored ahead of the service worker: one being decrypted there, the next one waiting. */
const CHUNKS_AHEAD = 2;

/** How long posted chunks' files outlive a failed fetch or verify stage, unless the service worker ends first. */
const POSTED_CHUNKS_GRACE_MS = 60_000;

const aborted = (): TransferAbortedError => new TransferAbortedError(downloadMessages.aborted);

/** Resolves when `signal` aborts, or after `ms`. */
function stoppedOrAfter(signal: AbortSignal, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

export interface FeedChunksOptions {
  readonly job: DownloadJob;
  /** Requests the object from `offset` on, up to byte `end` where given (fresh auth headers each time). */
  readonly open: (offset: number, signal: AbortSignal, end?: number) => Promise<OpenedStream>;
  /** Where the chunks wait (the crypto worker's chunk files). */
  readonly store: ChunkStore;
  /** This end of the feed. Closed when the feed ends. */
  readonly port: MessagePort;
  /** False where this worker's streaming self-test failed: the feed is declined at once. */
  readonly streaming: boolean;
  /** Aborted when the page gives up on the download. */
  readonly signal: AbortSignal;
  readonly sliceBytes?: number;
  readonly callBytes?: number;
  /** The window each chunk is asked for in (`ResumableReaderOptions.windows`; default `downloadWindowBytes()`: 16 MiB in Firefox, none elsewhere); tests use small ones. */
  readonly windowBytes?: number;
}

/**
 * The crypto worker's side: fetches the object (with `Range` resume), receives each chunk into its
 * store while verifying it (`verifiedAsStored`), and posts each verified chunk on the feed, at most
 * {@link CHUNKS_AHEAD} ahead of what the service worker has taken. Never throws: a failure is posted
 * as `failed`, and every chunk file is removed when the feed ends, whatever way.
 */
export async function feedVerifiedChunks(options: FeedChunksOptions): Promise<void> {
  const { job, port, store } = options;
  const post = (message: FeedMessage): void => {
    port.postMessage(message);
  };
  if (!options.streaming) {
    post({ type: 'declined' });
    port.close();
    return;
  }
  const stop = new AbortController();
  const onPageAbort = (): void => {
    stop.abort();
  };
  options.signal.addEventListener('abort', onPageAbort, { once: true });
  if (options.signal.aborted) stop.abort();
  const chunks = new Map<number, StoredChunk>();
  let takenUpTo = -1;
  let wake: (() => void) | null = null;
  port.onmessage = (event: MessageEvent<FeedReply>) => {
    const reply = event.data;
    if (reply.type === 'cancel') stop.abort();
    else {
      chunks.get(reply.index)?.remove();
      chunks.delete(reply.index);
      takenUpTo = Math.max(takenUpTo, reply.index);
    }
    wake?.();
  };
  stop.signal.addEventListener('abort', () => wake?.(), { once: true });
  /** Until the service worker has taken chunk `index` (or the feed stopped). */
  const taken = async (index: number): Promise<void> => {
    while (takenUpTo < index) {
      if (stop.signal.aborted) throw aborted();
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = null;
    }
  };
  let input: ResumableReader | null = null;
  try {
    const total = encryptedSize(job.size, job.chunkSize);
    const posts = progressGate();
    input = await ResumableReader.open({
      open: (offset, end) => options.open(offset, stop.signal, end),
      ...windowsFor(options.windowBytes ?? downloadWindowBytes(), total),
      onReceived: (done) => {
        if (posts(done, total)) post({ type: 'received', done, total });
      },
      retryDelaysMs: job.retryDelaysMs,
      signal: stop.signal,
    });
    post({ type: 'opened' });
    const sizes = openSizes(options);
    const count = chunkCount(job.size, job.chunkSize);
    for (let index = 0; index < count; index++) {
      await taken(index - CHUNKS_AHEAD);
      const isLast = index === count - 1;
      const length = plainChunkLength(job.size, index, job.chunkSize) + CHUNK_OVERHEAD;
      const { chunk } = await receiveVerifiedChunk(
        input,
        store,
        job.fileKey,
        { index, isLast, length },
        sizes,
      );
      chunks.set(index, chunk);
      // Bytes after the last chunk mean the object was extended: fail before the last chunk is handed on.
      if (isLast) await input.expectEnd();
      if (stop.signal.aborted) throw aborted();
      post({ type: 'chunk', index, data: chunk.data });
      // The chunk's reads and GMAC calls left their browser objects behind.
      askForCollection();
    }
    // The files stay until the service worker has read them.
    await taken(count - 1);
  } catch (error) {
    // Always a last word, so the service worker never waits for a chunk that will not come.
    post({ type: 'failed', failure: describeFailure(stop.signal.aborted ? aborted() : error) });
    // A chunk already posted may still be read there: its file stays until the service worker ended
    // the download (it says `cancel` once it meets the failure), or a minute at most.
    if (!stop.signal.aborted && chunks.size > 0) await stoppedOrAfter(stop.signal, POSTED_CHUNKS_GRACE_MS);
  } finally {
    options.signal.removeEventListener('abort', onPageAbort);
    port.onmessage = null;
    port.close();
    await input?.cancel();
    for (const chunk of chunks.values()) chunk.remove();
    await store.clear();
  }
}

/** The feed's service-worker end on `port`. */
export function chunkFeed(port: MessagePort): ChunkFeed {
  const chunks = new Map<number, Blob>();
  let state: 'waiting' | 'opened' | 'declined' | 'ended' = 'waiting';
  let failure: Error | null = null;
  let onReceived: (done: number, total: number) => void = () => undefined;
  const waiters = new Set<() => void>();
  const wakeAll = (): void => {
    for (const wake of [...waiters]) wake();
  };
  const until = async <T>(ready: () => T | undefined): Promise<T> => {
    for (;;) {
      const value = ready();
      if (value !== undefined) return value;
      if (failure !== null) throw failure;
      if (state === 'ended') throw new TransferAbortedError(downloadMessages.aborted);
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          waiters.delete(wake);
          resolve();
        };
        waiters.add(wake);
      });
    }
  };
  port.onmessage = (event: MessageEvent<FeedMessage>) => {
    const message = event.data;
    switch (message.type) {
      case 'declined':
        state = 'declined';
        port.close();
        break;
      case 'opened':
        if (state === 'waiting') state = 'opened';
        break;
      case 'received':
        onReceived(message.done, message.total);
        break;
      case 'chunk':
        chunks.set(message.index, message.data);
        break;
      case 'failed':
        failure = errorFromFailure(message.failure);
        break;
    }
    wakeAll();
  };
  return {
    async opened(listener) {
      onReceived = listener;
      return until(() => (state === 'opened' ? true : state === 'declined' ? false : undefined));
    },
    async chunk(index) {
      const data = await until(() => chunks.get(index));
      chunks.delete(index);
      return data;
    },
    taken(index) {
      if (state === 'opened') port.postMessage({ type: 'taken', index } satisfies FeedReply);
    },
    cancel() {
      if (state === 'opened' || state === 'waiting') {
        port.postMessage({ type: 'cancel' } satisfies FeedReply);
        port.close();
      }
      if (state !== 'declined') state = 'ended';
      wakeAll();
    },
  };
}
