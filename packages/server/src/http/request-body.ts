import { ApiError } from './errors.js';

/**
 * A request body that broke while it was read (the client went away, the body ended early, a parser
 * could not make sense of it). Its errors carry no HTTP status, and the error handler would answer
 * them with a 500; they are the client's, so they become this 400.
 */
export class MalformedBodyError extends ApiError {
  constructor(detail: string) {
    super(400, 'VALIDATION_FAILED', `Malformed or incomplete request body: ${detail}`);
  }
}

/** Errors with an HTTP status (ours, Fastify's, @fastify/multipart's limits) keep it; others are the body's. */
export function asBodyError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number') return error;
  return new MalformedBodyError(error instanceof Error ? error.message.slice(0, 200) : 'unreadable');
}

/**
 * Yields what `source` yields; an error thrown by `source` itself becomes {@link asBodyError}'s. Errors
 * of the consumer (a blob store write) pass through untouched, since they are not thrown here.
 */
export async function* clientBody<T>(
  source: AsyncIterable<T> | (() => AsyncIterator<T>),
): AsyncGenerator<T, void, undefined> {
  let iterator: AsyncIterator<T>;
  try {
    iterator = typeof source === 'function' ? source() : source[Symbol.asyncIterator]();
  } catch (error) {
    throw asBodyError(error);
  }
  try {
    for (;;) {
      let next: IteratorResult<T>;
      try {
        next = await iterator.next();
      } catch (error) {
        throw asBodyError(error);
      }
      if (next.done === true) return;
      yield next.value;
    }
  } finally {
    // Stopping early (a body too long) closes the source as a `for await` would.
    await iterator.return?.().catch(() => undefined);
  }
}
