import { decryptingChunkText, downloadMessages } from '@coffer/contracts';
import {
  CHUNK_OVERHEAD,
  IV_LENGTH,
  IntegrityError,
  chunkAad,
  chunkCount,
  createVerifiedChunkOpener,
  encryptedSize,
  plainChunkLength,
} from '@coffer/crypto';
import { askForCollection, releaseBuffer } from '../buffers';
import { createChunkPhase, type ChunkPhase } from '../chunk-phase';
import { downloadFailure } from '../download-failure';
import type { SaveSink } from '../save/save-sink';
import { TransferAbortedError } from '../transfer-errors';
import { decryptedWhole, decryptStored } from './decrypt';
import { normalizeDownloadError, type ContentLocation } from './fetch';
import { blobChunkStore, type ChunkStore, type StoredChunk } from './chunk-store';
import { ResumableReader, downloadWindowBytes, windowsFor, type OpenedStream } from './resumable-reader';
import { saveChunk } from './save';
import { openSizes, receiveVerifiedChunk, storedCiphertext } from './verify';

/**
 * The download pipeline proper, after the metadata and the file key, from top to bottom
 * (docs/transfers.md, "Pipeline"): fetch the ciphertext a whole encrypted chunk at a time (`fetch.ts`,
 * `resumable-reader.ts`: `Range` resume), verify each chunk (`verify.ts`), decrypt it (`decrypt.ts`)
 * and save its plaintext (`save.ts`, the sinks of `save/`). In browsers it runs in the download service worker (`src/sw/download-service-worker.ts`)
 * or, for the File System Access and Blob paths, in the crypto worker (`crypto-worker/download-job.ts`),
 * so the page's main thread only shows progress; tests run it on the current thread. It imports nothing that
 * needs a page (no DOM, no React): the worker bundles it.
 */

/** Where the pipeline reports progress: the spec's texts and the received byte count. */
export interface PipelineProgress {
  text(text: string): void;
  fraction(done: number, total: number): void;
}

/** What a download needs once the page has checked the metadata and unwrapped the file key. */
export interface DownloadJob extends ContentLocation {
  readonly fileKey: CryptoKey;
  /** Plaintext size (bytes). */
  readonly size: number;
  readonly chunkSize: number;
  readonly retryDelaysMs: readonly number[];
}

/** What a download running elsewhere (the crypto worker) asks of the page. */
export interface DownloadHost {
  /** The API's auth headers, fresh for each request. */
  headers(): Promise<Record<string, string>>;
  /** The save method's sink (may be handed off to the worker, see `SaveSink.handOff`). */
  openSink(): Promise<SaveSink>;
  readonly progress: PipelineProgress;
  readonly signal: AbortSignal;
}

