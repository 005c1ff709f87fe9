import {
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
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import { acceptStreamedBodies, partBodyOf, partRouteOptions } from '../../http/streamed-bodies.js';
import { DIRECT_UPLOAD_LIMITS, receiveDirectRequest } from './direct-upload-form.js';
import type { UploadsService } from './uploads.service.js';

/**
 * Upload routes. They get their own scope: the multipart form parser and the raw octet-stream body
 * exist only here, so no other route accepts a streamed body.
 */
export function uploadsRoutes(app: FastifyTypeBox, deps: { uploads: UploadsService }): void {
  const { uploads } = deps;

  app.register(async (scope: FastifyTypeBox) => {
    await acceptStreamedBodies(scope, DIRECT_UPLOAD_LIMITS);

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
        options: partRouteOptions,
      },
      async ({ user, params, query, request }) =>
        uploads.uploadPart(user, {
          uploadId: params.uploadId,
          partNumber: params.n,
          objectKey: query.objectKey,
          ...partBodyOf(request),
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
      async ({ user, request }) =>
        receiveDirectRequest(request, (metadata, file, afterFile) =>
          uploads.direct(user, metadata, file, afterFile),
        ),
    );
  });
}
