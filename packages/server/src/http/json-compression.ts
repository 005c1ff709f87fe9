import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

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

/** The q value a client gives gzip in `Accept-Encoding` (RFC 9110 §12.5.3): 0 when refused or absent. */
function gzipQuality(header: string): number {
  let star: number | undefined;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    const value = Number.isFinite(q) ? q : 0;
    if (name === 'gzip' || name === 'x-gzip') return value;
    if (name === '*') star = value;
  }
  return star ?? 0;
}

/** Whether a request's `Accept-Encoding` takes gzip (every browser's does). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return acceptEncoding !== undefined && gzipQuality(acceptEncoding) > 0;
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
 * Gzips JSON answers of at least {@link JSON_COMPRESSION_MIN_BYTES} (file lists, the OpenAPI document)
 * for clients that accept gzip; every such answer says `Vary: Accept-Encoding`, compressed or not. Not
 * brotli: these answers are mostly base64 keys and signatures, where brotli at a per-request setting saved
 * 1–3 % over gzip level 6 and, at quality 5, cost 2.5–9× its CPU (docs/benchmarks.md). Streams
 * (downloads) and the upload answers are left alone, so their `Content-Length` and ranges stay exact;
 * Fastify sets the gzipped body's length.
 */
export function registerJsonCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!compressible(request, reply, payload)) return payload;
    addVary(reply);
    if (!acceptsGzip(request.headers['accept-encoding'])) return payload;
    const compressed = await gzipAsync(typeof payload === 'string' ? Buffer.from(payload) : payload);
    reply.removeHeader('content-length');
    reply.header('content-encoding', 'gzip');
    return compressed;
  });
}
