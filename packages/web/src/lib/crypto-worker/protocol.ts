import type { ChunkHashing } from './chunk-cipher';
import type { DownloadJob } from '../transfers/download/download-run';
import type { SinkTarget } from '../transfers/save/save-sink';
import type { TransferErrorCode } from '../transfers/transfer-errors';

/**
 * Messages between the page and the crypto worker. One request encrypts or decrypts one chunk of
 * the coffer-v1 format. `id` pairs an answer with its request: the worker handles requests
 * concurrently, so answers may arrive out of order.
 *
 * Buffers are transferred both ways, never copied (same process). `decrypt` takes the chunk's
 * bytes; `encrypt-slice` takes the user's `File` (a reference) and a range, and reads the
 * slice in the worker, so uploads never read file content on the page's main thread.
 */

interface ChunkPosition {
  readonly id: number;
  /** The file key: a CryptoKey is structured-cloneable, extractable or not. */
  readonly key: CryptoKey;
  /** Chunk index from 0 (bound into the chunk's AAD). */
  readonly index: number;
  /** True exactly for the file's final chunk (bound into the AAD). */
  readonly isLast: boolean;
}

export type CryptoRequest =
  | {
      readonly id: number;
      /**
       * Runs a whole download in the worker (`download-job.ts`); answered once it ended, with an
       * empty `data` or the failure. Everything else goes over `port` (see `DownloadPortMessage`).
       */
      readonly op: 'download';
      readonly job: DownloadJob;
      readonly port: MessagePort;
    }
  | {
      readonly id: number;
      /**
       * A download's fetch and verify stages (`download-feed.ts`): each verified chunk goes over
       * `feed` to the download service worker; `port` carries the page's calls (headers). Answered
       * once the feed ended (its failures go over `feed`, not here).
       */
      readonly op: 'feed-download';
      readonly job: DownloadJob;
      readonly port: MessagePort;
      readonly feed: MessagePort;
    }
  | (ChunkPosition & {
      /** Answers the chunk's plaintext, once its tag has verified. */
      readonly op: 'decrypt';
      /** `iv || ciphertext || tag`. */
      readonly data: ArrayBuffer;
    })
  | (SliceRequest & {
      /** Reads `source[start, end)`; answers `ciphertext || tag` in `data` and the IV in `iv` (transferred). */
      readonly op: 'encrypt-slice';
    })
  | (SliceRequest & {
      /**
       * Reads and encrypts like `encrypt-slice`, but keeps the part (`iv || ciphertext || tag`) in
       * the worker as a Blob, under this request's id, for `send-part`; answers its `size` (and `hash`).
       * The part stays until `drop-part` names it.
       */
      readonly op: 'seal-part';
    })
  | {
      readonly id: number;
      /**
       * Sends the parts held under `parts`, in order, as one body with XHR from the worker (a
       * multipart part is one part; a direct upload's chunks go together inside `form`); reports the
       * bytes sent with `CryptoProgress` messages and answers the 2xx answer in `sent`, or the
       * failure (a `TransferError`'s code and status, as `sendUploadXhr` maps them).
       */
      readonly op: 'send-part';
      readonly parts: readonly number[];
      readonly method: 'PUT' | 'POST';
      readonly url: string;
      readonly headers: Readonly<Record<string, string>>;
      /** Sends a multipart/form-data body instead: these text fields, then the parts as one file. */
      readonly form?: PartsForm;
    }
  | {
      readonly id: number;
      /** Aborts the `send-part` request `request` (it then fails as aborted); answered at once. */
      readonly op: 'cancel-send';
      readonly request: number;
    }
  | {
      readonly id: number;
      /** Frees the part held under `part` (nothing if there is none); answered at once. */
      readonly op: 'drop-part';
      readonly part: number;
    }
  | {
      readonly id: number;
      /**
       * How this worker computes chunks: answers `streaming` (true: slice by slice, its streaming
       * AES-GCM self-test passed; false: one WebCrypto call per whole chunk).
       */
      readonly op: 'status';
    };

