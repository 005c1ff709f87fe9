import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError } from './errors.js';

interface ErrorBody {
  code: string;
  message: string;
}

/** Fastify's own 4xx errors (bad JSON, body too large, …) carry a status and a FST_ code. */
function isFastifyClientError(error: unknown): error is FastifyError & { statusCode: number } {
  if (typeof error !== 'object' || error === null) return false;
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}

function codeForStatus(status: number): string {
  switch (status) {
    case 401:
      return 'UNAUTHORIZED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 429:
      return 'RATE_LIMITED';
    default:
      return 'VALIDATION_FAILED';
  }
}

/**
 * Every error leaves the API as `{code, message}`. Client mistakes keep their 4xx status; anything
 * unexpected is logged and answered with a generic 500 that reveals nothing internal.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request, reply) => {
    if (error instanceof ApiError) {
      return reply
        .status(error.statusCode)
        .send({ code: error.code, message: error.message } satisfies ErrorBody);
    }
    if (isFastifyClientError(error)) {
      const message = error.validation ? `Invalid request: ${error.message}` : error.message;
      return reply
        .status(error.statusCode)
        .send({ code: codeForStatus(error.statusCode), message } satisfies ErrorBody);
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .status(500)
      .send({ code: 'INTERNAL_ERROR', message: 'Internal server error' } satisfies ErrorBody);
  });
}
