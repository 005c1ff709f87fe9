import {
  CompleteMultipartUploadRequestSchema,
  CreateMultipartUploadRequestSchema,
  CreateMultipartUploadResponseSchema,
  FileListItemSchema,
  LinkIdParamsSchema,
  OkResponseSchema,
  RequestPartParamsSchema,
  RequestUploadParamsSchema,
  UploadPartQuerySchema,
  UploadPartResponseSchema,
} from '@coffer/contracts';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import { answerPrivately } from '../../http/private-answers.js';
import { acceptStreamedBodies, partBodyOf, partRouteOptions } from '../../http/streamed-bodies.js';
import { linkCallerOf } from '../links/link-access.js';
import { DIRECT_UPLOAD_LIMITS, receiveDirectRequest } from '../uploads/direct-upload-form.js';
import type { CurrentUser } from '../users/users.service.js';
import type { RequestCaller, RequestUploadsService } from './request-uploads.service.js';

const callerOf = (request: FastifyRequest): RequestCaller => ({
  ...linkCallerOf(request),
  user: (request.auth?.user as CurrentUser | undefined) ?? undefined,
});

/** Answers 201 with what `made` gives. */
const created = async <T>(reply: FastifyReply, made: Promise<T>) => reply.status(201).send(await made);

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
    await acceptStreamedBodies(scope, DIRECT_UPLOAD_LIMITS);
    answerPrivately(scope);
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
      async (request, reply) =>
        created(
          reply,
          receiveDirectRequest(request, (metadata, body, afterFile) =>
            requestUploads.direct(request.params.linkId, callerOf(request), metadata, body, afterFile),
          ),
        ),
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
        created(
          reply,
          requestUploads.createMultipart(request.params.linkId, callerOf(request), request.body),
        ),
    );

    scope.put(
      '/public/requests/:linkId/uploads/multipart/:uploadId/part/:n',
      {
        ...partRouteOptions,
        schema: {
          tags,
          summary: 'Upload one part of an upload through a file request (X-Link-Auth)',
          params: RequestPartParamsSchema,
          querystring: UploadPartQuerySchema,
          response: { 200: UploadPartResponseSchema },
        },
      },
      async (request) =>
        requestUploads.uploadPart(request.params.linkId, callerOf(request), {
          uploadId: request.params.uploadId,
          partNumber: request.params.n,
          objectKey: request.query.objectKey,
          ...partBodyOf(request),
        }),
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
        created(
          reply,
          requestUploads.completeMultipart(
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
