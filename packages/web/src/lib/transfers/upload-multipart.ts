import {
  CHUNK_OVERHEAD_BYTES,
  noEtagText,
  uploadMessages,
  type CompletedPart,
  type CreateMultipartUploadRequest,
  type CreateMultipartUploadResponse,
  type FileListItem,
  type UploadPartResponse,
} from '@coffer/contracts';
import { encryptedSize } from '@coffer/crypto';
import { ApiRequestError, seg } from '../api/http';
import { CryptoWorkerError, type SealedPart } from '../crypto-worker/chunk-cipher';
import { fromApiRequestError } from './error-mapping';
import {
  TransferAbortedError,
  TransferError,
  isAbortError,
  isRetryableTransferError,
  waitBeforeRetry,
} from './transfer-errors';
import {
  createUploadPhase,
  createUploadWork,
  encryptFilePart,
  sentNameAndType,
  throwIfAborted,
  uploadHeaders,
  type UploadContext,
  type UploadWork,
} from './upload-context';
import type { ChunkPhase } from './chunk-phase';
import { parseJsonAnswer } from './upload-json';

/**
 * Files above the direct threshold: create → one PUT per encrypted chunk (part n = chunk n−1) →
 * complete. Chunk i + 1 is read and encrypted while chunk i uploads, and no further: at most TWO
 * chunks are in flight, which bounds memory whatever the file size. On abort or failure the
 * upload is aborted on the server too (DELETE), so no parts are left behind.
 */
export async function uploadMultipart(context: UploadContext): Promise<FileListItem> {
  const sent = sentNameAndType(context);
  const created = await callJson<CreateMultipartUploadResponse>(
    context,
    'POST',
    `${context.uploadsPath}/multipart`,
    {
      name: sent.name,
      contentType: sent.contentType,
      size: context.file.size,
      parts: context.chunkCount,
      isEncrypted: true,
      encryptionInfo: context.encryptionInfo,
      ...(context.manifest === undefined ? {} : { manifest: context.manifest }),
      ...(context.node === undefined ? {} : { node: context.node }),
    } satisfies CreateMultipartUploadRequest,
  );
  // A fresh id: no other tab can hold it yet, but one may try to resume it while it runs here. The
  // lock only guards against that; if the browser refuses locks, the upload goes on without one
  // (the server already created it, and failing now would leave it for the sweeper).
  const release = await context.locks?.tryHold(created.uploadId).catch(() => null);
  try {
    await context.journal?.started(created);
    return await sendPartsAndComplete(context, created, new Map(), 'failure');
  } finally {
    release?.();
  }
}

/**
 * Sends every part that `held` (part number → ETag, parts the server has) lacks, then completes.
 * `abortOn`: a new upload is aborted on the server after any failure; a resumed one only when it is
 * cancelled, so a resume that fails (the network, another file picked) can be resumed again.
 */
export async function sendPartsAndComplete(
  context: UploadContext,
  created: CreateMultipartUploadResponse,
  held: ReadonlyMap<number, string>,
  abortOn: 'failure' | 'cancel',
): Promise<FileListItem> {
  let nextChunk: Promise<SealedPart> | null = null;
  try {
    const phase = createUploadPhase(context.reporter, context.chunkCount);
    const totalBytes = encryptedSize(context.file.size, context.chunkSize);
    const work = createUploadWork(context.reporter, context.file.size, totalBytes);
    const toSend: number[] = [];
    let uploadedBytes = 0;
    for (let index = 0; index < context.chunkCount; index++) {
      if (held.has(index + 1)) {
        // A part the server holds was read, encrypted and sent before: done on both counts.
        uploadedBytes += partSize(context, index);
        work.read(index, partSize(context, index) - CHUNK_OVERHEAD_BYTES);
      } else {
        toSend.push(index);
      }
    }
    if (uploadedBytes > 0) work.sent(uploadedBytes);
    const parts: CompletedPart[] = [...held].map(([partNumber, etag]) => ({ partNumber, etag }));
    let current = toSend[0] === undefined ? null : startChunk(context, phase, work, toSend[0]);
    nextChunk = current;
    for (let k = 0; k < toSend.length && current !== null; k++) {
      const index = toSend[k] ?? 0;
      const sealed = { part: await sealedAgainIfLost(context, current, index, work) };
      // The one chunk allowed to overlap this upload.
      const following = toSend[k + 1];
      current = following === undefined ? null : startChunk(context, phase, work, following);
      nextChunk = current;
      const partNumber = index + 1;
      phase.bytesMoving(true);
      const sentBefore = uploadedBytes;
      const partSize = sealed.part.size;
      let etag: string;
      try {
        etag = await putPart(context, created, partNumber, sealed, (loaded) => {
          work.sent(sentBefore + Math.min(loaded, partSize));
        });
      } finally {
        // Sent or failed for good: its memory goes now, whatever follows.
        sealed.part.release();
      }
      phase.bytesMoving(false);
      uploadedBytes += partSize;
      work.sent(uploadedBytes);
      parts.push({ partNumber, etag });
    }
    parts.sort((a, b) => a.partNumber - b.partNumber);
    throwIfAborted(context.signal);
    const stored = await callJson<FileListItem>(
      context,
      'POST',
      `${context.uploadsPath}/multipart/${seg(created.uploadId)}/complete`,
      { uploadId: created.uploadId, objectKey: created.objectKey, parts },
    );
    await context.journal?.ended();
    return stored;
  } catch (error) {
    // A chunk still encrypting must not surface as an unhandled rejection, and is freed once sealed.
    nextChunk?.then(
      (part) => {
        part.release();
      },
      () => undefined,
    );
    const cancelled = error instanceof TransferAbortedError || context.signal.aborted;
    if (!cancelled && abortOn === 'cancel') throw error;
    const serverAbortError = await abortOnServer(context, created.uploadId);
    // Forget the upload only once the server has: one it still holds stays listed, resumable here.
    if (serverAbortError === undefined) await context.journal?.ended();
    if (cancelled) {
      throw new TransferAbortedError(uploadMessages.aborted, { cause: error, serverAbortError });
    }
    throw error;
  }
}

