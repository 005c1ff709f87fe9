import { decryptChunk, sealChunk, sha256, sha256PieceList } from '@coffer/crypto';
import { releaseBuffer, slicesOf } from '../transfers/buffers';
import { TransferError } from '../transfers/transfer-errors';
import { createBrowserXhr, sendUploadXhr, type XhrFactory } from '../transfers/upload-xhr';
import { PartLostError, describeFailure, type ChunkHashScheme } from './chunk-cipher';
import { runDownloadJob } from './download-job';
import { createPartFiles, type PartFiles } from './part-files';
import { SEAL_SLICE_BYTES, sealInSlices, type PartWriter } from './seal-in-slices';
import { createReadBufferPool } from './read-buffers';
import { readSliceInto } from './read-slice';
import { checkStreamingGcm } from './streaming-support';
import type { CryptoRequest, CryptoResponse, SentPartAnswer } from './protocol';

/** This thread's read buffers: one per upload reading at the same time, reused chunk after chunk. */
const readBuffers = createReadBufferPool();

/**
 * Bytes per piece of a part's Blob. Chromium copies each piece into an allocation of its own; at
 * 512 KiB its allocator recycles the memory of earlier parts' pieces instead of mapping fresh
 * pages (a chunk-sized piece costs ~24,000 page faults every time).
 */
export const PART_PIECE_BYTES = 512 * 1024;

/**
 * The parts one thread holds, from `seal-part` to `drop-part` (by the `seal-part` request's id), and
 * its `send-part` requests under way (by id, so `cancel-send` can abort them). Sent with `createXhr`.
 */
export interface PartStore {
  /**
   * Keeps the part `iv || ciphertext` under `id`: in a file of the origin private file system where
   * the store has `files` (`part-files.ts`), else as a Blob. Answers its size. The ciphertext is
   * not needed afterwards.
   */
  hold(id: number, iv: Uint8Array<ArrayBuffer>, ciphertext: Uint8Array<ArrayBuffer>): Promise<number>;
  /**
   * Keeps part `id` as `seal` writes it, slice by slice: into a part file where the store has
   * `files`, else into the pieces of a Blob. A file that fails on the way (no space, a quota) is
   * removed and the part sealed again into a Blob (`seal` runs a second time: a new IV). Answers
   * the part's size and what `seal` answered.
   */
  holdSealing<T>(id: number, seal: (writer: PartWriter) => Promise<T>): Promise<{ size: number; sealed: T }>;
  send(
    request: Extract<CryptoRequest, { op: 'send-part' }>,
    onProgress: ((bytesSent: number, total: number | null) => void) | undefined,
  ): Promise<SentPartAnswer>;
  cancel(requestId: number): void;
  drop(id: number): void;
  /** Parts held now (tests: every upload frees its parts, whatever its end). */
  readonly count: number;
}

export function createPartStore(
  createXhr: XhrFactory = createBrowserXhr,
  files: PartFiles | null = null,
): PartStore {
  const held = new Map<number, Blob>();
  const sending = new Map<number, AbortController>();
  return {
    hold: async (id, iv, ciphertext) => {
      const part =
        (await files?.write(id, iv, ciphertext)) ??
        new Blob([iv, ...slicesOf(ciphertext, PART_PIECE_BYTES)], { type: 'application/octet-stream' });
      held.set(id, part);
      return part.size;
    },
    holdSealing: async (id, seal) => {
      const file = await files?.open(id);
      if (file !== undefined && file !== null) {
        let sealedToFile = false;
        try {
          // The file's own write errors are told apart from the sealing's (the source file gone…).
          const sealed = await seal({
            append: (bytes) => {
              try {
                file.append(bytes);
              } catch (cause) {
                throw new PartFileError(cause);
              }
            },
          });
          sealedToFile = true;
          const part = await file.finish();
          held.set(id, part);
          return { size: part.size, sealed };
        } catch (error) {
          await file.abandon();
          // A failure of the file itself falls back to a Blob; one of the sealing (the source file
          // gone, a bad key) would fail the same way again.
          if (sealedToFile || !(error instanceof PartFileError)) throw error;
        }
      }
      const pieces: Blob[] = [];
      const sealed = await seal({
        append: (bytes) => {
          for (const piece of slicesOf(bytes, PART_PIECE_BYTES)) pieces.push(new Blob([piece]));
        },
      });
      const part = new Blob(pieces, { type: 'application/octet-stream' });
      held.set(id, part);
      return { size: part.size, sealed };
    },
    send: async (request, onProgress) => {
      const blobs = request.parts.map((id) => held.get(id));
      if (blobs.length === 0 || blobs.some((part) => part === undefined)) throw new PartLostError();
      const controller = new AbortController();
      sending.set(request.id, controller);
      try {
        return await sendParts(request, blobs as Blob[], controller.signal, onProgress, createXhr);
      } catch (error) {
        // A part file that can no longer be read (site data cleared, the folder removed) fails every
        // retry the same way: it is lost, and the page seals the chunk again.
        if (
          error instanceof TransferError &&
          error.code === 'NETWORK' &&
          !(await readable(blobs as Blob[]))
        ) {
          for (const id of request.parts) {
            held.delete(id);
            files?.remove(id);
          }
          throw new PartLostError();
        }
        throw error;
      } finally {
        sending.delete(request.id);
      }
    },
    cancel: (requestId) => {
      sending.get(requestId)?.abort();
    },
    drop: (id) => {
      held.delete(id);
      files?.remove(id);
    },
    get count() {
      return held.size;
    },
  };
}

