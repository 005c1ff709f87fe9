import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Below this a JSON answer goes as is: its compressed form would save less than a round of work costs. */
export const JSON_COMPRESSION_MIN_BYTES = 1024;

/**
 * Answers that carry file content, or that the client reads for the stored part's ETag: never touched,
 * whatever their payload (downloads stream, so they are passed over anyway; this says so explicitly).
 */
const UNCOMPRESSED_ROUTES = new Set([
  'GET /api/users/files/:id/download',
  'GET /api/users/files/shared/:id/download',
  'PUT /api/users/uploads/multipart/:uploadId/part/:n',
  'POST /api/users/uploads/direct',
]);

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json(?:;|$)/i;

type Encoding = 'br' | 'gzip';

/** The q value a client gives one coding in `Accept-Encoding` (RFC 9110 §12.5.3): 0 when refused or absent. */
function qualityOf(header: string, coding: Encoding): number {
  let star: number | undefined;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    const value = Number.isFinite(q) ? q : 0;
    if (name === coding) return value;
    if (name === '*') star = value;
  }
  return star ?? 0;
}

/** Brotli when the client takes it at least as gladly as gzip (smaller, and as fast at this level). */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (acceptEncoding === undefined || acceptEncoding === '') return undefined;
  const br = qualityOf(acceptEncoding, 'br');
  const gz = qualityOf(acceptEncoding, 'gzip');
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  return undefined;
}

function compressible(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): payload is string | Buffer {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return false;
  if (Buffer.byteLength(payload) < JSON_COMPRESSION_MIN_BYTES) return false;
  if (reply.statusCode === 204 || reply.statusCode === 304 || reply.hasHeader('content-encoding'))
    return false;
  if (UNCOMPRESSED_ROUTES.has(`${request.method} ${request.routeOptions.url ?? ''}`)) return false;
  const type = reply.getHeader('content-type');
  return typeof type === 'string' && JSON_TYPE.test(type);
}

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const current = Array.isArray(vary) ? vary.join(', ') : typeof vary === 'string' ? vary : '';
  if (/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(current)) return;
  reply.header('vary', current === '' ? 'accept-encoding' : `${current}, accept-encoding`);
}

/**
 * Compresses JSON answers of at least {@link JSON_COMPRESSION_MIN_BYTES} (file lists, the OpenAPI
 * document) with brotli or gzip, as the request's `Accept-Encoding` allows; every such answer says
 * `Vary: Accept-Encoding`, compressed or not. Streams (downloads) and the upload answers are left alone,
 * so their `Content-Length` and ranges stay exact; Fastify sets the compressed body's length.
 */
export function registerJsonCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!compressible(request, reply, payload)) return payload;
    addVary(reply);
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (encoding === undefined) return payload;
    const plain = typeof payload === 'string' ? Buffer.from(payload) : payload;
    const compressed =
      encoding === 'br'
        ? await brotli(plain, {
            params: {
              // Quality 5: most of brotli's gain over gzip at about gzip's speed (11 is for build time).
              [zlibConstants.BROTLI_PARAM_QUALITY]: 5,
              [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
              [zlibConstants.BROTLI_PARAM_SIZE_HINT]: plain.length,
            },
          })
        : await gzipAsync(plain);
    reply.removeHeader('content-length');
    reply.header('content-encoding', encoding);
    return compressed;
  });
}