/** What `encrypt-slice` and `seal-part` read and encrypt. */
export interface SliceRequest extends ChunkPosition {
  readonly source: Blob;
  readonly start: number;
  readonly end: number;
  /** Report the bytes read with `CryptoProgress` messages while the slice is read. */
  readonly reportRead?: boolean;
  /** Also answer the hash of the slice's plaintext in `hash` (resumable uploads check it). */
  readonly hashPlaintext?: ChunkHashing;
}

/** A form around the parts (`send-part`): `fields` first, then the parts as file `field` named `fileName`. */
export interface PartsForm {
  readonly fields: readonly (readonly [string, string])[];
  readonly field: string;
  readonly fileName: string;
}

/** A part's 2xx answer, as `send-part` answers it (XHR's answer does not cross threads). */
export interface SentPartAnswer {
  readonly status: number;
  readonly responseText: string;
  /** The answer's `ETag` header. */
  readonly etag: string | null;
}

/**
 * Why a request failed: `integrity` is a tag that did not verify; `transfer` a `TransferError`
 * (`aborted`: a `TransferAbortedError`) with its code and status; anything else is `failed`.
 */
export type CryptoFailureKind = 'integrity' | 'transfer' | 'aborted' | 'failed';

export interface CryptoFailure {
  readonly kind: CryptoFailureKind;
  readonly name: string;
  readonly message: string;
  readonly code?: TransferErrorCode;
  readonly status?: number | null;
}

/** Worker → page on a download's port. `call`s are answered with `return` or `throw` (same `seq`). */
export type DownloadWorkerMessage =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'fraction'; readonly done: number; readonly total: number }
  | { readonly type: 'call'; readonly seq: number; readonly call: DownloadCall }
  /** Service worker only: the answer to a keep-alive naming this download (it still runs there). */
  | { readonly type: 'alive' }
  /** Service worker only: the download ended (`failure` null: the file is complete). */
  | { readonly type: 'result'; readonly failure: CryptoFailure | null };

/**
 * What the worker asks of the page: fresh auth headers (before every request: a token may have
 * been renewed), the save target (opened only once the first answer arrived), and for the page
 * sink (Blob fallback) each write, the close and the abort.
 */
export type DownloadCall =
  | { readonly method: 'headers' }
  | { readonly method: 'open-sink' }
  | { readonly method: 'write'; readonly bytes: ArrayBuffer }
  | { readonly method: 'close' }
  | { readonly method: 'abort'; readonly failure: CryptoFailure };

/** Page → worker on a download's port. */
export type DownloadPageMessage =
  | { readonly type: 'cancel' }
  | { readonly type: 'return'; readonly seq: number; readonly value: unknown }
  | { readonly type: 'throw'; readonly seq: number; readonly failure: CryptoFailure };

/** The answer to `open-sink`: where the worker writes (`page`: post the plaintext to the page). */
export type WorkerSinkTarget = SinkTarget | { readonly kind: 'page' };

/**
 * `encrypt-slice` answers the IV apart (`iv`), so the chunk-sized ciphertext is never copied just
 * to put 12 bytes before it.
 */
export type CryptoResponse =
  | {
      readonly id: number;
      readonly ok: true;
      readonly data: ArrayBuffer;
      readonly iv?: ArrayBuffer;
      readonly hash?: ArrayBuffer;
      /** `seal-part`: bytes of the part it holds. */
      readonly size?: number;
      /** `send-part`: the server's answer. */
      readonly sent?: SentPartAnswer;
      /** `status`: true where chunks are computed slice by slice (streaming AES-GCM). */
      readonly streaming?: boolean;
    }
  | { readonly id: number; readonly ok: false; readonly error: CryptoFailure };

/**
 * Worker → page while a request runs: for `encrypt-slice` and `seal-part` (only when the page asked
 * with `reportRead`) the bytes of the slice read so far, for `send-part` the bytes of the part sent
 * so far. The request's one answer still follows.
 */
export interface CryptoProgress {
  readonly id: number;
  readonly progress: number;
  /** `send-part`: the whole body's bytes, where the browser knows them. */
  readonly total?: number | null;
}
