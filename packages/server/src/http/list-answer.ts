import type { FastifyReply } from 'fastify';
import type { FairLane } from './fair-lane.js';
import type { Page, PagePosition } from './page-cursor.js';
import { encodeCursor } from './page-cursor.js';

/** Rows read, turned into JSON and encoded as one job of the lane, when the whole list is asked for. */
export const LIST_BATCH = 500;

export interface ListAnswerSpec<Row> {
  lane: FairLane;
  /** Whose list it is: users take turns in the lane. */
  user: string;
  /** A page, or undefined for the whole list. */
  page: Page | undefined;
  /** At most `limit` rows after `after`, newest first. */
  read: (limit: number, after: PagePosition | undefined) => Promise<readonly Row[]>;
  positionOf: (row: Row) => PagePosition;
  toItem: (row: Row) => unknown;
  /** Answer the number of entries as `count` (the file list does, the shared list does not). */
  withCount: boolean;
  /** True once the client has gone: the rest of a whole list is then not read (nobody will get it). */
  abandoned?: () => boolean;
}

/**
 * A list answer `{"files": [...], "count"?: n, "nextCursor"?: "..."}`, as UTF-8 JSON bytes ready to send.
 * Each batch is read, turned into JSON and encoded in one job of the lane, so a list of any length is
 * many short pieces of work that take turns with other requests, never one long one: building a large
 * answer as one object and serialising it at the end blocked the event loop for tens of milliseconds
 * per list (encoding a few megabytes of JSON text at once).
 */
export async function listAnswer<Row>(spec: ListAnswerSpec<Row>): Promise<Buffer> {
  const pieces: Buffer[] = [];
  let count = 0;
  let nextCursor: string | undefined;
  const encode = (rows: readonly Row[]) => {
    if (rows.length === 0) return;
    const json = JSON.stringify(rows.map(spec.toItem));
    // The array's entries without its brackets, joined to the previous batch's by a comma.
    pieces.push(Buffer.from(`${count === 0 ? '' : ','}${json.slice(1, -1)}`, 'utf8'));
    count += rows.length;
  };

  const { page } = spec;
  if (page !== undefined) {
    await spec.lane.run(spec.user, async () => {
      // One more than asked tells whether another page follows.
      const rows = await spec.read(page.limit + 1, page.after);
      const shown = rows.slice(0, page.limit);
      const last = shown.at(-1);
      if (rows.length > page.limit && last !== undefined) nextCursor = encodeCursor(spec.positionOf(last));
      encode(shown);
    });
  } else {
    let after: PagePosition | undefined;
    let more = true;
    while (more) {
      more = await spec.lane.run(spec.user, async () => {
        if (spec.abandoned?.() === true) return false;
        const rows = await spec.read(LIST_BATCH, after);
        encode(rows);
        const last = rows.at(-1);
        if (last !== undefined) after = spec.positionOf(last);
        return rows.length === LIST_BATCH;
      });
    }
  }

  const tail =
    `]${spec.withCount ? `,"count":${count}` : ''}` +
    `${nextCursor === undefined ? '' : `,"nextCursor":${JSON.stringify(nextCursor)}`}}`;
  return Buffer.concat([Buffer.from('{"files":['), ...pieces, Buffer.from(tail)]);
}

/**
 * Sends a {@link listAnswer}: JSON bytes already in the shape of the route's response schema (which
 * still documents the route), so the schema's serializer is not run on them.
 */
export function sendListAnswer(reply: FastifyReply, answer: Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(answer);
}
