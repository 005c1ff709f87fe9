/**
 * Reads the first chunk of `body` now and returns an iterable that yields it and then the rest.
 *
 * Two reasons. Errors that show up on the first read (a blob gone between lookup and read) surface
 * before any response header is sent, so they get a proper error answer instead of a cut-off body.
 * And closing works at any point: an async generator that has not started ignores `return()`, so a
 * consumer that gives up before its first read (a client that disconnects at once) would otherwise
 * leave the source open; an S3 body holds a connection until it is read or destroyed. The iterator
 * returned here forwards `return()` to a source that has started, which releases it.
 */
export async function startBody(body: AsyncIterable<Uint8Array>): Promise<AsyncIterable<Uint8Array>> {
  const source = body[Symbol.asyncIterator]();
  let first: IteratorResult<Uint8Array> | null = await source.next();
  const iterator: AsyncIterator<Uint8Array> = {
    next() {
      if (first !== null) {
        const result = first;
        first = null;
        return Promise.resolve(result);
      }
      return source.next();
    },
    async return(value?: unknown) {
      first = null;
      await source.return?.(value);
      return { done: true, value: undefined };
    },
  };
  return { [Symbol.asyncIterator]: () => iterator };
}

/** Releases a body that will not be read. */
export async function closeBody(body: AsyncIterable<Uint8Array>): Promise<void> {
  await body[Symbol.asyncIterator]().return?.();
}
