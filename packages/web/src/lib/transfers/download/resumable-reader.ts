import { downloadMessages } from '@coffer/contracts';
import { ChunkStoreFailedError, type ChunkTarget } from './chunk-store';
import { ExactReader, TruncatedStreamError } from './exact-reader';
import { TransferError, isRetryableTransferError, waitBeforeRetry } from '../transfer-errors';

/** An answer to a download request: its body, and where in the object it starts. */
export interface OpenedStream {
  readonly body: ReadableStream<Uint8Array>;
  /** The object offset of the body's first byte (0, or the start of a `Range` answer). */
  readonly offset: number;
}

/**
 * The window a chunk received in slices is asked for in (`ResumableReaderOptions.windows`) where the
 * browser receives ahead of its reader: at most that much. 16 MiB: six requests per 95 MiB chunk, each
 * a few milliseconds of the server's time.
 */
export const DOWNLOAD_WINDOW_BYTES = 16 * 1024 * 1024;

/**
 * The window for this browser, or undefined: one answer per download. Firefox (Gecko) goes on
 * receiving an answer its reader does not read, and keeps every byte (+752 MiB for a 1 GiB download);
 * Chromium holds its network back (a ~2 MiB data pipe) but pays for each new answer: a scratch worker
 * reading 1 GiB from a local server in 16 MiB windows touched 750 k fresh pages against 222 k for one
 * answer, at half the speed, and the app's download +270 MiB against +105 (docs/transfers.md, "A
 * download asks for what it can take"). Safari is not measured: one answer, as before.
 */
export function downloadWindowBytes(
  userAgent: string | undefined = (globalThis as { navigator?: Navigator }).navigator?.userAgent,
): number | undefined {
  return userAgent !== undefined && /\bGecko\/\d/.test(userAgent) && /\bFirefox\//.test(userAgent)
    ? DOWNLOAD_WINDOW_BYTES
    : undefined;
}

/** The reader's `windows` option for `bytes` (none where undefined) over an object of `objectSize` bytes. */
export function windowsFor(
  bytes: number | undefined,
  objectSize: number,
): { windows?: { bytes: number; objectSize: number } } {
  return bytes === undefined ? {} : { windows: { bytes, objectSize } };
}

export interface ResumableReaderOptions {
  /**
   * Requests the object from `offset` on (a `Range` request when `offset > 0`), up to and including
   * byte `end` where given. Throws a {@link TransferError} for an answer that is not the object
   * (e.g. 404, 500).
   */
  readonly open: (offset: number, end?: number) => Promise<OpenedStream>;
  /**
   * Where given, {@link ResumableReader.readChunk} reads a chunk in windows of about `bytes` (whole
   * slices), each from an answer of its own: a `Range` request with an end, so no browser receives
   * more than a window ahead of what is read. Not every browser holds the network back for a reader
   * that waits: Firefox's parent process goes on receiving an answer nobody reads and keeps every
   * byte (a 1 GiB download saved more slowly than it arrived: +750 MiB there; docs/transfers.md,
   * "A download asks for what it can take"). The request from byte 0 (the one the server counts) is
   * open-ended and dropped after its first window, where the chunk is larger; the object's last
   * window (`objectSize`) is open-ended too, so `expectEnd` still sees bytes that follow it.
   */
  readonly windows?: { readonly bytes: number; readonly objectSize: number };
  /** Called with the object bytes received so far (counting from 0 across reconnections). */
  readonly onReceived: (received: number) => void;
  /** The waits before each new attempt after a broken connection; their count is the retry budget. */
  readonly retryDelaysMs: readonly number[];
  readonly signal: AbortSignal;
}

/**
 * Reads an object's encrypted chunks in order, surviving a connection that breaks: the chunk being
 * read is dropped, and the object is requested again from that chunk's first byte. Only whole
 * chunks are ever handed on, so everything before the break was already received in full (and is
 * verified by its own tag when it is decrypted); nothing is trusted from the broken answer.
 *
 * A break is a network error, a 5xx or 429 answer, or a body that ends early (a dropped
 * connection can look like a clean end). The retry budget is per chunk: a connection that keeps
 * breaking at the same place fails the download with the last error (an early end then is an
 * integrity failure, as before).
 */
export class ResumableReader {
  readonly #options: ResumableReaderOptions;
  #reader: ExactReader | null = null;
  /** The object offset of the next chunk's first byte. */
  #position = 0;

  private constructor(options: ResumableReaderOptions) {
    this.#options = options;
  }