export interface DownloadPipelineOptions {
  readonly job: DownloadJob;
  /**
   * Requests the object from `offset` on, up to byte `end` where given; throws a
   * {@link TransferError} for a non-ok answer.
   */
  readonly open: (offset: number, signal: AbortSignal, end?: number) => Promise<OpenedStream>;
  /** Decrypts one chunk; the buffer is the caller's again as soon as this returns (copied or moved). */
  readonly decrypt: (
    key: CryptoKey,
    index: number,
    isLast: boolean,
    encrypted: ArrayBuffer,
  ) => Promise<Uint8Array<ArrayBuffer>>;
  /**
   * True when `decrypt` copies its input before it returns (WebCrypto on this thread): the read
   * buffer is then reused for the next chunk instead of allocating a fresh 95 MiB one.
   */
  readonly decryptCopiesInput?: boolean;
  /**
   * Where given (the workers, where the streaming self-test passed), each chunk is received into its
   * store (`chunkStore`: a file, or a Blob) a slice at a time and verified as it arrives
   * (`ReceivedChunkVerifier`), then read back once and decrypted slice by slice (`decryptStored`),
   * instead of `decrypt`. Nothing of a chunk reaches the sink before its whole tag verified, and no
   * chunk-sized buffer exists. `sliceBytes`: the receive and read-back buffers (default 1 MiB);
   * `callBytes`: bytes per WebCrypto call (default 256 KiB); tests use small ones.
   */
  readonly inSlices?: {
    readonly sliceBytes?: number;
    readonly callBytes?: number;
    /** The window each chunk is asked for in (`ResumableReaderOptions.windows`; default `downloadWindowBytes()`: 16 MiB in Firefox, none elsewhere). */
    readonly windowBytes?: number;
  };
  /**
   * Where a chunk is kept between its verify and decrypt passes (`inSlices` only): files of the
   * origin private file system (`createChunkFiles`), or Blobs (the default, `blobChunkStore`).
   */
  readonly chunkStore?: ChunkStore;
  /**
   * Where given (`inSlices` only), the chunks come verified from the crypto worker (`ChunkFeed`)
   * unless it declines; `open` is then used only where it declined.
   */
  readonly feed?: ChunkFeed;
  /** Opened after the first answer arrived, so a failed request never starts a browser download. */
  readonly openSink: () => Promise<SaveSink>;
  readonly progress: PipelineProgress;
  readonly signal: AbortSignal;
}

/**
 * Runs the pipeline to the end: the sink is closed on success and aborted on any failure (no
 * complete-looking file). Chunk i + 1 downloads while chunk i decrypts and is written: at most
 * two chunks in flight, whatever the file size.
 * @throws {TransferError} (incl. {@link TransferAbortedError}) or `IntegrityError`.
 */
export async function runDownloadPipeline(options: DownloadPipelineOptions): Promise<void> {
  const internal = downloadFailure(options.signal);
  let input: ChunkSource | null = null;
  let sink: SaveSink | null = null;
  let sinkOpening: Promise<SaveSink> | null = null;
  try {
    input = await guard(openSource(options, internal.signal), internal.signal);
    sinkOpening = options.openSink();
    sink = await guard(sinkOpening, internal.signal);
    await streamChunks(options, input, sink, internal.fail, internal.signal);
    await guard(sink.close(), internal.signal);
  } catch (error) {
    const cause = normalizeDownloadError(
      options.signal.aborted ? onlyAbort(internal.failure) : (internal.failure ?? error),
    );
    internal.abort();
    if (sink === null && sinkOpening !== null) sink = await sinkOpening.catch(() => null);
    await sink?.abort(cause);
    await input?.cancel();
    throw cause;
  } finally {
    internal.dispose();
  }
}

function onlyAbort(failure: unknown): unknown {
  return failure instanceof TransferAbortedError
    ? failure
    : new TransferAbortedError(downloadMessages.aborted);
}

/**
 * The chunks, in order, through fetch (`input`), verify and decrypt (`options.inSlices`, or a
 * whole-chunk `decrypt`) and save. Chunk i + 1 is fetched while chunk i is opened and saved, and no
 * further: at most two chunks in flight (as Blobs the browser holds, or chunk buffers).
 */
async function streamChunks(
  options: DownloadPipelineOptions,
  input: ChunkSource,
  sink: SaveSink,
  fail: (error: unknown) => void,
  signal: AbortSignal,
): Promise<void> {
  try {
    await chunksInOrder(options, input, sink, fail, signal);
  } finally {
    await input.end();
  }
}

