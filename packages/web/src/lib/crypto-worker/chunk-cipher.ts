import { IntegrityError } from '@coffer/crypto';
import type { CryptoFailure } from './protocol';

/**
 * Encrypts and decrypts single chunks of the coffer-v1 format off the main thread.
 *
 * Ownership: the `ArrayBuffer` passed in is transferred and detached after the call, so the
 * caller must not use it again; the returned bytes own their buffer.
 */
export interface ChunkCipher {
  /** Returns `iv || AES-GCM(fileKey, iv, aad(index, isLast), plaintext)` (plaintext + 28 bytes). */
  encrypt(
    fileKey: CryptoKey,
    index: number,
    isLast: boolean,
    plaintext: ArrayBuffer,
  ): Promise<Uint8Array<ArrayBuffer>>;
  /**
   * Returns the plaintext of chunk `index`, only once its tag has verified.
   * @throws {IntegrityError} the chunk is corrupted, truncated, out of place or under another key.
   */
  decrypt(
    fileKey: CryptoKey,
    index: number,
    isLast: boolean,
    encrypted: ArrayBuffer,
  ): Promise<Uint8Array<ArrayBuffer>>;
  /** Frees the worker; pending calls fail. */
  dispose(): void;
}

/** The crypto worker failed for a reason other than integrity (it crashed, a key was unusable…). */
export class CryptoWorkerError extends Error {
  readonly code = 'CRYPTO_WORKER_FAILED';

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CryptoWorkerError';
  }
}

/** The main-thread error for a failure reported by the worker: integrity keeps its own type. */
export function errorFromFailure(failure: CryptoFailure): Error {
  return failure.kind === 'integrity'
    ? new IntegrityError()
    : new CryptoWorkerError(`${failure.name}: ${failure.message}`);
}
