import { CodedError } from '../../coded-error.js';
import type { ReadBuffers } from './read-buffers.js';

/**
 * Where encrypted file content lives. The server only ever stores ciphertext, so a blob store
 * knows nothing about files: it keeps opaque byte sequences under keys.
 *
 * Implementations: `blob-store.fs.ts` (a folder in the data dir) and `blob-store.s3.ts` (any
 * S3-compatible store). Both pass the one contract suite in `blob-store.contract.ts`.
 *
 * Bodies are `AsyncIterable<Uint8Array>` in both directions so that no caller ever holds a whole
 * object in memory: a Node `Readable`, a web `ReadableStream` (Node 20) and an async generator all
 * qualify. Chunks handed to a store must not be modified after they are yielded.
 */
export interface BlobStore {
  /**
   * Prepares the store, removing what a crashed process left behind (fs: half-written temporaries).
   * Every other method does this on first use; the server calls it at start so a restart cleans up at
   * once. Optional: a store with nothing to prepare (S3) leaves it out.
   */
  open?(): Promise<void>;

  /**
   * Stores `body` under `key`, replacing any previous object, atomically: readers see either the
   * old object or the complete new one. `body` must yield exactly `opts.size` bytes, else
   * {@link BlobSizeMismatchError} and nothing is stored. If `body` throws, that error propagates
   * and nothing is stored.
   */
  put(key: string, body: AsyncIterable<Uint8Array>, opts: { size: number }): Promise<void>;

  /** Starts a multipart upload; nothing is visible under `key` until {@link completeMultipart}. */
  createMultipart(key: string): Promise<{ uploadId: string }>;

  /**
   * Stores part `partNumber` (1..{@link MAX_PART_NUMBER}) of an upload; re-sending a part number
   * replaces the earlier part (and its etag). `body` must yield exactly `opts.size` bytes, else
   * {@link BlobSizeMismatchError} and the part is not stored.
   * Throws {@link MultipartUploadNotFoundError} for an unknown, aborted or completed upload.
   * S3 requires every part but the last to be at least {@link S3_MIN_PART_SIZE} bytes.
   */
  uploadPart(
    key: string,
    uploadId: string,
    partNumber: number,
    body: AsyncIterable<Uint8Array>,
    opts: { size: number },
  ): Promise<{ etag: string }>;

  /**
   * Publishes the object made of `parts`, in ascending part-number order, atomically. Every
   * `etag` must be the one returned for the part's latest upload, else {@link InvalidPartError}
   * and nothing becomes visible. Parts uploaded but not listed are discarded.
   */
  completeMultipart(key: string, uploadId: string, parts: readonly CompletedPart[]): Promise<void>;

  /** Discards an upload and its parts. Idempotent: unknown or finished uploads are not an error. */
  abortMultipart(key: string, uploadId: string): Promise<void>;

  /**
   * Reads an object, or the inclusive byte range of it. An `end` past the last byte is clamped
   * (as HTTP does); a `start` at or past the end of the object is
   * {@link BlobRangeNotSatisfiableError} (always, for an empty object).
   * Throws {@link BlobNotFoundError} if there is no object under `key`.
   *
   * The body must be consumed or closed (`break` out of `for await`, or call `return()` on its
   * iterator): with S3 it holds an open connection.
   */
  get(key: string, range?: BlobRange, options?: BlobReadOptions): Promise<BlobReadResult>;

  /** Size of the object under `key`, or `null` if there is none. */
  stat(key: string): Promise<BlobStat | null>;

  /** Removes the object under `key`. Idempotent. */
  delete(key: string): Promise<void>;
}

/** An inclusive byte range, as in HTTP `Range: bytes=start-end`. */
export interface BlobRange {
  start: number;
  end: number;
}

export interface BlobReadOptions {
  /**
   * Buffers the store may read into (the fs store does; S3's body arrives in the SDK's own). A chunk
   * read into one is valid only until the consumer hands that buffer out again.
   */
  buffers?: ReadBuffers;
}

export interface BlobReadResult {
  body: AsyncIterable<Uint8Array>;
  /** Bytes `body` yields: the length of the returned range. */
  size: number;
  /** Size of the whole object. */
  totalSize: number;
}

export interface BlobStat {
  size: number;
}

export interface CompletedPart {
  partNumber: number;
  etag: string;
}

/** S3's limit: every part of a multipart upload except the last must be at least 5 MiB. */
export const S3_MIN_PART_SIZE = 5 * 1024 * 1024;
/** S3's limit on part numbers (they start at 1). */
export const MAX_PART_NUMBER = 10_000;
/** Keys are path-like; S3 allows 1024 bytes, we keep well inside that and inside file-name limits. */
export const MAX_BLOB_KEY_LENGTH = 512;
const MAX_KEY_SEGMENT_LENGTH = 200;
const KEY_PATTERN = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*$/;

