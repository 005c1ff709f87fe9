/**
 * Messages between the page and the crypto worker. One request encrypts or decrypts one chunk of
 * the coffer-v1 format; its `data` buffer is transferred (not copied) to the worker, and the
 * result's buffer is transferred back. `id` pairs an answer with its request: the worker handles
 * requests concurrently, so answers may arrive out of order.
 */

export type CryptoOperation = 'encrypt' | 'decrypt';

export interface CryptoRequest {
  readonly id: number;
  readonly op: CryptoOperation;
  /** The file key: a CryptoKey is structured-cloneable, extractable or not. */
  readonly key: CryptoKey;
  /** Chunk index from 0 (bound into the chunk's AAD). */
  readonly index: number;
  /** True exactly for the file's final chunk (bound into the AAD). */
  readonly isLast: boolean;
  /** encrypt: the plaintext chunk; decrypt: `iv || ciphertext || tag`. */
  readonly data: ArrayBuffer;
}

/** Why a request failed: `integrity` is a tag that did not verify; anything else is `failed`. */
export type CryptoFailureKind = 'integrity' | 'failed';

export interface CryptoFailure {
  readonly kind: CryptoFailureKind;
  readonly name: string;
  readonly message: string;
}

export type CryptoResponse =
  | { readonly id: number; readonly ok: true; readonly data: ArrayBuffer }
  | { readonly id: number; readonly ok: false; readonly error: CryptoFailure };
