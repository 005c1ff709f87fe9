import multipart from '@fastify/multipart';
import {
  CHUNK_OVERHEAD_BYTES,
  CHUNK_SIZE,
  CompleteMultipartUploadRequestSchema,
  CreateMultipartUploadRequestSchema,
  CreateMultipartUploadResponseSchema,
  FileListItemSchema,
  LINK_AUTH_HEADER,
  LinkIdParamsSchema,
  OkResponseSchema,
  RequestPartParamsSchema,
  RequestUploadParamsSchema,
  UploadPartQuerySchema,
  UploadPartResponseSchema,
} from '@coffer/contracts';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { ApiError } from '../../http/errors.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import { clientBody } from '../../http/request-body.js';
import { DIRECT_UPLOAD_LIMITS, receiveDirectUpload } from '../uploads/direct-upload-form.js';
import { LinkRateLimitedError } from '../links/link-access.js';
import type { CurrentUser } from '../users/users.service.js';
import type { RequestCaller, RequestUploadsService } from './request-uploads.service.js';

const OCTET_STREAM = 'application/octet-stream';
const PART_BODY_LIMIT = CHUNK_SIZE + CHUNK_OVERHEAD_BYTES + 1024;
const callerOf = (request: FastifyRequest): RequestCaller => ({
  authHeader: request.headers[LINK_AUTH_HEADER],
  address: request.ip,
  user: (request.auth?.user as CurrentUser | undefined) ?? undefined,
});
/**
 * A file request's upload calls, for a person without an account: the signed-in upload calls' bodies,
 * under `/public/requests/{id}/uploads`, with `X-Link-Auth`. Their own scope, as the signed-in ones:
 * the form parser and the raw part body exist only here. A call that carries a bearer token is
 * authenticated (`authenticate`; a bad token is 401): a request that takes files from signed-in
 * people only needs it, and records who sent each file.
 */
export function requestsPublicRoutes(
  app: FastifyTypeBox,
  deps: { requestUploads: RequestUploadsService; authenticate: preHandlerAsyncHookHandler },
) {
  const { requestUploads, authenticate } = deps;
  app.register(async (scope: FastifyTypeBox) => {
    scope.addHook('onRequest', async (request, reply) => {
      if (request.headers.authorization !== undefined) await authenticate.call(scope, request, reply);
    });
    await scope.register(multipart, { limits: DIRECT_UPLOAD_LIMITS, throwFileSizeLimit: true });
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
    scope.addHook('onSend', (_request, reply, payload, next) => {
      void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      next(null, payload);
    });
    scope.addHook('onError', (_request, reply, error, next) => {
      if (error instanceof LinkRateLimitedError)
        void reply.header('retry-after', String(error.retryAfterSec));
      next();
    });
    const tags = ['public links'];

    scope.post(
      '/public/requests/:linkId/uploads/direct',
      {
        config: { streamingBody: true },
        schema: {
          tags,
          summary:
            "Upload a file of up to 100 MB through a file request (X-Link-Auth), encrypted to the owner's key",
          consumes: ['multipart/form-data'],
          params: LinkIdParamsSchema,
          response: { 201: FileListItemSchema },
        },
      },
      async (request, reply) => {
        if (!request.isMultipart()) {
          throw new ApiError(415, 'VALIDATION_FAILED', 'A direct upload must be sent as multipart/form-data');
        }
        const file = await receiveDirectUpload(
          clientBody(() => request.parts()),
          (metadata, body, afterFile) =>
            requestUploads.direct(request.params.linkId, callerOf(request), metadata, body, afterFile),
        );
        return reply.status(201).send(file);
      },
    );

    scope.post(
      '/public/requests/:linkId/uploads/multipart',
      {
        schema: {
          tags,
          summary: 'Start a multipart upload through a file request (X-Link-Auth)',
          params: LinkIdParamsSchema,
          body: CreateMultipartUploadRequestSchema,
          response: { 201: CreateMultipartUploadResponseSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await requestUploads.createMultipart(request.params.linkId, callerOf(request), request.body)),
    );

    scope.put(
      '/public/requests/:linkId/uploads/multipart/:uploadId/part/:n',
      {
        bodyLimit: PART_BODY_LIMIT,
        config: { streamingBody: true },
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
          summary: 'Upload one part of an upload through a file request (X-Link-Auth)',
          params: RequestPartParamsSchema,
          querystring: UploadPartQuerySchema,
          response: { 200: UploadPartResponseSchema },
        },
      },
      async (request) => {
        const length = request.headers['content-length'];
        return requestUploads.uploadPart(request.params.linkId, callerOf(request), {
          uploadId: request.params.uploadId,
          partNumber: request.params.n,
          objectKey: request.query.objectKey,
          contentLength: length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined,
          body: clientBody(request.raw.iterator({ destroyOnReturn: false }) as AsyncIterableIterator<Buffer>),
        });
      },
    );

    scope.post(
      '/public/requests/:linkId/uploads/multipart/:uploadId/complete',
      {
        schema: {
          tags,
          summary:
            "Complete an upload through a file request (X-Link-Auth); the file lands in the owner's files",
          params: RequestUploadParamsSchema,
          body: CompleteMultipartUploadRequestSchema,
          response: { 201: FileListItemSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await requestUploads.completeMultipart(
              request.params.linkId,
              callerOf(request),
              request.params.uploadId,
              request.body,
            ),
          ),
    );

    scope.delete(
      '/public/requests/:linkId/uploads/multipart/:uploadId',
      {
        schema: {
          tags,
          summary:
            'Cancel an upload through a file request (X-Link-Auth): it stops counting against the request',
          params: RequestUploadParamsSchema,
          response: { 200: OkResponseSchema },
        },
      },
      async (request) => {
        await requestUploads.abortMultipart(
          request.params.linkId,
          callerOf(request),
          request.params.uploadId,
        );
        return { ok: true as const };
      },
    );
  });
}
