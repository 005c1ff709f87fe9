import {
  DEFAULT_CONTENT_TYPE,
  ENCRYPTED_FILE_NAME,
  encryptingChunkText,
  uploadMessages,
  type FileNode,
  type NewEncryptionInfo,
} from '@coffer/contracts';
import { bytesToHex } from '@coffer/crypto';
import type { ChunkCipher } from '../crypto-worker';
import type { EncryptedSlice, EncryptSliceOptions, SealedPart } from '../crypto-worker/chunk-cipher';
import { blobPartsOf, releaseBuffer } from './buffers';
import { createChunkPhase, type ChunkPhase } from './chunk-phase';
import type { ApiClient } from '../api/http';
import type { ProgressReporter } from './progress';
import type { UploadJournal } from './upload-journal';
import type { UploadLocks } from './upload-locks';
import { TransferAbortedError } from './transfer-errors';
import { sendUploadXhr, type XhrFactory } from './upload-xhr';

/** Everything the direct and multipart paths share for one file. */
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
export function sentNameAndType(context: UploadContext): { name: string; contentType: string } {
  return context.node === undefined
    ? { name: context.file.name, contentType: context.contentType }
    : { name: ENCRYPTED_FILE_NAME, contentType: DEFAULT_CONTENT_TYPE };
}

export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new TransferAbortedError(uploadMessages.aborted);
}

/**
 * Chunk `index` of the file, encrypted, as the multipart upload's part. Where the cipher runs in
 * the crypto worker, the part stays there and the worker sends it (`ChunkCipher.sealPart`): the
 * page never holds or copies the ciphertext, and the part's Blob has a wrapper in that one thread,
 * whose collector frees it. Elsewhere (tests, no module workers) the page builds the part's Blob
 * ({@link encryptFileChunk}) and sends it.
 */
export async function encryptFilePart(
  context: UploadContext,
  index: number,
  work?: UploadWork,
): Promise<SealedPart> {
  const sealPart = context.cipher.sealPart;
  if (sealPart === undefined) {
    const body = await encryptFileChunk(context, index, work);
    return {
      size: body.size,
      send: (request) => sendUploadXhr({ ...request, method: 'PUT', body }, context.createXhr),
      release: () => undefined,
    };
  }
  const { start, end, isLast, options } = sliceOf(context, index, work);
  throwIfAborted(context.signal);
  const part = await sealPart(context.fileKey, index, isLast, context.file, start, end, options);
  try {
    await chunkSealed(context, index, end - start, part.plaintextHash, work);
    return part;
  } catch (error) {
    part.release();
    throw error;
  }
}

/**
 * Chunk `index` of the file, encrypted, as a Blob that XHR sends as is (direct uploads, and parts
 * where the cipher runs on the page's thread). The crypto worker reads the slice (`File.slice`) and
 * encrypts it; the page then copies the ciphertext into the Blob `SLICE_BYTES` (8 MiB) at a time,
 * yielding in between, so no step blocks the main thread for long.
 */
export async function encryptFileChunk(
  context: UploadContext,
  index: number,
  work?: UploadWork,
): Promise<Blob> {
  const { iv, ciphertext } = await encryptedChunk(context, index, work);
  const parts = await blobPartsOf(ciphertext, () => {
    throwIfAborted(context.signal);
  });
  return new Blob([iv, ...parts], { type: 'application/octet-stream' });
}

/**
 * Reads and encrypts chunk `index` for its plaintext hash only (resuming: the journal compares it
 * with the recorded one); the ciphertext is dropped at once, and no part is made.
 */
export async function checkFileChunk(context: UploadContext, index: number): Promise<void> {
  const { ciphertext } = await encryptedChunk(context, index, undefined);
  releaseBuffer(ciphertext.buffer);
}

/** Chunk `index` read and encrypted in the crypto worker, its hash recorded (`chunkSealed`). */
async function encryptedChunk(
  context: UploadContext,
  index: number,
  work: UploadWork | undefined,
): Promise<EncryptedSlice> {
  const { start, end, isLast, options } = sliceOf(context, index, work);
  throwIfAborted(context.signal);
  const sealed = await context.cipher.encryptSlice(
    context.fileKey,
    index,
    isLast,
    context.file,
    start,
    end,
    options,
  );
  await chunkSealed(context, index, end - start, sealed.plaintextHash, work);
  return sealed;
}

/** Where chunk `index` lies in the file, and what the cipher reports while it reads it. */
function sliceOf(
  context: UploadContext,
  index: number,
  work: UploadWork | undefined,
): { start: number; end: number; isLast: boolean; options: EncryptSliceOptions } {
  const start = index * context.chunkSize;
  const end = Math.min(context.file.size, start + context.chunkSize);
  return {
    start,
    end,
    isLast: index === context.chunkCount - 1,
    options: {
      ...(context.journal === undefined ? {} : { hashPlaintext: context.journal.hashScheme }),
      ...(work === undefined
        ? {}
        : {
            onRead: (bytesRead: number) => {
              work.read(index, bytesRead);
            },
          }),
    },
  };
}

/** A chunk was read and encrypted: it counts as read, and a resumable upload records its hash. */
async function chunkSealed(
  context: UploadContext,
  index: number,
  bytes: number,
  plaintextHash: Uint8Array | undefined,
  work: UploadWork | undefined,
): Promise<void> {
  work?.read(index, bytes);
  throwIfAborted(context.signal);
  if (context.journal !== undefined && plaintextHash !== undefined) {
    await context.journal.chunkHashed(index, bytesToHex(plaintextHash));
  }
}

/**
 * An upload's percentage (issue 15, point 12): every byte of the file is read for encryption once
 * and sent once, and each counts for half. So the percentage moves while a chunk is read in the
 * worker (seconds for 95 MiB on a slow machine) and while its part is sent, never by guessing.
 * `read(index, bytes)`: bytes of chunk `index` read so far; `sent(bytes)`: request body bytes sent
 * so far, of `sendTotal`.
 */
export interface UploadWork {
  read(index: number, bytes: number): void;
  sent(bytes: number): void;
}

export function createUploadWork(
  reporter: ProgressReporter,
  fileSize: number,
  sendTotal: number,
): UploadWork {
  const readPerChunk = new Map<number, number>();
  let read = 0;
  let sent = 0;
  const report = (): void => {
    const readShare = fileSize > 0 ? read / fileSize : 1;
    const sentShare = sendTotal > 0 ? Math.min(1, sent / sendTotal) : 0;
    reporter.fraction(readShare + sentShare, 2);
  };
  return {
    read(index, bytes) {
      const before = readPerChunk.get(index) ?? 0;
      if (bytes <= before) return;
      readPerChunk.set(index, bytes);
      read += bytes - before;
      report();
    },
    sent(bytes) {
      sent = bytes;
      report();
    },
  };
}

/** 'Encrypting and uploading file' while bytes go out, else 'Encrypting chunk i of n...'. */
export function createUploadPhase(reporter: ProgressReporter, chunkCount: number): ChunkPhase {
  const chunkText = (position: number): string => encryptingChunkText(position, chunkCount);
  return createChunkPhase(reporter, uploadMessages.encryptingAndUploading, chunkText);
}

/** The bearer header, fetched per request: the token may have been renewed since the last part. */
export async function uploadHeaders(context: UploadContext): Promise<Record<string, string>> {
  return { ...(await context.api.authHeaders()) };
}
