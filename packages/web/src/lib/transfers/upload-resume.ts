import {
  DEFAULT_CONTENT_TYPE,
  formatSize,
  uploadMessages,
  type FileListItem,
  type MultipartUploadState,
  type NewEncryptionInfo,
} from '@coffer/contracts';
import { unwrapFileKey } from '@coffer/crypto';
import { ApiRequestError, seg, type ApiClient } from '../api/http';
import { transferFormat } from './format-overrides';
import { createProgressReporter } from './progress';
import { TransferError } from './transfer-errors';
import { throwIfAborted, type UploadContext } from './upload/upload-context';
import { checkChunk, sendPartsAndComplete } from './upload/upload-run';
import { DifferentFileError, verifyingJournal } from './upload-journal';
import { browserUploadLocks, UPLOAD_RUNNING_ELSEWHERE_TEXT } from './upload-locks';
import { runContext, type UploadRunOptions } from './upload-options';
import { chunkHashingOf, type UploadRecord, type UploadRecordStore } from './upload-records';

/** Ours (docs/ui-strings.md): the file picked to resume an upload is not the one it started from. */
export function differentFileText(record: Pick<UploadRecord, 'fileName' | 'size'>): string {
  return (
    `That is not the file this upload started from. Pick ${record.fileName} (${formatSize(record.size)}), ` +
    'unchanged since the upload started.'
  );
}

/** Ours: the server no longer holds the upload (completed, cancelled or expired). */
export const UPLOAD_GONE_TEXT =
  'This upload is no longer on the server (completed, cancelled or expired). Upload the file again.';

/** Ours: the browser's record cannot check the re-opened file (no usable key, or an unknown scheme). */
export const UPLOAD_RECORD_INCOMPLETE_TEXT =
  "This browser's record of the upload is incomplete, so the file cannot be checked before it is sent. " +
  'Cancel it and upload the file again.';

/** Ours: the server's encryption info names another file key than the one this browser sent. */
export const UPLOAD_KEY_CHANGED_TEXT =
  'The server answered another file key for this upload than the one this browser sent, so it is not ' +
  'resumed. Cancel it and upload the file again.';

export interface ResumeOptions extends UploadRunOptions {
  /** The file the user re-opened (from the stored handle, or picked again). */
  readonly file: File;
  readonly record: UploadRecord;
  readonly records: UploadRecordStore;
  /** The owner's private key: unwraps the file key of the server's `encryptionInfo`. */
  readonly privateKey: CryptoKey;
}

/** Whether `file` looks like the one `record` started from (size and last-modified time). */
export function sameFileIdentity(file: File, record: UploadRecord): boolean {
  return file.size === record.size && file.lastModified === record.lastModified;
}

/**
 * Resumes a multipart upload this browser recorded (issue 18): asks the server which parts it
 * holds, checks the re-opened file is the same one (size, last-modified time, then the plaintext hash
 * of a recorded chunk before any byte is sent), unwraps the file key from the server's
 * `encryptionInfo` (which must carry the very wrapped key recorded at the start), sends only the
 * missing parts (each chunk encrypted afresh: a new random IV, its index in the AAD) and completes.
 * A failure other than a cancel leaves the upload pending and recorded, so it can be resumed again.
 * Holds the upload's Web Lock throughout, so two tabs never run the same upload.
 * @throws {TransferError} DIFFERENT_FILE, NOT_RESUMABLE, RUNNING_ELSEWHERE (another tab runs it), or
 * the upload's usual errors.
 */
export async function resumeUpload(options: ResumeOptions): Promise<FileListItem> {
  const release = await (options.locks ?? browserUploadLocks()).tryHold(options.record.uploadId);
  if (release === null) throw new TransferError('RUNNING_ELSEWHERE', UPLOAD_RUNNING_ELSEWHERE_TEXT);
  try {
    return await resumeHoldingLock(options);
  } finally {
    release();
  }
}

