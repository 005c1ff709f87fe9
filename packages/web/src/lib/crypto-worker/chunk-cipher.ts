import { IntegrityError, type PieceIdentity } from '@coffer/crypto';
import type { DownloadHost, DownloadJob } from '../transfers/download/download-run';
import { TransferAbortedError, TransferError } from '../transfers/transfer-errors';
import type { XhrAnswer, XhrUploadRequest } from '../transfers/upload-xhr';
import type { CryptoFailure, CryptoResponse, PartsForm, SliceRequest } from './protocol';

/**
 * Encrypts and decrypts single chunks of the coffer-v1 format off the main thread.
 *
 * Ownership: the `ArrayBuffer` passed in is transferred and detached after the call, so the
 * caller must not use it again; the returned bytes own their buffer.
 */
export interface ChunkCipher {
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
  /**
   * Reads `source[start, end)` (a slice of the user's File) in the worker and encrypts it as chunk
   * `index` (AES-GCM under `fileKey` with the chunk's AAD), so the page never reads file content.
   * The chunk is `iv` followed by `ciphertext` (which ends with the tag; 28 bytes more than the
   * plaintext in all), answered apart so no chunk-sized concatenation runs.
   * Bytes, not a Blob: a Blob made in the worker would keep its memory until the garbage collectors
   * of both threads happen to run; the page turns these bytes into the part's Blob itself
   * (see `upload/store.ts` › `partBlob`). `onRead`, if given, hears the bytes of the slice read so far while
   * the worker reads it (about every 1 %), the longest part of a chunk on a slow disk or machine.
   */
  encryptSlice(
    fileKey: CryptoKey,
    index: number,
    isLast: boolean,
    source: Blob,
    start: number,
    end: number,
    options?: EncryptSliceOptions,
  ): Promise<EncryptedSlice>;
  /**
   * Reads and encrypts like {@link encryptSlice}, but the part (`iv || ciphertext`) stays in the
   * worker, which sends it itself (`SealedPart.send`): the page never holds or copies it. Missing
   * where the cipher runs on the current thread: the page then builds and sends the part's Blob.
   */
  sealPart?: (...slice: Parameters<ChunkCipher['encryptSlice']>) => Promise<SealedPart>;
  /**
   * POSTs sealed parts, in order, as the file of one multipart/form-data body (after the form's text
   * fields) from the worker that holds them: a direct upload. Resolves and fails as `SealedPart.send`
   * does; the parts stay held until released. Present where `sealPart` is.
   */
  sendForm?: (parts: readonly SealedPart[], request: PartsFormRequest) => Promise<XhrAnswer>;
  /**
   * Runs a whole download (fetch, resume, cut, decrypt, save) off the page's main thread, asking
   * `host` for headers and the save target and telling it the progress. Missing where the cipher
   * runs on the current thread: the download then runs the same pipeline here.
   */
  runDownload?: (job: DownloadJob, host: DownloadHost) => Promise<void>;
  /**
   * Runs a download's fetch and verify stages in the worker and hands each verified chunk over `feed`
   * to the download service worker, which decrypts and saves it (`download-feed.ts`); asks `host`
   * for headers only. Resolves when the feed ended. Present where `runDownload` is.
   */
  feedDownload?: (job: DownloadJob, host: DownloadHost, feed: MessagePort) => Promise<void>;
  /**
   * True where the worker computes chunks slice by slice (its streaming AES-GCM self-test passed),
   * false where it uses one WebCrypto call per whole chunk (the benchmark reports it).
   */
  streaming?: () => Promise<boolean>;
  /** Frees the worker; pending calls fail. */
  dispose(): void;
}

/**
 * How a resumable upload identifies a chunk's plaintext (`PieceIdentity` of `@coffer/crypto`):
 * `gmac-pieces` (keyed, every record written now) and `sha256-pieces` (records written in sessions
 * 21–26) never have WebCrypto copy the whole chunk; `sha256` (SHA-256 of the whole chunk) is what
 * records written before those hold.
 */
export type ChunkHashScheme = 'sha256' | 'sha256-pieces' | 'gmac-pieces';

/** A scheme with what it needs: `gmac-pieces` the upload's own key (`generateChunkIdentityKey`). */
export type ChunkHashing =
  | { readonly scheme: 'sha256' | 'sha256-pieces' }
  | { readonly scheme: 'gmac-pieces'; readonly key: CryptoKey };

/** The piece identity of chunk `chunkIndex` in `hashing`; null for `sha256` (whole-chunk). */
export function pieceIdentityFor(hashing: ChunkHashing, chunkIndex: number): PieceIdentity | null {
  switch (hashing.scheme) {
    case 'sha256':
      return null;
    case 'sha256-pieces':
      return { scheme: 'sha256-pieces' };
    case 'gmac-pieces':
      return { scheme: 'gmac-pieces', key: hashing.key, chunkIndex };
  }
}

export interface EncryptSliceOptions {
  /** Also answer the hash of the slice's plaintext in this scheme (`plaintextHash`). */
  readonly hashPlaintext?: ChunkHashing;
  /** Called with the bytes of the slice read so far while the slice is read (progress). */
  readonly onRead?: (bytesRead: number) => void;
}