/** The loop of {@link streamChunks}. */
async function chunksInOrder(
  options: DownloadPipelineOptions,
  route: ChunkSource,
  sink: SaveSink,
  fail: (error: unknown) => void,
  signal: AbortSignal,
): Promise<void> {
  const { job } = options;
  const count = chunkCount(job.size, job.chunkSize);
  const phase = createDownloadPhase(options.progress, count);
  let saving: Promise<void> | null = null;
  for (let index = 0; index < count; index++) {
    const isLast = index === count - 1;
    phase.bytesMoving(true);
    const open = await route.fetch(
      index,
      isLast,
      plainChunkLength(job.size, index, job.chunkSize) + CHUNK_OVERHEAD,
    );
    // Bytes after the last chunk mean the object was extended: fail before saving the last chunk.
    if (isLast) await route.expectEnd();
    phase.bytesMoving(false);
    // The previous chunk must be saved before this one is opened: order, and two chunks in flight.
    if (saving !== null) await guard(saving, signal);
    phase.waitingFor(index);
    // The last chunk's ~1,500 WebCrypto calls and reads left their browser objects behind.
    askForCollection();
    saving = saveChunk(open(), sink, phase, signal);
    saving.catch(fail);
  }
  if (saving !== null) await guard(saving, signal);
}

/**
 * How a chunk is fetched and opened: `fetch` reads it whole and answers what opens it (the plaintext
 * slices, once it verified); `end` runs once the download ended.
 */
interface ChunkRoute {
  fetch(
    index: number,
    isLast: boolean,
    length: number,
  ): Promise<() => AsyncIterable<Uint8Array<ArrayBuffer>>>;
  /** Once the download ended, whatever way (saved, failed, cancelled). Never throws. */
  end(): Promise<void>;
}

/** The chunks' source: the network read here (`ResumableReader`), or the crypto worker's feed. */
interface ChunkSource extends ChunkRoute {
  /** @throws {IntegrityError} bytes follow the last chunk (the object was extended). */
  expectEnd(): Promise<void>;
  /** Stops reading. Never throws. */
  cancel(): Promise<void>;
}

/** The feed where there is one and the crypto worker took the download, else the network from here. */
async function openSource(options: DownloadPipelineOptions, signal: AbortSignal): Promise<ChunkSource> {
  const { job, progress, feed } = options;
  const total = encryptedSize(job.size, job.chunkSize);
  if (feed !== undefined && options.inSlices === undefined) {
    // This thread cannot decrypt in slices (its self-test failed): it does the whole download.
    feed.cancel();
  } else if (feed !== undefined) {
    // A cancel (in the app, in the browser's download list) or a failure here ends the feed: no wait
    // for a chunk outlives the download, and the crypto worker stops.
    signal.addEventListener(
      'abort',
      () => {
        feed.cancel();
      },
      { once: true },
    );
    if (signal.aborted) feed.cancel();
    const fed = await feed.opened((done) => {
      progress.fraction(done, total);
    });
    if (fed) return fedSource(options, feed);
  }
  const input = await ResumableReader.open({
    open: (offset, end) => options.open(offset, signal, end),
    // Chunks received in slices are asked for in windows where the browser needs them (`ResumableReader`).
    ...(options.inSlices === undefined
      ? {}
      : windowsFor(options.inSlices.windowBytes ?? downloadWindowBytes(), total)),
    onReceived: (received) => {
      progress.fraction(received, total);
    },
    retryDelaysMs: job.retryDelaysMs,
    signal,
  });
  return {
    ...chunkRoute(options, input),
    expectEnd: () => input.expectEnd(),
    cancel: () => input.cancel(),
  };
}

/**
 * Chunks the crypto worker fetched and verified (it also checked that nothing follows the last one):
 * each read back from its file here and decrypted slice by slice; `taken` once its plaintext is saved.
 */
function fedSource(options: DownloadPipelineOptions, feed: ChunkFeed): ChunkSource {
  const { job } = options;
  const { sliceBytes, callBytes } = openSizes(options.inSlices);
  const stop = (): Promise<void> => {
    feed.cancel();
    return Promise.resolve();
  };
  return {
    fetch: async (index, isLast, length) => {
      const data = await feed.chunk(index);
      if (data.size !== length) throw new IntegrityError();
      const iv = new Uint8Array(await data.slice(0, IV_LENGTH).arrayBuffer());
      const opener = await createVerifiedChunkOpener(
        job.fileKey,
        iv,
        chunkAad(index, isLast),
        length - CHUNK_OVERHEAD,
      );
      const chunk: StoredChunk = {
        data,
        remove: () => {
          feed.taken(index);
        },
      };
      return () => removedAfter(decryptStored(opener, storedCiphertext(data), sliceBytes, callBytes), chunk);
    },
    expectEnd: () => Promise.resolve(),
    end: stop,
    cancel: stop,
  };
}