/** Base of every error a blob store throws on purpose. */
export abstract class BlobStoreError extends CodedError {}

export class InvalidBlobKeyError extends BlobStoreError {
  readonly code = 'BLOB_INVALID_KEY';
  constructor(readonly key: string) {
    super(`Invalid blob key ${JSON.stringify(key.slice(0, 100))}`);
  }
}

export class BlobNotFoundError extends BlobStoreError {
  readonly code = 'BLOB_NOT_FOUND';
  constructor(readonly key: string) {
    super(`No blob under key ${key}`);
  }
}

/** The body did not yield the declared number of bytes. `actual` is a lower bound when too long. */
export class BlobSizeMismatchError extends BlobStoreError {
  readonly code = 'BLOB_SIZE_MISMATCH';
  constructor(
    readonly expected: number,
    readonly actual: number,
  ) {
    super(
      actual > expected
        ? `Body is longer than the declared ${expected} bytes`
        : `Body has ${actual} bytes, declared ${expected}`,
    );
  }
}

export class BlobRangeNotSatisfiableError extends BlobStoreError {
  readonly code = 'BLOB_RANGE_NOT_SATISFIABLE';
  constructor(
    readonly range: BlobRange,
    readonly totalSize: number | undefined,
  ) {
    super(
      `Range ${range.start}-${range.end} not satisfiable` +
        (totalSize === undefined ? '' : ` for a blob of ${totalSize} bytes`),
    );
  }
}

/** The upload id is unknown for this key, or the upload was aborted or completed. */
export class MultipartUploadNotFoundError extends BlobStoreError {
  readonly code = 'BLOB_UPLOAD_NOT_FOUND';
  constructor(readonly uploadId: string) {
    super(`No multipart upload ${uploadId.slice(0, 100)}`);
  }
}

/** A part list that cannot be completed: wrong etag, missing part, bad order or number, too small. */
export class InvalidPartError extends BlobStoreError {
  readonly code = 'BLOB_INVALID_PART';
}

/** A read ended early or stored data does not match its record (I/O trouble, damage at rest). */
export class BlobReadError extends BlobStoreError {
  readonly code = 'BLOB_READ_FAILED';
}

/**
 * Keys are `/`-separated segments of `[A-Za-z0-9_-]`: no dots (so no `..`), no leading, trailing
 * or doubled `/`, at most {@link MAX_BLOB_KEY_LENGTH} characters.
 */
export function assertValidKey(key: string): void {
  if (key.length > MAX_BLOB_KEY_LENGTH || !KEY_PATTERN.test(key)) throw new InvalidBlobKeyError(key);
  if (key.split('/').some((segment) => segment.length > MAX_KEY_SEGMENT_LENGTH)) {
    throw new InvalidBlobKeyError(key);
  }
}

/** Sizes are caller-computed; a bad one is a programming error, not a mismatch. */
export function assertValidSize(size: number): void {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`Invalid blob size ${size}`);
}

export function assertValidPartNumber(partNumber: number): void {
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PART_NUMBER) {
    throw new InvalidPartError(`Part number ${partNumber} is outside 1..${MAX_PART_NUMBER}`);
  }
}

/** Checks what can be checked without the store: a non-empty list in strictly ascending order. */
export function assertValidPartList(parts: readonly CompletedPart[]): void {
  if (parts.length === 0) throw new InvalidPartError('A multipart upload needs at least one part');
  let previous = 0;
  for (const { partNumber, etag } of parts) {
    assertValidPartNumber(partNumber);
    if (partNumber <= previous) throw new InvalidPartError('Parts must be listed in ascending order');
    if (etag.length === 0) throw new InvalidPartError(`Part ${partNumber} has no etag`);
    previous = partNumber;
  }
}

/**
 * Resolves a requested range against the object size: clamps `end`, rejects what cannot be
 * served. Returns the inclusive range actually served.
 */
export function resolveRange(range: BlobRange, totalSize: number): BlobRange {
  assertWellFormedRange(range);
  if (range.start >= totalSize) throw new BlobRangeNotSatisfiableError(range, totalSize);
  return { start: range.start, end: Math.min(range.end, totalSize - 1) };
}

/** Rejects ranges that no object could satisfy, before asking a store. */
export function assertWellFormedRange(range: BlobRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new BlobRangeNotSatisfiableError(range, undefined);
  }
}
