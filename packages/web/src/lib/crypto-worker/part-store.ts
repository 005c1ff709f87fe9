import { slicesOf } from '../transfers/buffers';
import { TransferError } from '../transfers/transfer-errors';
import { createBrowserXhr, sendUploadXhr, type XhrFactory } from '../transfers/upload-xhr';
import { PartLostError } from './chunk-cipher';
import type { PartFiles } from './part-files';
import type { CryptoRequest, SentPartAnswer } from './protocol';
import type { PartWriter } from './seal-in-slices';

/**
 * The upload's store and send stages in the crypto worker (docs/transfers.md, "Pipeline"): the
 * parts this thread sealed, held until sent (a file of the origin private file system where
 * `part-files.ts` can make one, else a Blob), and sent from here with XHR.
 */

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

/** A part file could not take the part's bytes (no space, a quota): the part goes to a Blob instead. */
class PartFileError extends Error {
  constructor(cause: unknown) {
    super('The part file could not be written', { cause });
    this.name = 'PartFileError';
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