  /** Opens the object from its start (with the same retries as a break later on). */
  static async open(options: ResumableReaderOptions): Promise<ResumableReader> {
    const reader = new ResumableReader(options);
    await reader.#withRetries(async () => {
      await reader.#ensureOpen();
    });
    return reader;
  }

  /**
   * The next `length` bytes of the object (one whole encrypted chunk), in `into` where it fits
   * (see {@link ExactReader.read}).
   */
  async read(length: number, into: ArrayBuffer | null = null): Promise<ArrayBuffer> {
    let reuse = into;
    const buffer = await this.#withRetries(async () => {
      const reader = await this.#ensureOpen();
      // A read that broke detached the buffer it was given: the retry reads into a new one.
      const target = reuse !== null && reuse.byteLength === length ? reuse : null;
      reuse = null;
      return reader.read(length, target);
    });
    this.#position += length;
    return buffer;
  }

  /**
   * The next `length` bytes of the object (one whole encrypted chunk), read in slices into a chunk
   * of `store` (a file, or a Blob; with a verifier beside it, `download-run.ts`). A break abandons
   * what was stored of it and reads it again; so does a store that failed to write (it is Blobs from
   * then on), without counting as a retry.
   */
  async readChunk<Stored>(length: number, sliceBytes: number, store: ChunkTarget<Stored>): Promise<Stored> {
    // In windows only where the chunk is larger than one; otherwise as before: one answer goes on.
    const { windows } = this.#options;
    const window =
      windows === undefined ? length : Math.max(1, Math.floor(windows.bytes / sliceBytes)) * sliceBytes;
    const windowed = windows !== undefined && window < length;
    const chunk = await this.#withRetries(async () => {
      for (;;) {
        await this.#ensureOpen(this.#position, windowed ? window : undefined);
        const writer = await store.begin().catch(async (error: unknown) => {
          if (error instanceof ChunkStoreFailedError) return store.begin();
          throw error;
        });
        try {
          for (let done = 0; done < length;) {
            const at = this.#position + done;
            const span = Math.min(length - done, window);
            const reader = await this.#ensureOpen(at, windowed ? span : undefined);
            await reader.readSlices(span, sliceBytes, (slice) => writer.append(slice));
            done += span;
            // A window's answer goes once read (an open-ended one from byte 0 too), but the object's
            // last, which `expectEnd` reads on.
            if (windowed && at + span < windows.objectSize) await this.cancel();
          }
          return await writer.finish();
        } catch (error) {
          await writer.abandon();
          if (!(error instanceof ChunkStoreFailedError)) throw error;
          // The bytes of this chunk already read are gone: the chunk is asked for again.
          await this.cancel();
        }
      }
    });
    this.#position += length;
    return chunk;
  }

  /** @throws {IntegrityError} bytes follow the last chunk (the object was extended). */
  async expectEnd(): Promise<void> {
    await (await this.#ensureOpen()).expectEnd();
  }

  /** Stops reading. Never throws. */
  async cancel(): Promise<void> {
    await this.#reader?.cancel();
    this.#reader = null;
  }

  async #withRetries<T>(step: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await step();
      } catch (error) {
        const { signal, retryDelaysMs } = this.#options;
        const delay = retryDelaysMs[attempt];
        if (signal.aborted || delay === undefined || !isConnectionBreak(error)) throw error;
        await this.cancel();
        await waitBeforeRetry(delay, signal, downloadMessages.aborted);
      }
    }
  }

  /**
   * The open answer, or a new one from `position` (by default the next chunk's first byte). With
   * `span` (a window of a chunk read in windows), a new answer from a later byte than 0 is asked for
   * those bytes only, unless they are the object's last.
   */
  async #ensureOpen(position = this.#position, span?: number): Promise<ExactReader> {
    if (this.#reader !== null) return this.#reader;
    const { windows } = this.#options;
    const bounded =
      windows !== undefined && span !== undefined && position > 0 && position + span < windows.objectSize;
    const opened = await this.#options.open(position, bounded ? position + span - 1 : undefined);
    if (opened.offset !== position) {
      await opened.body.cancel().catch(() => undefined);
      // The server ignored the range: resuming is not possible, and this is not a break to retry.
      throw new TransferError('HTTP', downloadMessages.defaultError);
    }
    this.#reader = new ExactReader(opened.body, (received) => {
      this.#options.onReceived(position + received);
    });
    return this.#reader;
  }
}

/** A dropped connection or a server-side hiccup: worth asking again from the chunk's start. */
export function isConnectionBreak(error: unknown): boolean {
  if (error instanceof TruncatedStreamError) return true;
  // fetch and stream reads reject with a TypeError when the network fails.
  return error instanceof TypeError || isRetryableTransferError(error);
}
