import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Answers a request Node's HTTP parser refused before Fastify saw it (a raw non-ASCII byte or a space in
 * the request line, a broken header, headers too large or too slow), in the API's error shape
 * `{code, message}` like every other refusal, then closes the connection: after a parse error nothing
 * more on it can be read. Fastify's own handler answered `{error, message, statusCode}`.
 */
export function answerMalformedRequest(
  this: FastifyInstance,
  error: Error & { code?: string },
  socket: Socket,
): void {
  // A reset connection has no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'The request did not arrive in time']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'The request headers are too large']
        : [400, 'Malformed HTTP request'];
  const body = JSON.stringify({ code: 'VALIDATION_FAILED', message });
  this.log.debug({ code: error.code, status }, 'malformed request refused');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
