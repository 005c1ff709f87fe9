import { API_PREFIX, decryptingChunkText, downloadMessages } from '@coffer/contracts';
import {
  CHUNK_OVERHEAD,
  chunkCount,
  encryptedSize,
  FileKeyUnwrapError,
  plainChunkLength,
  unwrapFileKey,
} from '@coffer/crypto';
import { ApiRequestError } from '../api/http';
import type { ApiClient } from '../api/http';
import type { ChunkCipher } from '../crypto-worker';
import {
  DOWNLOAD_NETWORK_ERROR_TEXT,
  FILE_KEY_UNDECRYPTABLE_TEXT,
  downloadHttpErrorMessage,
  fromApiRequestError,
} from './error-mapping';
import {
  fetchRawDownloadMetadata,
  toDownloadMetadata,
  type DownloadMetadata,
  type DownloadSource,
  type RawDownloadMetadata,
} from './download-metadata';
import { ResumableReader, type OpenedStream } from './resumable-reader';
import { transferFormat, type TestFormatOverrides } from './format-overrides';
import { createProgressReporter, type ProgressReporter } from './progress';
import { openSaveSink } from './save/open-save-sink';
import { resolveSaveMethod, type SaveCapabilities } from './save/save-method';
import type { SaveMethod, SaveSink, SaveSinkOpener } from './save/save-sink';
import { TransferAbortedError, TransferError, isAbortError } from './transfer-errors';
import type { ProgressListener } from './transfer-types';

/** The file to download, as the list shows it (name and size are known before any call). */
export interface DownloadTarget {
  readonly fileId: string;
  /** `own`: My Files (owner's key copy); `shared`: Shared With Me / `/share/{id}` (recipient's copy). */
  readonly source: DownloadSource;
  /** Suggested name in the save dialog, which opens before the metadata arrives. */
  readonly fileName: string;
  /** Plaintext size: picks the save method before the metadata arrives. */
  readonly size: number;
  /**
   * The metadata answer a check already read and accepted (a shared file's signatures, issue 13):
   * the download uses exactly it and does not ask the server again, so a server cannot answer the
   * check with one file key and the download with another. Its `source` must be the target's.
   */
  readonly checked?: RawDownloadMetadata;
  /**
   * Checks the metadata answer the download is about to use (and fetched itself), before any key
   * is unwrapped or content fetched: e.g. my own file's manifest. Throwing stops the download.
   */
  readonly verify?: (raw: RawDownloadMetadata) => Promise<void>;
}

export interface DownloadOptions {
  readonly api: ApiClient;
  readonly target: DownloadTarget;
  /** The user's unlocked RSA private key; missing means encryption is locked. */
  readonly privateKey: CryptoKey | null | undefined;
  readonly cipher: ChunkCipher;
  readonly signal: AbortSignal;
  readonly onProgress: ProgressListener;
  /** Default `auto`. */
  readonly saveMethod?: SaveMethod;
  readonly openSink?: SaveSinkOpener;
  readonly saveCapabilities?: SaveCapabilities;
  readonly fetchImpl?: typeof fetch;
  readonly apiBaseUrl?: string;
  /** The waits before reconnecting after a broken download (default {@link DEFAULT_RESUME_DELAYS_MS}). */
  readonly retryDelaysMs?: readonly number[];
  /** Tests only. */
  readonly testFormat?: TestFormatOverrides;
}

/** A broken connection is picked up again up to three times per chunk, after 1, 3 and 6 seconds. */
export const DEFAULT_RESUME_DELAYS_MS: readonly number[] = [1000, 3000, 6000];

/**
 * Downloads, decrypts and saves one file: metadata → unwrap the file key with the private key →
 * stream the ciphertext → cut it into encrypted chunks → decrypt each in the worker → write its
 * plaintext only once it verified. Chunk i + 1 downloads while chunk i decrypts and is written:
 * at most two chunks in flight, whatever the file size. A connection that breaks is picked up
 * again with a `Range` request from the first byte of the chunk that was being read.
 *
 * With `fs-access` the save dialog opens synchronously, inside the click's user activation.
 * @throws {TransferAbortedError} 'Download was aborted' (signal, dialog closed, download cancelled
 *   in the browser).
 * @throws {IntegrityError} a chunk failed authentication, or the stream was truncated or extended;
 *   the sink is aborted, so no complete-looking file is left.
 * @throws {TransferError} with the user-facing text of spec section 8.
 */
