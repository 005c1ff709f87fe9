import { downloadMessages } from '@coffer/contracts';
import { FileKeyUnwrapError, unwrapFileKey } from '@coffer/crypto';
import { ApiRequestError } from '../api/http';
import type { ApiClient } from '../api/http';
import type { ChunkCipher } from '../crypto-worker';
import { guard, runDownloadPipeline, type DownloadHost, type DownloadJob } from './download/download-run';
import { normalizeDownloadError, openDownloadStream } from './download/fetch';
import { downloadFailure } from './download-failure';
import { FILE_KEY_UNDECRYPTABLE_TEXT, fromApiRequestError } from './error-mapping';
import {
  fetchRawDownloadMetadata,
  toDownloadMetadata,
  type DownloadMetadata,
  type DownloadSource,
  type RawDownloadMetadata,
} from './download-metadata';
import { transferFormat, type TestFormatOverrides } from './format-overrides';
import { createProgressReporter } from './progress';
import { openSaveSink } from './save/open-save-sink';
import { resolveSaveMethod, type SaveCapabilities } from './save/save-method';
import { runDownloadInServiceWorker } from './save/sw-download';
import type { SaveMethod, SaveSink, SaveSinkOpener } from './save/save-sink';
import { TransferAbortedError, TransferError } from './transfer-errors';
import { openSharedFileName } from '../drive';
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
  /**
   * Runs a `service-worker` download in the download service worker (default where the browser's
   * own sink is used, i.e. `openSink` is not given); null runs it in the crypto worker instead.
   */
  readonly serviceWorkerDownload?: typeof runDownloadInServiceWorker | null;
  /** Tests only. */
  readonly testFormat?: TestFormatOverrides;
  /**
   * A file whose key and metadata the caller already opened (a link's file, issue 30): no metadata
   * call, no RSA unwrap, `privateKey` unused. The content request carries `api.authHeaders()` (a
   * link's client answers `X-Link-Auth` there instead of a bearer token).
   */
  readonly opened?: {
    readonly fileKey: CryptoKey;
    readonly metadata: DownloadMetadata;
    /** See `DownloadJob.resumeTokenHeader`. */
    readonly resumeTokenHeader?: string;
  };
}

/** A broken connection is picked up again up to three times per chunk, after 1, 3 and 6 seconds. */
export const DEFAULT_RESUME_DELAYS_MS: readonly number[] = [1000, 3000, 6000];