/** A sealed chunk in two pieces: the part is `iv || ciphertext`. */
export interface EncryptedSlice {
  readonly iv: Uint8Array<ArrayBuffer>;
  /** AES-GCM output: ciphertext followed by the 16-byte tag. */
  readonly ciphertext: Uint8Array<ArrayBuffer>;
  /** The plaintext's hash in the scheme asked for (`hashPlaintext`). */
  readonly plaintextHash?: Uint8Array<ArrayBuffer>;
}

/** What a part's PUT needs besides its body. */
export type PartSendRequest = Omit<XhrUploadRequest, 'body' | 'method'>;

/** What a direct upload's POST needs besides the parts: the form around them. */
export interface PartsFormRequest extends PartSendRequest {
  readonly form: PartsForm;
}

/** An encrypted part, held where it is sent from (see {@link ChunkCipher.sealPart}). */
export interface SealedPart {
  /** Bytes of the part: the IV, the ciphertext and the tag. */
  readonly size: number;
  /** The plaintext's hash in the scheme asked for (`hashPlaintext`). */
  readonly plaintextHash?: Uint8Array<ArrayBuffer>;
  /**
   * PUTs the part to `request.url`, as `sendUploadXhr` would: resolves with a 2xx answer, reports
   * the bytes sent, calls `onUnauthorized` on a 401, and fails with the same errors. May be called
   * again after a failure (a retry sends the same bytes).
   */
  send(request: PartSendRequest): Promise<XhrAnswer>;
  /** Frees the part; it cannot be sent afterwards. Idempotent. */
  release(): void;
}

/** The crypto worker failed for a reason other than integrity (it crashed, a key was unusable…). */
export class CryptoWorkerError extends Error {
  readonly code = 'CRYPTO_WORKER_FAILED';

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CryptoWorkerError';
  }
}

/**
 * The worker no longer holds a sealed part: it was stopped (a crash, `dispose`) and a new one started
 * since. The chunk can be sealed again (`upload/send.ts` has the run do it, within its retries).
 */
export class PartLostError extends CryptoWorkerError {
  constructor() {
    super('The encryption worker no longer holds the encrypted part');
    this.name = 'PartLostError';
  }
}

/** The main-thread error for a failure reported by the worker: integrity keeps its own type. */
export function errorFromFailure(failure: CryptoFailure): Error {
  switch (failure.kind) {
    case 'integrity':
      return new IntegrityError();
    case 'aborted':
      return new TransferAbortedError(failure.message);
    case 'transfer':
      return new TransferError(failure.code ?? 'HTTP', failure.message, {
        status: failure.status ?? undefined,
      });
    case 'failed':
      return new CryptoWorkerError(`${failure.name}: ${failure.message}`);
  }
}

/** An error as it crosses to the other thread (see {@link errorFromFailure}). */
export function describeFailure(cause: unknown): CryptoFailure {
  if (cause instanceof IntegrityError) {
    return { kind: 'integrity', name: cause.name, message: cause.message };
  }
  if (cause instanceof TransferAbortedError)
    return { kind: 'aborted', name: cause.name, message: cause.message };
  if (cause instanceof TransferError) {
    return {
      kind: 'transfer',
      name: cause.name,
      message: cause.message,
      code: cause.code,
      status: cause.status,
    };
  }
  if (cause instanceof Error) return { kind: 'failed', name: cause.name, message: cause.message };
  return { kind: 'failed', name: 'Error', message: String(cause) };
}

/** An answer's buffers are transferred, never copied. */
export function responseTransfer(response: CryptoResponse): Transferable[] {
  if (!response.ok) return [];
  return [response.data, response.iv, response.hash].filter((b): b is ArrayBuffer => b !== undefined);
}

/**
 * The `encrypt-slice` (or `seal-part`) request for {@link ChunkCipher.encryptSlice}'s arguments
 * (each cipher adds its id).
 */
export function encryptSliceRequest<Op extends 'encrypt-slice' | 'seal-part'>(
  key: CryptoKey,
  index: number,
  isLast: boolean,
  source: Blob,
  start: number,
  end: number,
  options: EncryptSliceOptions | undefined,
  op: Op,
): Omit<SliceRequest, 'id'> & { readonly op: Op } {
  return {
    op,
    key,
    index,
    isLast,
    source,
    start,
    end,
    reportRead: options?.onRead !== undefined,
    ...(options?.hashPlaintext === undefined ? {} : { hashPlaintext: options.hashPlaintext }),
  };
}

/** The two pieces of an `encrypt-slice` answer. */
export function answerSlice(
  data: ArrayBuffer,
  iv: ArrayBuffer | undefined,
  hash?: ArrayBuffer,
): EncryptedSlice {
  if (iv === undefined) throw new CryptoWorkerError('The encryption worker answered no IV');
  return {
    iv: new Uint8Array(iv),
    ciphertext: new Uint8Array(data),
    ...(hash === undefined ? {} : { plaintextHash: new Uint8Array(hash) }),
  };
}