export async function downloadFile(options: DownloadOptions): Promise<void> {
  const { target, signal } = options;
  const reporter = createProgressReporter(options.onProgress, downloadMessages.preparing);
  const privateKey = options.privateKey;
  if (privateKey === null || privateKey === undefined) {
    throw new TransferError('PRECONDITION', downloadMessages.notUnlocked);
  }
  const method = resolveSaveMethod(options.saveMethod ?? 'auto', target.size, options.saveCapabilities);
  const openSink = options.openSink ?? openSaveSink;
  const { chunkSize } = transferFormat(options.testFormat);

  // Failures of the pipeline's own parts abort everything else at once (e.g. the network read).
  const internal = new AbortController();
  let failure: unknown = null;
  const fail = (error: unknown): void => {
    failure ??= error;
    internal.abort();
  };
  const onOuterAbort = (): void => {
    fail(new TransferAbortedError(downloadMessages.aborted));
  };
  signal.addEventListener('abort', onOuterAbort, { once: true });

  // The dialog must open before the first await, while the click still counts as user activation.
  let sinkOpening: Promise<SaveSink> | null =
    method === 'fs-access'
      ? openSink(method, {
          fileName: target.fileName,
          size: target.size,
          contentType: 'application/octet-stream',
        })
      : null;
  // Closing the dialog cancels at once, even while the metadata is still loading.
  sinkOpening?.catch(fail);
  let sink: SaveSink | null = null;
  let input: ResumableReader | null = null;

  try {
    if (signal.aborted) throw new TransferAbortedError(downloadMessages.aborted);
    if (target.checked !== undefined && target.checked.source !== target.source) {
      throw new TransferError('PRECONDITION', downloadMessages.defaultError);
    }
    const raw =
      target.checked ??
      (await guard(
        fetchRawDownloadMetadata(options.api, target.source, target.fileId, internal.signal),
        internal.signal,
      ));
    if (target.verify !== undefined) await guard(target.verify(raw), internal.signal);
    const metadata = toDownloadMetadata(raw, target.fileId, chunkSize);
    const fileKey = await guard(unwrap(metadata.encryptedFileKey, privateKey), internal.signal);
    const total = encryptedSize(metadata.size, chunkSize);
    input = await ResumableReader.open({
      open: (offset) => fetchContent(options, metadata, offset, internal.signal),
      onReceived: (received) => {
        reporter.fraction(received, total);
      },
      retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RESUME_DELAYS_MS,
      signal: internal.signal,
    });
    sinkOpening ??= openSink(method, {
      fileName: metadata.name,
      size: metadata.size,
      contentType: metadata.contentType,
    });
    sink = await guard(sinkOpening, internal.signal);
    sinkOpening = null;
    await streamChunks({ ...options, reporter, input, sink, fileKey, metadata, chunkSize, fail, internal });
    await guard(sink.close(), internal.signal);
    reporter.finish(downloadMessages.complete);
  } catch (error) {
    const cause = failure ?? error;
    const final = signal.aborted
      ? new TransferAbortedError(downloadMessages.aborted, { cause })
      : toDownloadError(cause);
    internal.abort();
    if (sink === null && sinkOpening !== null) sink = await sinkOpening.catch(() => null);
    await sink?.abort(final);
    await input?.cancel();
    throw final;
  } finally {
    signal.removeEventListener('abort', onOuterAbort);
  }
}

interface StreamContext {
  readonly cipher: ChunkCipher;
  readonly reporter: ProgressReporter;
  readonly input: ResumableReader;
  readonly sink: SaveSink;
  readonly fileKey: CryptoKey;
  readonly metadata: DownloadMetadata;
  readonly chunkSize: number;
  readonly fail: (error: unknown) => void;
  readonly internal: AbortController;
}

