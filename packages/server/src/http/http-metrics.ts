import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { IDP_PATH } from '../infra/idp/idp.plugin.js';
import type { MetricsRegistry } from '../infra/metrics/metrics-registry.js';

/** Latency buckets in seconds: metadata calls sit in the first ones, transfers in the last. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

type Transfer = 'upload' | 'download';

/** Routes whose body or answer is file content, by route template. */
function transferOf(method: string, route: string): Transfer | undefined {
  if (method === 'GET' && route.endsWith('/download')) return 'download';
  if (method === 'POST' && route === '/api/users/uploads/direct') return 'upload';
  if (method === 'PUT' && route === '/api/users/uploads/multipart/:uploadId/part/:n') return 'upload';
  return undefined;
}

/** The label of every request the embedded identity provider answers itself (`/idp/token`, `/idp/auth`…). */
export const IDP_ROUTE = `${IDP_PATH}/*`;

/**
 * The route template of a request; the identity provider's own endpoints answer from a middleware before
 * any route matches, so they share one fixed label: never the raw URL, whose ids would make a series each.
 */
function routeOf(template: string | undefined, url: string): string {
  if (template !== undefined) return template;
  const path = url.split('?')[0] ?? '';
  return path === IDP_PATH || path.startsWith(`${IDP_PATH}/`) ? IDP_ROUTE : 'unmatched';
}

/**
 * Bytes a connection had carried when its previous request ended: a keep-alive connection carries one
 * request at a time (no pipelining from browsers or proxies), so the difference at the end of the next is
 * that request's bytes, headers included. Not exact for a request answered before its body was read (a
 * 401 or 413 to an upload): Node reads and discards the rest of that body after the answer, so those
 * bytes count toward the connection's next request, or toward none when the connection closes. Exact
 * counts would need a byte counter on the request stream itself; the totals stay right over a connection.
 */
const carried = new WeakMap<Socket, { read: number; written: number }>();

/**
 * Request counts, latency, bytes in and out per route template (never the path itself: ids would make
 * a series per file), and transfers running now. Measured when the response closes, finished or cut.
 */
export function registerHttpMetrics(app: FastifyInstance, registry: MetricsRegistry): void {
  const requests = registry.counter(
    'coffer_http_requests_total',
    'HTTP requests answered, by method, route template and status ("aborted": the connection closed first).',
  );
  const latency = registry.histogram(
    'coffer_http_request_duration_seconds',
    'Time from a request to the end of its answer, by method and route template.',
    LATENCY_BUCKETS,
  );
  const received = registry.counter(
    'coffer_http_received_bytes_total',
    'Bytes received, headers included, by route template: the upload routes carry file content.',
  );
  const sent = registry.counter(
    'coffer_http_sent_bytes_total',
    'Bytes sent, headers included, by route template: the download routes carry file content.',
  );
  const running = { upload: 0, download: 0 };
  let inFlight = 0;
  registry.gauge('coffer_http_requests_in_flight', 'Requests being answered now.', () => [
    { value: inFlight },
  ]);
  registry.gauge('coffer_transfers_in_progress', 'Uploads and downloads of file content running now.', () => [
    { labels: { direction: 'upload' }, value: running.upload },
    { labels: { direction: 'download' }, value: running.download },
  ]);

  app.addHook('onRequest', (request, reply, done) => {
    const started = process.hrtime.bigint();
    const method = request.method;
    const route = routeOf(request.routeOptions.url, request.url);
    const transfer = transferOf(method, route);
    inFlight += 1;
    if (transfer !== undefined) running[transfer] += 1;
    reply.raw.once('close', () => {
      inFlight -= 1;
      if (transfer !== undefined) running[transfer] -= 1;
      const status = reply.raw.writableFinished ? String(reply.raw.statusCode) : 'aborted';
      requests.inc({ method, route, status });
      latency.observe({ method, route }, Number(process.hrtime.bigint() - started) / 1e9);
      const socket = request.raw.socket as Socket | null;
      // Injected requests (tests) have a stand-in socket without byte counts.
      if (typeof socket?.bytesRead !== 'number' || typeof socket.bytesWritten !== 'number') return;
      const before = carried.get(socket) ?? { read: 0, written: 0 };
      const now = { read: socket.bytesRead, written: socket.bytesWritten };
      carried.set(socket, now);
      received.inc({ route }, now.read - before.read);
      sent.inc({ route }, now.written - before.written);
    });
    done();
  });
}