/** The chunk's plaintext slices; its stored ciphertext is removed once they are all taken (or given up). */
async function* removedAfter(
  slices: AsyncIterable<Uint8Array<ArrayBuffer>>,
  chunk: StoredChunk,
): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  try {
    yield* slices;
  } finally {
    chunk.remove();
  }
}

function chunkRoute(options: DownloadPipelineOptions, input: ResumableReader): ChunkRoute {
  const { job, inSlices } = options;
  if (inSlices !== undefined) {
    // Received into a file (or a Blob) a slice at a time (no chunk-sized buffer) and verified as it
    // arrives, then read back once to decrypt; the file is removed once the chunk is saved, and every
    // file when the download ends.
    const sizes = openSizes(inSlices);
    const store = options.chunkStore ?? blobChunkStore();
    return {
      fetch: async (index, isLast, length) => {
        const { chunk, opener } = await receiveVerifiedChunk(
          input,
          store,
          job.fileKey,
          { index, isLast, length },
          sizes,
        );
        const ciphertext = storedCiphertext(chunk.data);
        return () =>
          removedAfter(decryptStored(opener, ciphertext, sizes.sliceBytes, sizes.callBytes), chunk);
      },
      end: () => store.clear(),
    };
  }
  // One read buffer for the whole download where decrypt copies its input (see `decryptCopiesInput`):
  // a fresh 95 MiB buffer costs ~25,000 page faults before the first byte lands in it.
  let spare: ArrayBuffer | null = null;
  return {
    fetch: async (index, isLast, length) => {
      const encrypted = await input.read(length, spare);
      return () => {
        const decrypting = options.decrypt(job.fileKey, index, isLast, encrypted);
        spare = options.decryptCopiesInput === true ? encrypted : null;
        return decryptedWhole(decrypting);
      };
    },
    // The read buffer goes with the download, not at a later collection.
    end: () => {
      if (spare !== null) releaseBuffer(spare);
      return Promise.resolve();
    },
  };
}

/**
 * Where the download service worker takes chunks that the crypto worker fetched, verified and keeps
 * in files (`crypto-worker/download-feed.ts`; docs/transfers.md, "Two threads").
 */
export interface ChunkFeed {
  /**
   * Resolves once the first answer arrived there: true, or false where the crypto worker declined
   * (the service worker then fetches itself). `onReceived` hears the bytes received from then on.
   * @throws what the fetch stage threw (a 404, a network failure) as the page shows it.
   */
  opened(onReceived: (done: number, total: number) => void): Promise<boolean>;
  /** Chunk `index` (`iv || ciphertext || tag`), verified. @throws what the fetch or verify stage threw. */
  chunk(index: number): Promise<Blob>;
  /** Chunk `index` is saved: the crypto worker removes its file and goes on. */
  taken(index: number): void;
  /** The download ended here: the crypto worker stops and removes its files. Safe to call twice. */
  cancel(): void;
}

/** Awaits `promise`, but gives up as soon as `signal` aborts (a stalled write must not hang an abort). */
export function guard<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new TransferAbortedError(downloadMessages.aborted));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      reject(new TransferAbortedError(downloadMessages.aborted));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** 'Downloading and decrypting file' while bytes arrive, else 'Decrypting chunk i of n...'. */
function createDownloadPhase(progress: PipelineProgress, count: number): ChunkPhase {
  const chunkText = (position: number): string => decryptingChunkText(position, count);
  return createChunkPhase(progress, downloadMessages.downloadingAndDecrypting, chunkText);
}
