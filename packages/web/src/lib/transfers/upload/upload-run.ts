import {
  CHUNK_OVERHEAD_BYTES,
  uploadMessages,
  type CompletedPart,
  type FileListItem,
} from '@coffer/contracts';
import { encryptedSize } from '@coffer/crypto';
import { CryptoWorkerError, type SealedPart } from '../../crypto-worker/chunk-cipher';
import { releaseBuffer } from '../buffers';
import type { ChunkPhase } from '../chunk-phase';
import { TransferAbortedError } from '../transfer-errors';
import { parseJsonAnswer } from '../upload-json';
import { chunkSlice, partSize } from './read';
import { sealBytes, sealHeldPart } from './seal';
import { sendDirect, sendPart, type PartTarget } from './send';
import { abortMultipart, completeMultipart, createMultipart } from './server-calls';
import { heldOnPage, partBlob } from './store';
import { throwIfAborted, type UploadContext } from './upload-context';
import { createUploadPhase, createUploadWork, type UploadWork } from './upload-progress';

/**
 * An upload from top to bottom (docs/transfers.md, "Pipeline"): each chunk is read (`read.ts`: its
 * slice of the file), sealed (`seal.ts`), stored (`store.ts`, or the crypto worker's part store) and
 * sent (`send.ts`); the bytes pass each stage once. This module holds what changes while an upload
 * runs: the parts sent and their ETags, the one chunk sealed ahead, the bytes sent.
 */

/**
 * Files above the direct threshold: create → one PUT per encrypted chunk (part n = chunk n−1) →
 * complete. Chunk i + 1 is read and encrypted while chunk i uploads, and no further: at most TWO
 * chunks are in flight, which bounds memory whatever the file size. On abort or failure the
 * upload is aborted on the server too (DELETE), so no parts are left behind.
 */
export async function uploadMultipart(context: UploadContext): Promise<FileListItem> {
  const created = await createMultipart(context);
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
  target: PartTarget,
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
      const size = sealed.part.size;
      let etag: string;
      try {
        etag = await sendPart(
          context,
          target,
          partNumber,
          sealed,
          (loaded) => {
            work.sent(sentBefore + Math.min(loaded, size));
          },
          // The crypto worker holding the part stopped: a new one seals the chunk again.
          () => sealedPart(context, index),
        );
      } finally {
        // Sent or failed for good: its memory goes now, whatever follows.
        sealed.part.release();
      }
      phase.bytesMoving(false);
      uploadedBytes += size;
      work.sent(uploadedBytes);
      parts.push({ partNumber, etag });
    }
    throwIfAborted(context.signal);
    const stored = await completeMultipart(context, target, parts);
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
    const serverAbortError = await abortMultipart(context, target.uploadId);
    // Forget the upload only once the server has: one it still holds stays listed, resumable here.
    if (serverAbortError === undefined) await context.journal?.ended();
    if (cancelled) {
      throw new TransferAbortedError(uploadMessages.aborted, { cause: error, serverAbortError });
    }
    throw error;
  }
}

/**
 * Files up to the direct threshold: seal every chunk (one, or two when the file is between C and
 * 100 MB) and POST the ciphertext as one multipart/form-data file, after the text fields (the
 * server reads them first). Where the crypto worker holds the parts it sends the form itself.
 */
export async function uploadDirect(context: UploadContext): Promise<FileListItem> {
  const phase = createUploadPhase(context.reporter, context.chunkCount);
  const expectedBytes = encryptedSize(context.file.size, context.chunkSize);
  // The form's few text fields make the body a little larger than the ciphertext: `total` says how much.
  let sendTotal = expectedBytes;
  const work = createUploadWork(context.reporter, context.file.size, expectedBytes);
  const onProgress = (loaded: number, total: number | null): void => {
    sendTotal = total ?? sendTotal;
    work.sent((loaded / sendTotal) * expectedBytes);
  };
  // The crypto worker holds the parts and sends the form where it can do both.
  const sealPart = context.cipher.sendForm === undefined ? undefined : context.cipher.sealPart;
  const held: SealedPart[] = [];
  const pieces: Blob[] = [];
  try {
    for (let index = 0; index < context.chunkCount; index++) {
      phase.waitingFor(index);
      const slice = chunkSlice(context, index, work);
      if (sealPart !== undefined) held.push(await sealHeldPart(context, sealPart, slice, work));
      else pieces.push(await partBlob(await sealBytes(context, slice, work), context.signal));
    }
    phase.waitingFor(null);
    throwIfAborted(context.signal);
    phase.bytesMoving(true);
    const answer = await sendDirect(context, sealPart !== undefined ? { held } : { pieces }, onProgress);
    return parseJsonAnswer(answer.responseText) as FileListItem;
  } finally {
    for (const part of held) part.release();
  }
}

/**
 * Resuming (`upload-resume.ts`): reads and seals chunk `index` for its plaintext hash only (the
 * journal compares it with the recorded one); the ciphertext is dropped at once, no part is made.
 */
export async function checkChunk(context: UploadContext, index: number): Promise<void> {
  const { ciphertext } = await sealBytes(context, chunkSlice(context, index), undefined);
  releaseBuffer(ciphertext.buffer);
}

/**
 * Chunk `index` through read, seal and store: held by the crypto worker, which sends it itself, or
 * (the cipher on the page's thread) a Blob of the page.
 */
async function sealedPart(context: UploadContext, index: number, work?: UploadWork): Promise<SealedPart> {
  const slice = chunkSlice(context, index, work);
  const { sealPart } = context.cipher;
  if (sealPart !== undefined) return sealHeldPart(context, sealPart, slice, work);
  const body = await partBlob(await sealBytes(context, slice, work), context.signal);
  return heldOnPage(body, context.createXhr);
}

function startChunk(
  context: UploadContext,
  phase: ChunkPhase,
  work: UploadWork,
  index: number,
): Promise<SealedPart> {
  phase.waitingFor(index);
  const sealing = sealedPart(context, index, work).finally(() => {
    phase.waitingFor(null);
  });
  // Failures are handled where the chunk is awaited (or after an abort, ignored).
  sealing.catch(() => undefined);
  return sealing;
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
    return sealedPart(context, index, work);
  }
}
