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
  OkResponseSchema,
  RECENT_UPLOADS_LIMIT,
  UploadIdParamsSchema,
  UploadPartParamsSchema,
  UploadPartQuerySchema,
  UploadPartResponseSchema,
  UploadsResponseSchema,
} from '@coffer/contracts';
import { currentUser } from '../../http/current-user.js';
import { ApiError } from '../../http/errors.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import { clientBody } from '../../http/request-body.js';
import { DIRECT_UPLOAD_LIMITS, receiveDirectUpload } from './direct-upload-form.js';
import type { UploadsService } from './uploads.service.js';

const tags = ['uploads'];
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

    scope.get(
      '/users/uploads',
      {
        config: { recentUser: true },
        schema: {
          tags,
          summary: 'My recent uploads, newest first, with their status',
          querystring: LimitQuerySchema,
          response: { 200: UploadsResponseSchema },
        },
      },
      async (request) => {
        const list = await uploads.list(currentUser(request).id, request.query.limit ?? RECENT_UPLOADS_LIMIT);
        return { uploads: list, count: list.length };
      },
    );

    scope.post(
      '/users/uploads/multipart',
      {
        schema: {
          tags,
          summary: 'Start a multipart upload (part n is encrypted chunk n-1)',
          body: CreateMultipartUploadRequestSchema,
          response: { 201: CreateMultipartUploadResponseSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await uploads.createMultipart(currentUser(request), request.body)),
    );

    scope.get(
      '/users/uploads/multipart/:uploadId',
      {
        schema: {
          tags,
          summary:
            'One of my unfinished multipart uploads: the parts held (number, size, ETag) and its ' +
            "encryptionInfo, to resume it. Complete, aborted, expired and other users' uploads: 404",
          params: UploadIdParamsSchema,
          response: { 200: MultipartUploadStateSchema },
        },
      },
      async (request) => uploads.multipartState(currentUser(request).id, request.params.uploadId),
    );

    scope.put(
      '/users/uploads/multipart/:uploadId/part/:n',
      {
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
        schema: {
          tags,
          summary: 'Upload one part: the exact bytes of one encrypted chunk',
          params: UploadPartParamsSchema,
          querystring: UploadPartQuerySchema,
          response: { 200: UploadPartResponseSchema },
        },
      },
      async (request) =>
        uploads.uploadPart(currentUser(request), {
          uploadId: request.params.uploadId,
          partNumber: request.params.n,
          objectKey: request.query.objectKey,
          contentLength: contentLengthOf(request.headers['content-length']),
          // Stopping early (a body too long) must not destroy the request: the client still gets its 400.
          body: clientBody(request.raw.iterator({ destroyOnReturn: false }) as AsyncIterableIterator<Buffer>),
        }),
    );

    scope.post(
      '/users/uploads/multipart/:uploadId/complete',
      {
        schema: {
          tags,
          summary: 'Complete a multipart upload; answers the new file',
          params: UploadIdParamsSchema,
          body: CompleteMultipartUploadRequestSchema,
          response: { 201: FileListItemSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await uploads.completeMultipart(currentUser(request), request.params.uploadId, request.body)),
    );

    scope.delete(
      '/users/uploads/multipart/:uploadId',
      {
        schema: {
          tags,
          summary: 'Abort a multipart upload and discard its parts',
          params: UploadIdParamsSchema,
          response: { 200: OkResponseSchema },
        },
      },
      async (request) => {
        await uploads.abortMultipart(currentUser(request), request.params.uploadId);
        return { ok: true as const };
      },
    );

    scope.post(
      '/users/uploads/direct',
      {
        config: { streamingBody: true },
        schema: {
          tags,
          summary:
            'Upload a file of up to 100 MB in one multipart/form-data request (fields first, then file)',
          consumes: ['multipart/form-data'],
          response: { 201: FileListItemSchema },
        },
      },
      async (request, reply) => {
        if (!request.isMultipart()) {
          throw new ApiError(415, 'VALIDATION_FAILED', 'A direct upload must be sent as multipart/form-data');
        }
        const user = currentUser(request);
        const item = await receiveDirectUpload(
          clientBody(() => request.parts()),
          (metadata, file, afterFile) => uploads.direct(user, metadata, file, afterFile),
        );
        return reply.status(201).send(item);
      },
    );
  });
}
