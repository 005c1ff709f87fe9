/**
 * Messages between the page and the crypto worker. One request encrypts or decrypts one chunk of
 * the coffer-v1 format. `id` pairs an answer with its request: the worker handles requests
 * concurrently, so answers may arrive out of order.
 *
 * Two shapes of work:
 * - bytes in, bytes out (`encrypt`, `decrypt`): the input buffer is transferred (not copied) to the
 *   worker and the result's buffer is transferred back;
 * - the transfer paths: `encrypt-slice` reads the plaintext slice of the user's `File` in the worker
 *   (the File crosses as a reference) and answers the encrypted bytes, transferred; `decrypt-to-blob`
 *   answers the verified plaintext as a `Blob`, which crosses `postMessage` as a reference whatever
 *   its size, so the page never copies a downloaded chunk.
 */

export type CryptoOperation = 'encrypt' | 'decrypt' | 'encrypt-slice' | 'decrypt-to-blob';

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
      /** encrypt: answers `iv || ciphertext || tag`; decrypt: answers the plaintext. */
      readonly op: 'encrypt' | 'decrypt';
      /** encrypt: the plaintext chunk; decrypt: `iv || ciphertext || tag`. */
      readonly data: ArrayBuffer;
    })
  | (ChunkPosition & {
      /** Reads `source[start, end)`; answers `ciphertext || tag` in `data` and the IV in `iv` (transferred). */
      readonly op: 'encrypt-slice';
      readonly source: Blob;
      readonly start: number;
      readonly end: number;
    })
  | (ChunkPosition & {
      /** Answers the verified plaintext as a Blob. */
      readonly op: 'decrypt-to-blob';
      readonly data: ArrayBuffer;
    });

/** Why a request failed: `integrity` is a tag that did not verify; anything else is `failed`. */
export type CryptoFailureKind = 'integrity' | 'failed';

export interface CryptoFailure {
  readonly kind: CryptoFailureKind;
  readonly name: string;
  readonly message: string;
}

/**
 * `data` is a Blob for `decrypt-to-blob` and an ArrayBuffer for the others. `encrypt-slice` answers
 * the IV apart (`iv`), so the chunk-sized ciphertext is never copied just to put 12 bytes before it.
 */
export type CryptoResponse =
  | { readonly id: number; readonly ok: true; readonly data: ArrayBuffer | Blob; readonly iv?: ArrayBuffer }
  | { readonly id: number; readonly ok: false; readonly error: CryptoFailure };
