import {
  LINK_DOWNLOAD_HEADER,
  LinkFileParamsSchema,
  LinkIdParamsSchema,
  OpenedLinkSchema,
  PublicLinkInfoSchema,
  PublicRequestSchema,
} from '@coffer/contracts';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import { answerPrivately } from '../../http/private-answers.js';
import { openOrAnswerRange, sendDownload } from '../files/download-reply.js';
import type { RequestsService } from '../requests/requests.service.js';
import { linkCallerOf } from './link-access.js';
import type { LinksService } from './links.service.js';

const singleHeader = (value: string | string[] | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;

/**
 * The calls of a link's or file request's page: no bearer token, the proof `A` in `X-Link-Auth`.
 * Every answer is `Cache-Control: no-store` and `Referrer-Policy: no-referrer` (the page's address
 * holds the link id, its fragment the secret), and a 429 carries Retry-After.
 */
export function linksPublicRoutes(
  app: FastifyTypeBox,
  deps: { links: LinksService; requests: RequestsService },
) {
  const { links, requests } = deps;
  app.register((scope: FastifyTypeBox, _opts, done) => {
    answerPrivately(scope);
    const tags = ['public links'];

    scope.get(
      '/public/links/:linkId',
      {
        schema: {
          tags,
          summary: 'What a link page needs to derive A: the password salt and KDF, or null. Unavailable: 404',
          params: LinkIdParamsSchema,
          response: { 200: PublicLinkInfoSchema },
        },
      },
      async (request) => links.info(request.params.linkId),
    );

    scope.post(
      '/public/links/:linkId/open',
      {
        schema: {
          tags,
          summary: "Open a link (X-Link-Auth: A): the wrapped keys, sealed metadata and the owner's keys",
          params: LinkIdParamsSchema,
          response: { 200: OpenedLinkSchema },
        },
      },
      async (request) => links.open(request.params.linkId, linkCallerOf(request)),
    );

    scope.get(
      '/public/links/:linkId/files/:fileId/download',
      {
        schema: {
          tags,
          summary:
            'Download a file of a link (X-Link-Auth: A; Range allowed). Counted once from its start; a resumed ' +
            'Range download sends back the X-Link-Download token of its counted start',
          params: LinkFileParamsSchema,
        },
        // A HEAD (a link preview, a checker) would run the handler and take one of the link's downloads.
        exposeHeadRoute: false,
      },
      async (request, reply) => {
        const issued: { token: string | null } = { token: null };
        const download = await openOrAnswerRange(reply, async () => {
          const opened = await links.download(request.params.linkId, request.params.fileId, {
            ...linkCallerOf(request),
            rangeHeader: singleHeader(request.headers.range),
            downloadToken: singleHeader(request.headers[LINK_DOWNLOAD_HEADER]),
          });
          issued.token = opened.downloadToken;
          return opened;
        });
        if (issued.token !== null) void reply.header(LINK_DOWNLOAD_HEADER, issued.token);
        return sendDownload(reply, download);
      },
    );

    scope.get(
      '/public/requests/:linkId',
      {
        schema: {
          tags,
          summary:
            "Open a file request (X-Link-Auth: A): the owner's public key, the sealed message, limits left",
          params: LinkIdParamsSchema,
          response: { 200: PublicRequestSchema },
        },
      },
      async (request) => requests.open(request.params.linkId, linkCallerOf(request)),
    );
    done();
  });
}
