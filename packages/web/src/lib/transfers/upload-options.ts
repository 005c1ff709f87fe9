import { API_PREFIX } from '@coffer/contracts';
import { chunkCount } from '@coffer/crypto';
import type { ApiClient } from '../api/http';
import type { ChunkCipher } from '../crypto-worker';
import type { TestFormatOverrides } from './format-overrides';
import type { ProgressReporter } from './progress';
import type { ProgressListener } from './transfer-types';
import type { UploadContext } from './upload/upload-context';
import type { UploadLocks } from './upload-locks';
import { createBrowserXhr, type XhrFactory } from './upload-xhr';

export const DEFAULT_RETRY_DELAYS_MS = [1000, 3000] as const;

/** What a fresh upload and a resumed one both take: the API, the file, the worker and the wire. */
export interface UploadRunOptions {
  readonly api: ApiClient;
  readonly file: File;
  readonly cipher: ChunkCipher;
  readonly signal: AbortSignal;
  readonly onProgress: ProgressListener;
  /** Where the API lives; defaults to `/api` (the server serves app and API together). */
  readonly apiBaseUrl?: string;
  /**
   * The upload calls' path under the API, default `/users/uploads`; a file request's page
   * (issue 30) uploads through `/public/requests/{id}/uploads` with the same bodies.
   */
  readonly uploadsPath?: string;
  readonly createXhr?: XhrFactory;
  /** Waits before retrying a failed part (network error, 5xx, 429); default two retries. */
  readonly retryDelaysMs?: readonly number[];
  /** Tests only. */
  readonly testFormat?: TestFormatOverrides;
  /** Per-upload locks shared by the browser's tabs; default: the browser's Web Locks. */
  readonly locks?: UploadLocks;
}

/** The part of an upload's context its run options give, with their defaults. */
export type RunContext = Pick<
  UploadContext,
  | 'api'
  | 'apiBaseUrl'
  | 'uploadsPath'
  | 'file'
  | 'cipher'
  | 'signal'
  | 'reporter'
  | 'createXhr'
  | 'chunkSize'
  | 'chunkCount'
  | 'retryDelaysMs'
>;

export function runContext(
  options: UploadRunOptions,
  reporter: ProgressReporter,
  chunkSize: number,
): RunContext {
  return {
    api: options.api,
    apiBaseUrl: options.apiBaseUrl ?? API_PREFIX,
    uploadsPath: options.uploadsPath ?? '/users/uploads',
    file: options.file,
    cipher: options.cipher,
    signal: options.signal,
    reporter,
    createXhr: options.createXhr ?? createBrowserXhr,
    chunkSize,
    chunkCount: chunkCount(options.file.size, chunkSize),
    retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
  };
}
