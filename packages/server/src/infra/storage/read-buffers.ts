/**
 * Buffers a store may read into and a consumer hands back once it is done with them.
 *
 * Why: a store that reads each 1 MiB of a download into a fresh `Buffer` makes 1,024 of them per GiB,
 * each external memory to V8, which answers with collections; serving one 1 GiB download that way
 * cost the server 1–4.6 CPU-seconds, most of it in full mark-compacts, against 0.4 reading into
 * a few reused buffers (docs/transfers.md, "The server's read buffers").
 */
export interface ReadBuffers {
  /**
   * A buffer of at least `size` bytes that may be filled now. A chunk a store yields from it stays
   * valid until the consumer has finished with it: the lender hands the same memory out again only
   * then. Waits while every buffer is still in use; rejects once the consumer has gone away.
   */
  take(size: number): Promise<Uint8Array>;
}