/**
 * Downloads, decrypts and saves one file: metadata → unwrap the file key with the private key →
 * (in the crypto worker, see `download/download-run.ts`) stream the ciphertext → cut it into
 * encrypted chunks → decrypt each → write its plaintext only once it verified. Chunk i + 1
 * downloads while chunk i decrypts and is written: at most two chunks in flight, whatever the
 * file size. A connection that breaks is picked up again with a `Range` request from the first
 * byte of the chunk that was being read.
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
  const privateKey = options.privateKey;
  if (options.opened === undefined && (privateKey === null || privateKey === undefined)) {
    throw new TransferError('PRECONDITION', downloadMessages.notUnlocked);
  }
  const method = resolveSaveMethod(options.saveMethod ?? 'auto', target.size, options.saveCapabilities);
  const openSink = options.openSink ?? openSaveSink;
  const { chunkSize } = transferFormat(options.testFormat);

  const internal = downloadFailure(signal);

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
  sinkOpening?.catch(internal.fail);
  /** The pipeline took the sink (and ends it); before that, a failure here must abort it. */
  const sinkState = { taken: false };
  let contentRequested = false;

  try {
    if (signal.aborted) throw new TransferAbortedError(downloadMessages.aborted);
    if (target.checked !== undefined && target.checked.source !== target.source) {
      throw new TransferError('PRECONDITION', downloadMessages.defaultError);
    }
    const { metadata, fileKey } = options.opened ?? (await openTarget(options, privateKey, internal.signal));
    // Only now the engine's texts begin (spec section 4): until here, while the metadata is fetched
    // and checked and the key unwrapped, the card keeps 'Starting download...' with its bar.
    const reporter = createProgressReporter(options.onProgress, downloadMessages.preparing);
    const job: DownloadJob = {
      fileKey,
      size: metadata.size,
      chunkSize,
      downloadPath: metadata.downloadPath,
      apiBaseUrl: options.apiBaseUrl,
      retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RESUME_DELAYS_MS,
      ...(options.opened?.resumeTokenHeader === undefined
        ? {}
        : { resumeTokenHeader: options.opened.resumeTokenHeader }),
    };
    const host: DownloadHost = {
      headers: () => options.api.authHeaders(),
      openSink: () => {
        sinkState.taken = true;
        sinkOpening ??= openSink(method, {
          fileName: metadata.name,
          size: metadata.size,
          contentType: metadata.contentType,
        });
        return sinkOpening;
      },
      progress: reporter,
      signal: internal.signal,
    };
    contentRequested = true;
    const { cipher } = options;
    const inServiceWorker =
      options.serviceWorkerDownload !== undefined
        ? options.serviceWorkerDownload
        : options.openSink === undefined
          ? runDownloadInServiceWorker
          : null;
    if (method === 'service-worker' && inServiceWorker !== null) {
      // The service worker decrypts and streams the download (its response is the sink); the plaintext
      // never travels between threads. The ciphertext comes from the crypto worker's verified chunk
      // files, or where that is not possible the service worker fetches it too (docs/transfers.md).
      sinkState.taken = true;
      const info = { fileName: metadata.name, size: metadata.size, contentType: metadata.contentType };
      // Where the crypto worker computes in slices, it fetches and verifies, and the service worker
      // decrypts and saves: two threads, chunks kept in the worker's files (docs/transfers.md, "Two threads").
      const { feedDownload } = cipher;
      if (feedDownload !== undefined && (await cipher.streaming?.().catch(() => false)) === true) {
        const channel = new MessageChannel();
        // The crypto worker's side ends with the service worker's, whatever way (an old service worker
        // that ignored the feed included); a crypto worker that died fails the download.
        const feedEnd = new AbortController();
        const stopFeed = (): void => {
          feedEnd.abort();
        };
        internal.signal.addEventListener('abort', stopFeed, { once: true });
        feedDownload(job, { ...host, signal: feedEnd.signal }, channel.port2).catch(internal.fail);
        try {
          await inServiceWorker(job, host, info, { feed: channel.port1 });
        } finally {
          internal.signal.removeEventListener('abort', stopFeed);
          stopFeed();
        }
      } else {
        await inServiceWorker(job, host, info);
      }
    } else if (cipher.runDownload !== undefined) {
      // Browsers: fetch, decrypt and save in the crypto worker; this thread only shows progress.
      await cipher.runDownload(job, host);
    } else {
      const doFetch = options.fetchImpl ?? ((input: string, init?: RequestInit) => fetch(input, init));
      await runDownloadPipeline({
        job,
        open: async (offset, openSignal, end) =>
          openDownloadStream(doFetch as typeof fetch, job, await host.headers(), offset, openSignal, end),
        decrypt: (key, index, isLast, encrypted) => cipher.decrypt(key, index, isLast, encrypted),
        openSink: () => host.openSink(),
        progress: reporter,
        signal: internal.signal,
      });
    }
    reporter.finish(downloadMessages.complete);
  } catch (error) {
    const cause = internal.failure ?? error;
    const final = signal.aborted
      ? new TransferAbortedError(downloadMessages.aborted, { cause })
      : toDownloadError(cause);
    internal.abort();
    // The content request bypasses the API client: the session still hears of a 401.
    if (contentRequested && final instanceof TransferError && final.status === 401) {
      options.api.reportUnauthorized();
    }
    if (!sinkState.taken && sinkOpening !== null) await (await sinkOpening.catch(() => null))?.abort(final);
    throw final;
  } finally {
    internal.dispose();
  }
}

/** The metadata answer (fetched or the checked one), verified, and the file key unwrapped with RSA. */
async function openTarget(
  options: DownloadOptions,
  privateKey: CryptoKey | null | undefined,
  signal: AbortSignal,
): Promise<{ metadata: DownloadMetadata; fileKey: CryptoKey }> {
  const { target } = options;
  if (privateKey === null || privateKey === undefined) {
    throw new TransferError('PRECONDITION', downloadMessages.notUnlocked);
  }
  const raw =
    target.checked ??
    (await guard(fetchRawDownloadMetadata(options.api, target.source, target.fileId, signal), signal));
  if (target.verify !== undefined) await guard(target.verify(raw), signal);
  const metadata = toDownloadMetadata(raw, target.fileId, transferFormat(options.testFormat).chunkSize);
  const fileKey = await guard(unwrap(metadata.encryptedFileKey, privateKey), signal);
  return { metadata: await withSealedName(metadata, raw, fileKey), fileKey };
}

/**
 * A file with sealed metadata (issue 31) is saved under its own name and type, opened with the
 * file key; the server only knows it as `encrypted`. Metadata that does not open is refused.
 */
async function withSealedName(
  metadata: DownloadMetadata,
  raw: RawDownloadMetadata,
  fileKey: CryptoKey,
): Promise<DownloadMetadata> {
  const file = raw.source === 'own' ? raw.file : raw.shared.file;
  try {
    const opened = await openSharedFileName(fileKey, file);
    return opened.sealed ? { ...metadata, name: opened.name, contentType: opened.contentType } : metadata;
  } catch (error) {
    throw new TransferError('FILE_KEY', SEALED_NAME_REFUSED_TEXT, { cause: error });
  }
}

/** Ours: the file's sealed name does not open with its key (swapped or altered by the server). */
export const SEALED_NAME_REFUSED_TEXT =
  "This file's encrypted name does not open with its key: it was changed on the server. It was not downloaded.";

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

function toDownloadError(error: unknown): unknown {
  if (error instanceof ApiRequestError) return fromApiRequestError('download', error);
  return normalizeDownloadError(error);
}