async function resumeHoldingLock(options: ResumeOptions): Promise<FileListItem> {
  const { record, records, file } = options;
  const reporter = createProgressReporter(options.onProgress, uploadMessages.preparing);
  const format = transferFormat(options.testFormat);
  if (!sameFileIdentity(file, record) || record.chunkSize !== format.chunkSize) {
    throw new TransferError('DIFFERENT_FILE', differentFileText(record));
  }
  const hashing = chunkHashingOf(record);
  if (hashing === null) throw new TransferError('NOT_RESUMABLE', UPLOAD_RECORD_INCOMPLETE_TEXT);
  const state = await fetchState(options.api, record, records, options.signal);
  if (
    state.objectKey !== record.objectKey ||
    state.size !== file.size ||
    state.encryptionInfo.encryptedFileKey !== record.encryptedFileKey
  ) {
    throw new TransferError('NOT_RESUMABLE', UPLOAD_KEY_CHANGED_TEXT);
  }
  const fileKey = await unwrapFileKey(state.encryptionInfo.encryptedFileKey, options.privateKey);
  throwIfAborted(options.signal);

  const context: UploadContext = {
    ...runContext(options, reporter, format.chunkSize),
    contentType: state.contentType === '' ? DEFAULT_CONTENT_TYPE : state.contentType,
    fileKey,
    // Only read when creating an upload, which a resume never does.
    encryptionInfo: state.encryptionInfo as NewEncryptionInfo,
    journal: verifyingJournal(records, record, hashing),
  };
  const held = heldParts(state, context);
  try {
    await checkBeforeSending(context, record, held);
    const stored = await sendPartsAndComplete(
      context,
      { uploadId: record.uploadId, objectKey: record.objectKey },
      held,
      'cancel',
    );
    reporter.finish(uploadMessages.complete);
    return stored;
  } catch (error) {
    if (error instanceof DifferentFileError) {
      throw new TransferError('DIFFERENT_FILE', differentFileText(record), { cause: error });
    }
    throw error;
  }
}

async function fetchState(
  api: ApiClient,
  record: UploadRecord,
  records: UploadRecordStore,
  signal: AbortSignal,
): Promise<MultipartUploadState> {
  try {
    return await api.request<MultipartUploadState>(
      'GET',
      `/users/uploads/multipart/${seg(record.uploadId)}`,
      { signal },
    );
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 404) {
      await records.delete(record.uploadId);
      throw new TransferError('NOT_RESUMABLE', UPLOAD_GONE_TEXT, { status: 404, cause: error });
    }
    throw error;
  }
}

/** The parts the server holds whole (a part of another length is sent again), by part number. */
function heldParts(state: MultipartUploadState, context: UploadContext): Map<number, string> {
  const held = new Map<number, string>();
  for (const part of state.heldParts) {
    const index = part.partNumber - 1;
    if (index < 0 || index >= context.chunkCount) continue;
    const plain = Math.min(context.file.size - index * context.chunkSize, context.chunkSize);
    if (part.size === plain + 28) held.set(part.partNumber, part.etag);
  }
  return held;
}

/**
 * Before any part is sent: the first chunk to send is compared with its recorded hash as it is
 * encrypted (the journal). Where none was recorded (the page died while it was being read), a held
 * chunk with a recorded hash is read and compared here instead, so a different file never
 * completes an upload with another file's chunks.
 */
async function checkBeforeSending(
  context: UploadContext,
  record: UploadRecord,
  held: ReadonlyMap<number, string>,
): Promise<void> {
  if (held.size === 0) return;
  let firstMissing = 0;
  while (held.has(firstMissing + 1)) firstMissing++;
  if (firstMissing < context.chunkCount && record.chunkSha256[firstMissing] !== undefined) return;
  const hashedHeld = [...held.keys()]
    .map((partNumber) => partNumber - 1)
    .filter((index) => record.chunkSha256[index] !== undefined)
    .sort((a, b) => b - a);
  const index = hashedHeld[0];
  if (index === undefined) throw new DifferentFileError(firstMissing);
  // Only its plaintext hash is wanted, and the journal compares it.
  await checkChunk(context, index);
}
