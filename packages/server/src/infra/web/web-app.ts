import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Paths that belong to the server, never to the single-page app's client-side router. */
/**
 * Paths never answered with the app's HTML. `/__coffer_download__/` belongs to the download service
 * worker: a request for it that reaches the server (the worker bypassed, e.g. the browser retrying a
 * failed download) must fail, not save the app's page under the file's name.
 */
const SERVER_PREFIXES = ['/api/', '/idp/', '/billing/', '/__coffer_download__/'];

/**
 * Serves the built web app and answers every other GET that accepts HTML with `index.html`, so
 * deep links like `/myfiles` work after a reload. Unknown `/api` paths stay JSON 404s.
 */
export async function registerWebApp(
  app: FastifyInstance,
  webDistDir: string,
  options: { serveSourceMaps: boolean } = { serveSourceMaps: false },
): Promise<void> {
  // Source maps are built (for debugging a release) but not published unless SERVE_SOURCE_MAPS says so,
  // neither as is nor as the build's compressed copies (`x.js.map.br` asked for by name).
  const hidden = (path: string) => !options.serveSourceMaps && /\.map(?:\.br|\.gz)?$/.test(path);
  const indexHtml = join(webDistDir, 'index.html');
  const hasBuild = existsSync(indexHtml);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      allowedPath: (pathName: string) => !hidden(pathName),
      // `npm run build` writes `x.br` and `x.gz` beside each text file: sent as `x` with its type and
      // `Content-Encoding` to a browser that accepts one (br first), the file as is otherwise; every answer
      // says `Vary: Accept-Encoding`. index.html (deep links, via sendFile below) and the download
      // service worker's script go the same way.
      preCompressed: true,
      // Vite fingerprints everything under /assets, so those can be cached for good.
      setHeaders: (reply: FastifyReply, path: string) => {
        if (path.includes('/assets/')) reply.header('Cache-Control', 'public, max-age=31536000, immutable');
        else reply.header('Cache-Control', 'no-cache');
      },
    });
  } else {
    app.log.warn({ webDistDir }, 'web app build not found; run `npm run build` to serve the UI');
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isServerPath = SERVER_PREFIXES.some((p) => path.startsWith(p) || path === p.slice(0, -1));
    const wantsHtml = request.method === 'GET' || request.method === 'HEAD';
    if (!isServerPath && wantsHtml && hasBuild && !hidden(path)) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    return reply
      .status(404)
      .send({ code: 'NOT_FOUND', message: `Route ${request.method} ${path} not found` });
  });
}