async function streamChunks(context: StreamContext): Promise<void> {
  const { metadata, chunkSize, reporter, internal } = context;
  const count = chunkCount(metadata.size, chunkSize);
  const phase = createDownloadPhase(reporter, count);
  const { input } = context;

  let writing: Promise<void> | null = null;
  for (let index = 0; index < count; index++) {
    const isLast = index === count - 1;
    phase.downloading(true);
    const encrypted = await input.read(plainChunkLength(metadata.size, index, chunkSize) + CHUNK_OVERHEAD);
    // Bytes after the last chunk mean the object was extended: fail before writing the last chunk.
    if (isLast) await input.expectEnd();
    phase.downloading(false);
    // The previous chunk must be written before this one starts: order, and two chunks in flight.
    if (writing !== null) await guard(writing, internal.signal);
    writing = decryptAndWrite(context, phase, index, isLast, encrypted);
    writing.catch(context.fail);
  }
  if (writing !== null) await guard(writing, internal.signal);
}

async function decryptAndWrite(
  context: StreamContext,
  phase: DownloadPhase,
  index: number,
  isLast: boolean,
  encrypted: ArrayBuffer,
): Promise<void> {
  phase.decrypting(index);
  const plaintext = await context.cipher.decrypt(context.fileKey, index, isLast, encrypted);
  phase.decrypting(null);
  if (context.internal.signal.aborted) return;
  await context.sink.write(plaintext);
}

async function unwrap(encryptedFileKey: string, privateKey: CryptoKey): Promise<CryptoKey> {
  try {
    return await unwrapFileKey(encryptedFileKey, privateKey);
  } catch (error) {
    if (error instanceof FileKeyUnwrapError) {
      throw new TransferError('FILE_KEY', FILE_KEY_UNDECRYPTABLE_TEXT, { cause: error });
    }
    throw error;
  }
}

/**
 * GET …/download with the bearer header, from `offset` on (a `Range` request, answered 206) when
 * resuming; a non-ok answer becomes the spec's text.
 */
async function fetchContent(
  options: DownloadOptions,
  metadata: DownloadMetadata,
  offset: number,
  signal: AbortSignal,
): Promise<OpenedStream> {
  const doFetch = options.fetchImpl ?? ((input: string, init?: RequestInit) => fetch(input, init));
  const headers: Record<string, string> = { ...(await options.api.authHeaders()) };
  if (offset > 0) headers.Range = `bytes=${offset}-`;
  let response: Response;
  try {
    response = await doFetch(`${options.apiBaseUrl ?? API_PREFIX}${metadata.downloadPath}`, {
      headers,
      signal,
    });
  } catch (error) {
    throw toDownloadError(error);
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    if (response.status === 401) options.api.reportUnauthorized();
    throw new TransferError('HTTP', downloadHttpErrorMessage(response.status, response.statusText, text), {
      status: response.status,
    });
  }
  if (response.body === null) throw new TransferError('HTTP', downloadMessages.defaultError);
  return { body: response.body, offset: response.status === 206 ? rangeStart(response) : 0 };
}

/** The first byte of a 206 answer (`Content-Range: bytes <start>-<end>/<size>`); NaN if unreadable. */
function rangeStart(response: Response): number {
  const match = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(response.headers.get('Content-Range') ?? '');
  return match === null ? Number.NaN : Number(match[1]);
}

function toDownloadError(error: unknown): unknown {
  if (error instanceof TransferError) return error;
  if (isAbortError(error)) return new TransferAbortedError(downloadMessages.aborted, { cause: error });
  if (error instanceof ApiRequestError) return fromApiRequestError('download', error);
  if (error instanceof TypeError)
    return new TransferError('NETWORK', DOWNLOAD_NETWORK_ERROR_TEXT, { cause: error });
  return error;
}

/** Awaits `promise`, but gives up as soon as `signal` aborts (a stalled write must not hang an abort). */
function guard<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
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

/**
 * The spec's download texts while chunks overlap: 'Downloading and decrypting file' while bytes
 * arrive, 'Decrypting chunk i of n...' while the pipeline waits for decryption only.
 */
interface DownloadPhase {
  downloading(active: boolean): void;
  decrypting(index: number | null): void;
}

function createDownloadPhase(reporter: ProgressReporter, count: number): DownloadPhase {
  let isDownloading = false;
  let decryptingIndex: number | null = null;
  const show = (): void => {
    if (isDownloading) reporter.text(downloadMessages.downloadingAndDecrypting);
    else if (decryptingIndex !== null) reporter.text(decryptingChunkText(decryptingIndex + 1, count));
  };
  return {
    downloading(active) {
      isDownloading = active;
      show();
    },
    decrypting(index) {
      decryptingIndex = index;
      show();
    },
  };
}
