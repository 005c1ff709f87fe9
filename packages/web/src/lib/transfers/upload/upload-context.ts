import {
  DEFAULT_CONTENT_TYPE,
  ENCRYPTED_FILE_NAME,
  uploadMessages,
  type FileNode,
  type NewEncryptionInfo,
  type RequestFileMetadata,
} from '@coffer/contracts';
import type { ChunkCipher } from '../../crypto-worker';
import type { ApiClient } from '../../api/http';
import type { ProgressReporter } from '../progress';
import type { UploadJournal } from '../upload-journal';
import type { UploadLocks } from '../upload-locks';
import { TransferAbortedError } from '../transfer-errors';
import type { XhrFactory } from '../upload-xhr';

/**
 * What one upload is, built once by its entry point (`uploadFile`, `resumeUpload`) and only read
 * afterwards: each stage of `upload-run.ts` takes the part of it it needs (docs/transfers.md, "Pipeline").
 */
export interface UploadContext {
  readonly api: ApiClient;
  readonly apiBaseUrl: string;
  /** `/users/uploads`, or a file request's public upload path (see `UploadRunOptions`). */
  readonly uploadsPath: string;
  readonly file: File;
  readonly contentType: string;
  readonly fileKey: CryptoKey;
  readonly encryptionInfo: NewEncryptionInfo;
  /** The owner's signed manifest (JSON text), sent with the upload. */
  readonly manifest?: string;
  /**
   * The file's node (issue 31): its key wrapped under its folder, its sealed name and type, its
   * signed record. With it, the upload sends the name `encrypted` and no content type in clear.
   */
  readonly node?: FileNode;
  /**
   * A file request's upload (issue 30): the name and type sealed under the file key for a node id of
   * its own, for the owner's browser to place. With it too, the name sent is `encrypted`.
   */
  readonly sealedMetadata?: RequestFileMetadata;
  readonly cipher: ChunkCipher;
  readonly signal: AbortSignal;
  readonly reporter: ProgressReporter;
  /** XHR for what the page sends (direct uploads, parts where the cipher runs on the page's thread);
   * parts the crypto worker holds go out through the worker's own XHR. */
  readonly createXhr: XhrFactory;
  readonly chunkSize: number;
  readonly chunkCount: number;
  /** Part retries after a network error or a 5xx/429 answer, with these waits (ms) before each. */
  readonly retryDelaysMs: readonly number[];
  /** Multipart: the browser's record of the upload, so it can be resumed (each chunk's plaintext hashed). */
  readonly journal?: UploadJournal;
  /** Multipart: held for the whole upload, so no other tab of this browser resumes it meanwhile. */
  readonly locks?: UploadLocks;
}

/** The name and type the server is told: `encrypted` and octet-stream when the metadata is sealed. */
export function sentNameAndType(
  context: Pick<UploadContext, 'file' | 'contentType' | 'node' | 'sealedMetadata'>,
): {
  name: string;
  contentType: string;
} {
  return context.node === undefined && context.sealedMetadata === undefined
    ? { name: context.file.name, contentType: context.contentType }
    : { name: ENCRYPTED_FILE_NAME, contentType: DEFAULT_CONTENT_TYPE };
}

export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new TransferAbortedError(uploadMessages.aborted);
}

/** The bearer header, fetched per request: the token may have been renewed since the last part. */
export async function uploadHeaders(context: Pick<UploadContext, 'api'>): Promise<Record<string, string>> {
  return { ...(await context.api.authHeaders()) };
}