/**
 * The part `sealing` answers, or, when the crypto worker sealing it stopped meanwhile (a crash, the
 * browser ending it), the same chunk sealed once more by a new worker.
 */
async function sealedAgainIfLost(
  context: UploadContext,
  sealing: Promise<SealedPart>,
  index: number,
  work: UploadWork,
): Promise<SealedPart> {
  try {
    return await sealing;
  } catch (error) {
    if (!(error instanceof CryptoWorkerError) || context.signal.aborted) throw error;
    return encryptFilePart(context, index, work);
  }
}

/** Bytes of encrypted chunk `index` (part index + 1). */
function partSize(context: UploadContext, index: number): number {
  const start = index * context.chunkSize;
  return Math.min(context.file.size - start, context.chunkSize) + CHUNK_OVERHEAD_BYTES;
}

function startChunk(
  context: UploadContext,
  phase: ChunkPhase,
  work: UploadWork,
  index: number,
): Promise<SealedPart> {
  phase.waitingFor(index);
  const encrypting = encryptFilePart(context, index, work).finally(() => {
    phase.waitingFor(null);
  });
  // Failures are handled where the chunk is awaited (or after an abort, ignored).
  encrypting.catch(() => undefined);
  return encrypting;
}

async function putPart(
  context: UploadContext,
  created: CreateMultipartUploadResponse,
  partNumber: number,
  sealed: { part: SealedPart },
  onProgress: (loaded: number) => void,
): Promise<string> {
  const url =
    `${context.apiBaseUrl}${context.uploadsPath}/multipart/${seg(created.uploadId)}/part/${partNumber}` +
    `?objectKey=${encodeURIComponent(created.objectKey)}`;
  for (let attempt = 0; ; attempt++) {
    try {
      const answer = await sealed.part.send({
        url,
        headers: { ...(await uploadHeaders(context)), 'Content-Type': 'application/octet-stream' },
        signal: context.signal,
        onProgress,
        onUnauthorized: () => {
          context.api.reportUnauthorized();
        },
      });
      const etag = readEtag(answer.responseText, answer.header('ETag'));
      if (etag === null) throw new TransferError('NO_ETAG', noEtagText(partNumber));
      return etag;
    } catch (error) {
      const delay = context.retryDelaysMs[attempt];
      const lost = error instanceof CryptoWorkerError;
      if (delay === undefined || !(lost || isRetryableTransferError(error))) throw error;
      if (lost) {
        // The crypto worker holding the part stopped (it crashed, or the browser ended it): the
        // chunk is sealed again (a new IV, the same plaintext) by a new one, and sent at once.
        sealed.part.release();
        sealed.part = await encryptFilePart(context, partNumber - 1);
      } else {
        await waitBeforeRetry(delay, context.signal, uploadMessages.aborted);
      }
    }
  }
}

function readEtag(responseText: string, header: string | null): string | null {
  let etag: unknown = null;
  try {
    etag = (parseJsonAnswer(responseText) as Partial<UploadPartResponse> | null)?.etag;
  } catch {
    // Not JSON: fall back to the header.
  }
  if (typeof etag === 'string' && etag !== '') return etag;
  return header !== null && header !== '' ? header : null;
}

async function callJson<T>(context: UploadContext, method: string, path: string, body: unknown): Promise<T> {
  throwIfAborted(context.signal);
  try {
    return await context.api.request<T>(method, path, { body, signal: context.signal });
  } catch (error) {
    throw toUploadError(error, context.signal);
  }
}

/** Errors of the JSON calls (fetch) in the upload's terms. */
function toUploadError(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted || isAbortError(error)) return new TransferAbortedError(uploadMessages.aborted);
  if (error instanceof ApiRequestError) return fromApiRequestError('upload', error);
  if (error instanceof TypeError)
    return new TransferError('NETWORK', uploadMessages.networkError, { cause: error });
  return error;
}

/** Best-effort DELETE of the server-side upload; returns its error, if any. */
async function abortOnServer(context: UploadContext, uploadId: string): Promise<unknown> {
  try {
    await context.api.request('DELETE', `${context.uploadsPath}/multipart/${seg(uploadId)}`);
    return undefined;
  } catch (error) {
    return error ?? new Error('server-side abort failed');
  }
}
