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

export interface ResumableReaderOptions {
  /**
   * Requests the object from `offset` on (a `Range` request when `offset > 0`). Throws a
   * {@link TransferError} for an answer that is not the object (e.g. 404, 500).
   */
  readonly open: (offset: number) => Promise<OpenedStream>;
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
    const chunk = await this.#withRetries(async () => {
      for (;;) {
        const reader = await this.#ensureOpen();
        const writer = await store.begin().catch(async (error: unknown) => {
          if (error instanceof ChunkStoreFailedError) return store.begin();
          throw error;
        });
        try {
          await reader.readSlices(length, sliceBytes, (slice) => writer.append(slice));
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

  /**
   * Lets go of the connection while the reader's consumer is busy (it waits for the previous chunk
   * to be saved); the next read asks for the rest from the next chunk's first byte (`Range`), so no
   * byte is lost or counted twice. Nobody reads an answer while it waits, and not every browser holds
   * the network back for that: Firefox's parent process went on receiving and kept every byte in
   * memory (a 1 GiB download saved slower than it arrived: +750 MiB there; docs/transfers.md,
   * "A paused download holds no connection"). Never throws.
   */
  async pause(): Promise<void> {
    await this.cancel();
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

  async #ensureOpen(): Promise<ExactReader> {
    if (this.#reader !== null) return this.#reader;
    const position = this.#position;
    const opened = await this.#options.open(position);
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
