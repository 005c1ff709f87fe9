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
  | (ChunkPosition & {
      /** Answers the chunk's plaintext, once its tag has verified. */
      readonly op: 'decrypt';
      /** `iv || ciphertext || tag`. */
      readonly data: ArrayBuffer;
    })
  | (ChunkPosition & {
      /** Reads `source[start, end)`; answers `ciphertext || tag` in `data` and the IV in `iv` (transferred). */
      readonly op: 'encrypt-slice';
      readonly source: Blob;
      readonly start: number;
      readonly end: number;
      /** Report the bytes read with `CryptoReadProgress` messages while the slice is read. */
      readonly reportRead?: boolean;
      /** Also answer the SHA-256 of the slice's plaintext in `sha256` (resumable uploads check it). */
      readonly hashPlaintext?: boolean;
    });

/** Why a request failed: `integrity` is a tag that did not verify; anything else is `failed`. */
export type CryptoFailureKind = 'integrity' | 'failed';

export interface CryptoFailure {
  readonly kind: CryptoFailureKind;
  readonly name: string;
  readonly message: string;
}

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
      readonly sha256?: ArrayBuffer;
    }
  | { readonly id: number; readonly ok: false; readonly error: CryptoFailure };

/**
 * Worker → page while an `encrypt-slice` request reads its slice (only when the page asked for it
 * with `reportRead`): the bytes of the slice read so far. The request's one answer still follows.
 */
export interface CryptoReadProgress {
  readonly id: number;
  readonly read: number;
}