/** True when every part can still be read (a file-backed one fails once its file is gone). */
async function readable(parts: readonly Blob[]): Promise<boolean> {
  try {
    await Promise.all(parts.map((part) => part.slice(0, 1).arrayBuffer()));
    return true;
  } catch {
    return false;
  }
}

/** This thread's parts, sent with the browser's XHR, on disk where the browser allows it. */
const thisThreadParts = createPartStore(createBrowserXhr, createPartFiles());

/**
 * Runs one request with `@coffer/crypto`. Never throws: failures become `ok: false` answers, so
 * the worker always answers every id. Shared by the worker and the in-process fallback.
 *
 * Memory: a chunk is ~95 MiB, and a worker's garbage collector may take seconds to notice buffers
 * it no longer needs. The transfer paths therefore release each chunk-sized buffer of their own
 * the moment it has been used (see `releaseBuffer`), so the worker holds only the chunks it is
 * working on.
 */
export async function processCryptoRequest(
  request: CryptoRequest,
  onProgress?: (bytes: number, total?: number | null) => void,
  parts: PartStore = thisThreadParts,
): Promise<CryptoResponse> {
  const { id } = request;
  try {
    switch (request.op) {
      case 'download':
        await runDownloadJob(request.job, request.port);
        return { id, ok: true, data: new ArrayBuffer(0) };
      case 'decrypt': {
        const { key, index, isLast } = request;
        const decrypting = decryptChunk(key, index, isLast, new Uint8Array(request.data));
        // WebCrypto copied the input when called: it can go before the decryption ends.
        releaseBuffer(request.data);
        return { id, ok: true, data: wholeBuffer(await decrypting) };
      }
      case 'encrypt-slice': {
        const sealed = await encryptSlice(request, onProgress);
        return {
          id,
          ok: true,
          data: wholeBuffer(sealed.ciphertext),
          iv: wholeBuffer(sealed.iv),
          ...(sealed.hash === undefined ? {} : { hash: wholeBuffer(sealed.hash) }),
        };
      }
      case 'seal-part': {
        if (request.hashPlaintext !== 'sha256' && (await checkStreamingGcm())) {
          const { size, sealed } = await parts.holdSealing(id, (writer) =>
            sealPartInSlices(request, writer, onProgress),
          );
          return {
            id,
            ok: true,
            data: new ArrayBuffer(0),
            size,
            ...(sealed.hash === undefined ? {} : { hash: wholeBuffer(sealed.hash) }),
          };
        }
        // The whole-chunk computation: where the streaming self-test failed, and for resume records
        // hashed whole (`sha256`), which need the whole chunk at once anyway.
        const sealed = await encryptSlice(request, onProgress);
        const size = await parts.hold(id, sealed.iv, sealed.ciphertext);
        // The file or the Blob holds a copy: the chunk-sized output goes now, not at the next collection.
        releaseBuffer(sealed.ciphertext.buffer);
        return {
          id,
          ok: true,
          data: new ArrayBuffer(0),
          size,
          ...(sealed.hash === undefined ? {} : { hash: wholeBuffer(sealed.hash) }),
        };
      }
      case 'send-part':
        return {
          id,
          ok: true,
          data: new ArrayBuffer(0),
          sent: await parts.send(request, onProgress),
        };
      case 'cancel-send':
        parts.cancel(request.request);
        return { id, ok: true, data: new ArrayBuffer(0) };
      case 'drop-part':
        parts.drop(request.part);
        return { id, ok: true, data: new ArrayBuffer(0) };
      case 'status':
        return { id, ok: true, data: new ArrayBuffer(0), streaming: await checkStreamingGcm() };
    }
  } catch (cause) {
    return { id, ok: false, error: describeFailure(cause) };
  }
}

/**
 * Seals the request's chunk slice by slice into `writer` (`seal-in-slices.ts`), reading each slice
 * into one slice-sized read buffer of this thread's pool.
 */
