import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { BlobRange, BlobReadResult, BlobStore } from './blob-store.js';
import {
  BlobNotFoundError,
  BlobRangeNotSatisfiableError,
  BlobReadError,
  InvalidPartError,
  MultipartUploadNotFoundError,
  assertValidKey,
  assertValidPartList,
  assertValidPartNumber,
  assertValidSize,
  assertWellFormedRange,
  resolveRange,
} from './blob-store.js';
import { IO_CHUNK_SIZE, exactSize, sliceBytes } from './byte-streams.js';

/** How long connecting to the S3 endpoint may take before the request fails. */
const S3_CONNECTION_TIMEOUT_MS = 10_000;

export interface S3BlobStoreOptions {
  bucket: string;
  /** For S3-compatible stores (MinIO, R2, s3rver); AWS S3 when absent. */
  endpoint?: string | undefined;
  region: string;
  /** `https://host/bucket/key` instead of `https://bucket.host/key`; most non-AWS stores need it. */
  forcePathStyle: boolean;
  /** Absent: the SDK's default chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | undefined;
}

/** The SDK's logger, silenced: failures surface as typed errors, not console lines. */
const ignore = (): void => undefined;
const silentLogger = { trace: ignore, debug: ignore, info: ignore, warn: ignore, error: ignore };

/**
 * A blob store in an S3 bucket (AWS S3 or any S3-compatible store). Stateless, so any number of
 * API servers can share one bucket.
 *
 * Bodies stream straight through: uploads are sent with their declared `ContentLength` while a
 * counter checks the bytes on the way (a wrong size aborts the request, so S3 stores nothing),
 * downloads hand the HTTP response to the caller. Requests with a streaming body are never
 * retried by the SDK (it cannot rewind them); the client retries the part.
 *
 * Flexible checksums are only sent when an operation requires them: the content is already
 * authenticated end to end (AES-GCM), and the chunked-trailer encoding the SDK would otherwise
 * use is not understood by every S3-compatible store.
 */
export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const Bucket = options.bucket;
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: options.credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    logger: silentLogger,
    // An unreachable endpoint fails the request after 10 s instead of the OS's TCP timeout (minutes).
    // No idle-socket timeout: a download the user pauses keeps its S3 body idle for as long as it likes.
    requestHandler: { connectionTimeout: S3_CONNECTION_TIMEOUT_MS },
  });

  return {
    async put(key, body, { size }) {
      assertValidKey(key);
      assertValidSize(size);
      await sendWithBody(body, size, (Body, abortSignal) =>
        client.send(new PutObjectCommand({ Bucket, Key: key, Body, ContentLength: size }), { abortSignal }),
      );
    },

    async createMultipart(key) {
      assertValidKey(key);
      const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key: key }));
      if (UploadId === undefined) throw new Error('S3 returned no upload id');
      return { uploadId: UploadId };
    },

    async uploadPart(key, uploadId, partNumber, body, { size }) {
      assertValidKey(key);
      assertValidPartNumber(partNumber);
      assertValidSize(size);
      assertUploadId(uploadId);
      try {
        const { ETag } = await sendWithBody(body, size, (Body, abortSignal) =>
          client.send(
            new UploadPartCommand({
              Bucket,
              Key: key,
              UploadId: uploadId,
              PartNumber: partNumber,
              Body,
              ContentLength: size,
            }),
            { abortSignal },
          ),
        );
        if (ETag === undefined) throw new Error('S3 returned no etag for the part');
        return { etag: ETag };
      } catch (error) {
        throw isNoSuchUpload(error) ? new MultipartUploadNotFoundError(uploadId) : error;
      }
    },

    async completeMultipart(key, uploadId, parts) {
      assertValidKey(key);
      assertValidPartList(parts);
      assertUploadId(uploadId);
      const Parts = parts.map(({ partNumber, etag }) => ({ PartNumber: partNumber, ETag: etag }));
      try {
        await client.send(
          new CompleteMultipartUploadCommand({
            Bucket,
            Key: key,
            UploadId: uploadId,
            MultipartUpload: { Parts },
          }),
        );
      } catch (error) {
        if (isNoSuchUpload(error)) throw new MultipartUploadNotFoundError(uploadId);
        const name = errorName(error);
        if (name === 'InvalidPart' || name === 'InvalidPartOrder' || name === 'EntityTooSmall') {
          throw new InvalidPartError(`S3 refused the part list: ${name}`);
        }
        throw error;
      }
    },

    async abortMultipart(key, uploadId) {
      assertValidKey(key);
      if (uploadId.length === 0) return;
      try {
        await client.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId }));
      } catch (error) {
        if (!isNoSuchUpload(error)) throw error;
      }
    },

    async get(key, range?: BlobRange): Promise<BlobReadResult> {
      assertValidKey(key);
      if (range !== undefined) assertWellFormedRange(range);
      let output;
      try {
        output = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: key,
            Range: range === undefined ? undefined : `bytes=${range.start}-${range.end}`,
          }),
        );
      } catch (error) {
        if (isNotFound(error)) throw new BlobNotFoundError(key);
        if (range !== undefined && (errorName(error) === 'InvalidRange' || httpStatus(error) === 416)) {
          throw new BlobRangeNotSatisfiableError(range, undefined);
        }
        throw error;
      }
      const stream = output.Body;
      if (!(stream instanceof Readable)) throw new Error('Expected a Node stream from the S3 client');
      try {
        return readResult(stream, output.ContentLength, output.ContentRange, range);
      } catch (error) {
        stream.destroy();
        throw error;
      }
    },

    async stat(key) {
      assertValidKey(key);
      try {
        const { ContentLength } = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return { size: ContentLength ?? 0 };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async delete(key) {
      assertValidKey(key);
      // DeleteObject succeeds for a missing key, so this is idempotent as it stands.
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
  };
}

/**
 * Sends `body` as a request body of exactly `size` bytes. If the body fails or has the wrong
 * size, the request is aborted mid-flight (S3 then stores nothing) and the body's error, not the
 * SDK's abort error, is thrown.
 */
async function sendWithBody<T>(
  body: AsyncIterable<Uint8Array>,
  size: number,
  send: (requestBody: Readable | Uint8Array, abortSignal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  if (size === 0) {
    // Check the (empty) body first; an empty stream with Content-Length 0 gains nothing.
    // With size 0, the first step consumes the whole body or throws at its first byte.
    await exactSize(body, 0).next();
    return send(new Uint8Array(0), controller.signal);
  }
  let bodyError: unknown;
  async function* checked(): AsyncGenerator<Uint8Array> {
    try {
      yield* exactSize(body, size);
    } catch (error) {
      bodyError = error;
      controller.abort(error);
      throw error;
    }
  }
  const stream = Readable.from(checked(), { objectMode: false, highWaterMark: IO_CHUNK_SIZE });
  // The SDK pipes the stream without listening for its errors; they are reported via `bodyError`.
  stream.on('error', () => undefined);
  try {
    return await send(stream, controller.signal);
  } catch (error) {
    throw bodyError ?? error;
  } finally {
    stream.destroy();
  }
}

/**
 * Works out what the response holds. Stores differ: some ignore `Range` (200 with the whole
 * object), some return more than asked for; the body is cut to exactly the requested bytes and
 * checked for length either way, so a short response is an error, never a short read.
 */
function readResult(
  stream: Readable,
  contentLength: number | undefined,
  contentRange: string | undefined,
  range: BlobRange | undefined,
): BlobReadResult {
  const returned = parseContentRange(contentRange);
  const length = contentLength ?? 0;
  const totalSize = returned?.total ?? length;
  const returnedStart = returned?.start ?? 0;
  const served = range === undefined ? { start: 0, end: totalSize - 1 } : resolveRange(range, totalSize);
  const size = served.end - served.start + 1;
  const skip = served.start - returnedStart;
  if (skip < 0 || returnedStart + length < served.end + 1) {
    throw new BlobReadError(`S3 returned ${contentRange ?? 'a body'} for ${served.start}-${served.end}`);
  }
  if (size === 0) {
    stream.destroy();
    return { body: emptyBody(), size, totalSize };
  }
  const source = stream as AsyncIterable<Uint8Array>;
  // The usual case reads the response to its natural end, which keeps the connection reusable.
  const body =
    skip === 0 && size === length
      ? exactSize(
          source,
          size,
          (expected, actual) => new BlobReadError(`S3 sent ${actual} of ${expected} bytes`),
        )
      : sliceBytes(source, skip, size);
  return { body, size, totalSize };
}

const emptyBody = (): AsyncIterable<Uint8Array> => Readable.from([]);

function parseContentRange(header: string | undefined): { start: number; end: number; total: number } | null {
  const match = header === undefined ? null : /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header);
  if (match === null) return null;
  return { start: Number(match[1]), end: Number(match[2]), total: Number(match[3]) };
}

function assertUploadId(uploadId: string): void {
  if (uploadId.length === 0 || uploadId.length > 1024) throw new MultipartUploadNotFoundError(uploadId);
}

function errorName(error: unknown): string | undefined {
  return error instanceof S3ServiceException ? error.name : undefined;
}

function httpStatus(error: unknown): number | undefined {
  return error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
}

function isNotFound(error: unknown): boolean {
  const name = errorName(error);
  return name === 'NoSuchKey' || name === 'NotFound' || httpStatus(error) === 404;
}

function isNoSuchUpload(error: unknown): boolean {
  return errorName(error) === 'NoSuchUpload' || httpStatus(error) === 404;
}
