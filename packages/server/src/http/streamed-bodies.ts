import multipart from '@fastify/multipart';
import { CHUNK_OVERHEAD_BYTES, CHUNK_SIZE } from '@coffer/contracts';
import type { FastifyRequest, preParsingHookHandler } from 'fastify';
import { ApiError } from './errors.js';
import type { FastifyTypeBox } from './fastify-typebox.js';
import { clientBody } from './request-body.js';

/**
 * What the upload routes share (the signed-in ones, `modules/uploads`, and a file request's public
 * ones, `modules/requests`): a scope whose routes alone take streamed bodies, a direct upload's
 * form, and a multipart upload's raw part.
 */

export const OCTET_STREAM = 'application/octet-stream';

/** The largest part (one encrypted chunk) plus room for nothing else: parts are checked to the byte. */
export const PART_BODY_LIMIT = CHUNK_SIZE + CHUNK_OVERHEAD_BYTES + 1024;

/**
 * Makes `scope` take streamed bodies: the multipart form parser (within `formLimits`) and raw
 * octet-stream bodies left unread for the handler. A request refused before its body was read to
 * the end (a wrong length, a quota) leaves the rest of the body on the connection, and Node discards
 * it only for bodies nobody started reading: it is discarded here, so the connection stays usable
 * for the client's next request.
 */
export async function acceptStreamedBodies(
  scope: FastifyTypeBox,
  formLimits: NonNullable<Parameters<typeof multipart>[1]>['limits'],
): Promise<void> {
  await scope.register(multipart, { limits: formLimits, throwFileSizeLimit: true });
  // Parts are streamed to the blob store by the handler, never buffered: the parser leaves the body unread.
  scope.addContentTypeParser(OCTET_STREAM, (_request, _payload, done) => {
    done(null);
  });
  scope.addHook('onResponse', (request, _reply, done) => {
    const raw = request.raw;
    if (!raw.readableEnded && !raw.destroyed) {
      raw.unpipe();
      raw.resume();
    }
    done();
  });
}

/** The route options of a part upload: its size limit, a streamed body, and octet-stream only. */
export const partRouteOptions: {
  bodyLimit: number;
  config: { streamingBody: true };
  preParsing: preParsingHookHandler;
} = {
  bodyLimit: PART_BODY_LIMIT,
  config: { streamingBody: true },
  // Refuse other bodies before anything parses them.
  preParsing: (request, _reply, payload, done) => {
    const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    if (type !== OCTET_STREAM) {
      done(new ApiError(415, 'VALIDATION_FAILED', `A part must be sent as ${OCTET_STREAM}`));
      return;
    }
    done(null, payload);
  },
};

/** A part's body and its `Content-Length` (none for a chunked body), as the uploads service takes them. */
export function partBodyOf(request: FastifyRequest): {
  contentLength: number | undefined;
  body: AsyncIterable<Uint8Array>;
} {
  const length = request.headers['content-length'];
  return {
    contentLength: length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined,
    // Stopping early (a body too long) must not destroy the request: the client still gets its 400.
    body: clientBody(request.raw.iterator({ destroyOnReturn: false }) as AsyncIterableIterator<Buffer>),
  };
}

/** @throws {ApiError} 415 unless the request is multipart/form-data (a direct upload). */
export function assertMultipartForm(request: FastifyRequest): void {
  if (!request.isMultipart()) {
    throw new ApiError(415, 'VALIDATION_FAILED', 'A direct upload must be sent as multipart/form-data');
  }
}
