import multipart from '@fastify/multipart';
import {
  CHUNK_OVERHEAD_BYTES,
  CHUNK_SIZE,
  CompleteMultipartUploadRequestSchema,
  CreateMultipartUploadRequestSchema,
  CreateMultipartUploadResponseSchema,
  FileListItemSchema,
  LimitQuerySchema,
  MultipartUploadStateSchema,
  RECENT_UPLOADS_LIMIT,
  UploadIdParamsSchema,
  UploadPartParamsSchema,
  UploadPartQuerySchema,
  UploadPartResponseSchema,
  UploadsResponseSchema,
} from '@coffer/contracts';
import { apiRoutes } from '../../http/api-route.js';
import { ApiError } from '../../http/errors.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import { clientBody } from '../../http/request-body.js';
import { DIRECT_UPLOAD_LIMITS, receiveDirectUpload } from './direct-upload-form.js';
import type { UploadsService } from './uploads.service.js';

const OCTET_STREAM = 'application/octet-stream';
/** The largest part (one encrypted chunk) plus room for nothing else: parts are checked to the byte. */
const PART_BODY_LIMIT = CHUNK_SIZE + CHUNK_OVERHEAD_BYTES + 1024;

function contentLengthOf(header: string | undefined): number | undefined {
  if (header === undefined || !/^\d+$/.test(header)) return undefined;
  return Number(header);
}

/**
 * Upload routes. They get their own scope: the multipart form parser and the raw octet-stream body
 * exist only here, so no other route accepts a streamed body.
 */
export function uploadsRoutes(app: FastifyTypeBox, deps: { uploads: UploadsService }): void {
  const { uploads } = deps;

  app.register(async (scope: FastifyTypeBox) => {
    await scope.register(multipart, { limits: DIRECT_UPLOAD_LIMITS, throwFileSizeLimit: true });
    // Parts are streamed to the blob store by the handler, never buffered: the parser leaves the body unread.
    scope.addContentTypeParser(OCTET_STREAM, (_request, _payload, done) => {
      done(null);
    });
    // A request refused before its body was read to the end (a wrong length, a quota) leaves the rest of
    // the body on the connection; Node discards it only for bodies nobody started reading. Discard it
    // here, so the connection stays usable for the client's next request.
    scope.addHook('onResponse', (request, _reply, done) => {
      const raw = request.raw;
      if (!raw.readableEnded && !raw.destroyed) {
        raw.unpipe();
        raw.resume();
      }
      done();
    });

    const route = apiRoutes(scope, ['uploads']);

    route.get(
      '/users/uploads',
      {
        summary: 'My recent uploads, newest first, with their status',
        querystring: LimitQuerySchema,
        answer: UploadsResponseSchema,
        options: { config: { recentUser: true } },
      },
      async ({ user, query }) => {
        const list = await uploads.list(user.id, query.limit ?? RECENT_UPLOADS_LIMIT);
        return { uploads: list, count: list.length };
      },
    );

    route.post(
      '/users/uploads/multipart',
      {
        summary: 'Start a multipart upload (part n is encrypted chunk n-1)',
        body: CreateMultipartUploadRequestSchema,
        created: CreateMultipartUploadResponseSchema,
      },
      async ({ user, body }) => uploads.createMultipart(user, body),
    );

    route.get(
      '/users/uploads/multipart/:uploadId',
      {
        summary:
          'One of my unfinished multipart uploads: the parts held (number, size, ETag) and its ' +
          "encryptionInfo, to resume it. Complete, aborted, expired and other users' uploads: 404",
        params: UploadIdParamsSchema,
        answer: MultipartUploadStateSchema,
      },
      async ({ user, params }) => uploads.multipartState(user.id, params.uploadId),
    );

    route.put(
      '/users/uploads/multipart/:uploadId/part/:n',
      {
        summary: 'Upload one part: the exact bytes of one encrypted chunk',
        params: UploadPartParamsSchema,
        querystring: UploadPartQuerySchema,
        answer: UploadPartResponseSchema,
        options: {
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
        },
      },
      async ({ user, params, query, request }) =>
        uploads.uploadPart(user, {
          uploadId: params.uploadId,
          partNumber: params.n,
          objectKey: query.objectKey,
          contentLength: contentLengthOf(request.headers['content-length']),
          // Stopping early (a body too long) must not destroy the request: the client still gets its 400.
          body: clientBody(request.raw.iterator({ destroyOnReturn: false }) as AsyncIterableIterator<Buffer>),
        }),
    );

    route.post(
      '/users/uploads/multipart/:uploadId/complete',
      {
        summary: 'Complete a multipart upload; answers the new file',
        params: UploadIdParamsSchema,
        body: CompleteMultipartUploadRequestSchema,
        created: FileListItemSchema,
      },
      async ({ user, params, body }) => uploads.completeMultipart(user, params.uploadId, body),
    );

    route.delete(
      '/users/uploads/multipart/:uploadId',
      {
        summary: 'Abort a multipart upload and discard its parts',
        params: UploadIdParamsSchema,
        answer: 'ok',
      },
      async ({ user, params }) => uploads.abortMultipart(user, params.uploadId),
    );

    route.post(
      '/users/uploads/direct',
      {
        summary: 'Upload a file of up to 100 MB in one multipart/form-data request (fields first, then file)',
        consumes: ['multipart/form-data'],
        created: FileListItemSchema,
        options: { config: { streamingBody: true } },
      },
      async ({ user, request }) => {
        if (!request.isMultipart()) {
          throw new ApiError(415, 'VALIDATION_FAILED', 'A direct upload must be sent as multipart/form-data');
        }
        return receiveDirectUpload(
          clientBody(() => request.parts()),
          (metadata, file, afterFile) => uploads.direct(user, metadata, file, afterFile),
        );
      },
    );
  });
}
