import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface RequestTimeoutOptions {
  /** Headers, and the body of any request but a streamed upload, must arrive within this. */
  requestTimeoutMs: number;
  /** A streamed upload must bring at least `minBytes` in every window of `windowMs`. */
  upload: { windowMs: number; minBytes: number };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's body is a long transfer (an upload): it is held to a pace, not to a deadline. */
    streamingBody?: boolean;
  }
}

function cut(request: FastifyRequest, reply: FastifyReply, code: string, message: string): void {
  request.log.info({ code }, 'slow request cut');
  const close = () => request.raw.socket.destroy();
  if (reply.sent) {
    close();
    return;
  }
  // Answer if the client still reads, then drop the connection: its body will never be read to the end.
  reply.raw.once('finish', close);
  reply.header('connection', 'close').code(408).send({ code, message });
}

/**
 * A slow client must not hold a connection. Node's own limit on a whole request (`requestTimeout`, 5 min)
 * would cut a large upload that is slow but steady, so it is off; instead:
 * - headers must arrive within `requestTimeoutMs` (Node's `headersTimeout`);
 * - the body of an ordinary request (JSON, the webhook) must have arrived within `requestTimeoutMs`;
 * - a streamed upload (routes with `config.streamingBody`) must bring `minBytes` in every window of
 *   `windowMs`, counted on the socket. A window in which the server itself did not read (its side is
 *   the bottleneck: the store is slow) does not count against the client.
 * Responses are not limited: a paused download is the reader's choice.
 */
export function registerRequestTimeouts(app: FastifyInstance, options: RequestTimeoutOptions): void {
  app.server.requestTimeout = 0;
  app.server.headersTimeout = options.requestTimeoutMs;

  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    const streaming =
      (request.routeOptions.config as FastifyContextConfig | undefined)?.streamingBody === true;
    let timer: NodeJS.Timeout;
    if (!streaming) {
      timer = setTimeout(() => {
        if (!raw.complete) {
          cut(request, reply, 'VALIDATION_FAILED', 'The request did not arrive in time');
        }
      }, options.requestTimeoutMs);
    } else {
      const socket = raw.socket;
      let seen = socket.bytesRead;
      timer = setInterval(() => {
        if (raw.complete) {
          clearInterval(timer);
          return;
        }
        const now = socket.bytesRead;
        // Bytes waiting for us to read mean the client is not the one holding things up.
        const ours = raw.readableLength > 0 || socket.readableLength > 0;
        if (!ours && now - seen < options.upload.minBytes) {
          clearInterval(timer);
          cut(request, reply, 'UPLOAD_FAILED', 'The upload was too slow and was stopped');
          return;
        }
        seen = now;
      }, options.upload.windowMs);
    }
    timer.unref();
    const stop = () => {
      clearTimeout(timer);
    };
    reply.raw.once('close', stop);
    raw.once('close', stop);
    done();
  });
}