async function sealPartInSlices(
  request: Extract<CryptoRequest, { op: 'seal-part' }>,
  writer: PartWriter,
  onRead: ((bytesRead: number) => void) | undefined,
): Promise<{ hash?: Uint8Array<ArrayBuffer> }> {
  let buffer = readBuffers.take(SEAL_SLICE_BYTES);
  try {
    const sealed = await sealInSlices(
      {
        key: request.key,
        index: request.index,
        isLast: request.isLast,
        source: request.source.slice(request.start, request.end),
        readBuffer: buffer,
        ...(request.hashPlaintext === 'sha256-pieces' ? { hashScheme: 'sha256-pieces' as const } : {}),
        ...(request.reportRead === true && onRead !== undefined ? { onRead } : {}),
      },
      writer,
    );
    buffer = sealed.readBuffer;
    return sealed.hash === undefined ? {} : { hash: sealed.hash };
  } finally {
    readBuffers.give(buffer);
  }
}

/** A part file could not take the part's bytes (no space, a quota): the part goes to a Blob instead. */
class PartFileError extends Error {
  constructor(cause: unknown) {
    super('The part file could not be written', { cause });
    this.name = 'PartFileError';
  }
}

/**
 * Reads the slice into a reused read buffer, starts the encryption (WebCrypto copies its input when
 * called) and the hash, and gives the buffer back once the hash has read it: the next chunk of the
 * upload lands in the same memory. The ciphertext is WebCrypto's output.
 */
async function encryptSlice(
  request: Extract<CryptoRequest, { op: 'encrypt-slice' | 'seal-part' }>,
  onRead: ((bytesRead: number) => void) | undefined,
): Promise<{
  ciphertext: Uint8Array<ArrayBuffer>;
  iv: Uint8Array<ArrayBuffer>;
  hash?: Uint8Array<ArrayBuffer>;
}> {
  const { key, index, isLast, start, end } = request;
  const slice = request.source.slice(start, end);
  let buffer = readBuffers.take(end - start);
  try {
    const plaintext = await readSliceInto(slice, buffer, request.reportRead === true ? onRead : undefined);
    buffer = plaintext.buffer;
    const sealing = sealChunk(key, index, isLast, plaintext);
    // A rejection is awaited below; until then it must not count as unhandled.
    sealing.catch(() => undefined);
    const hash =
      request.hashPlaintext === undefined ? undefined : await hashChunk(request.hashPlaintext, plaintext);
    const sealed = await sealing;
    return {
      ciphertext: sealed.ciphertextBytes,
      iv: sealed.ivBytes,
      ...(hash === undefined ? {} : { hash }),
    };
  } finally {
    readBuffers.give(buffer);
  }
}

/**
 * Sends held parts with XHR from this thread (one part as the body, or several joined, in a form if
 * asked): the parts never cross to the page, so each Blob has one JavaScript wrapper, this
 * thread's, which this thread's collector frees (the chunk-sized buffers WebCrypto allocates for
 * every chunk make it run). Fails like `sendUploadXhr`.
 */
async function sendParts(
  request: Extract<CryptoRequest, { op: 'send-part' }>,
  parts: Blob[],
  signal: AbortSignal,
  onProgress: ((bytesSent: number, total: number | null) => void) | undefined,
  createXhr: XhrFactory,
): Promise<SentPartAnswer> {
  const content = parts.length === 1 && parts[0] !== undefined ? parts[0] : new Blob(parts);
  let body: Blob | FormData = content;
  if (request.form !== undefined) {
    const form = new FormData();
    for (const [name, value] of request.form.fields) form.append(name, value);
    form.append(
      request.form.field,
      new Blob([content], { type: 'application/octet-stream' }),
      request.form.fileName,
    );
    body = form;
  }
  const answer = await sendUploadXhr(
    {
      method: request.method,
      url: request.url,
      headers: request.headers,
      body,
      signal,
      ...(onProgress === undefined ? {} : { onProgress }),
    },
    createXhr,
  );
  return { status: answer.status, responseText: answer.responseText, etag: answer.header('ETag') };
}

/** The chunk's identity for resumable uploads, in the scheme their record uses. */
function hashChunk(scheme: ChunkHashScheme, plaintext: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  switch (scheme) {
    case 'sha256-pieces':
      return sha256PieceList(plaintext);
    case 'sha256':
      // Records written before the piece list: WebCrypto copies the whole chunk for this one.
      return sha256(plaintext);
  }
}

/** The bytes as a buffer of their own, so it can be transferred without carrying anything else. */
function wholeBuffer(bytes: Uint8Array<ArrayBuffer>): ArrayBuffer {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes.buffer
    : bytes.slice().buffer;
}
