import { describe, expect, it } from 'vitest';
import { createFairLane } from './fair-lane.js';
import { LIST_BATCH, listAnswer } from './list-answer.js';
import type { PagePosition } from './page-cursor.js';
import { decodeCursor } from './page-cursor.js';

interface Row {
  at: string;
  id: string;
  name: string;
}

/** `n` rows newest first, three per timestamp, names outside Latin-1 and with JSON's special characters. */
function rowsOf(n: number): Row[] {
  return Array.from({ length: n }, (_, i) => ({
    at: new Date(Date.UTC(2026, 0, 1) + Math.floor((n - i) / 3) * 1000).toISOString(),
    id: `id-${String(n - i).padStart(6, '0')}`,
    name: `Photo ${i} – "beach" \\ 😀`,
  }));
}

function source(rows: Row[]) {
  const reads: number[] = [];
  const read = (limit: number, after: PagePosition | undefined) => {
    const start = after === undefined ? 0 : rows.findIndex((r) => r.at === after.at && r.id === after.id) + 1;
    reads.push(limit);
    return Promise.resolve(rows.slice(start, start + limit));
  };
  return { read, reads };
}

const common = {
  positionOf: (row: Row) => ({ at: row.at, id: row.id }),
  toItem: (row: Row) => ({ fileId: row.id, name: row.name }),
};

describe('list answers', () => {
  it('reads a whole list a batch at a time and answers it as one JSON document', async () => {
    const rows = rowsOf(1203);
    const { read, reads } = source(rows);
    const answer = await listAnswer({
      lane: createFairLane(),
      user: 'u',
      page: undefined,
      read,
      withCount: true,
      ...common,
    });
    expect(reads).toEqual([LIST_BATCH, LIST_BATCH, LIST_BATCH]);
    expect(JSON.parse(answer.toString('utf8'))).toEqual({ files: rows.map(common.toItem), count: 1203 });
  });

  it('answers a page with the cursor of the next, and no count when not asked', async () => {
    const rows = rowsOf(10);
    const { read } = source(rows);
    const answer = JSON.parse(
      (
        await listAnswer({
          lane: createFairLane(),
          user: 'u',
          page: { limit: 4, after: undefined },
          read,
          withCount: false,
          ...common,
        })
      ).toString('utf8'),
    ) as { files: unknown[]; nextCursor: string };
    expect(answer.files).toEqual(rows.slice(0, 4).map(common.toItem));
    expect(Object.keys(answer)).toEqual(['files', 'nextCursor']);
    const [, , , fourth] = rows;
    expect(fourth).toBeDefined();
    if (fourth !== undefined) expect(decodeCursor(answer.nextCursor)).toEqual(common.positionOf(fourth));
  });

  it('stops reading a whole list once the client has gone', async () => {
    const { read, reads } = source(rowsOf(5000));
    let gone = false;
    await listAnswer({
      lane: createFairLane(),
      user: 'u',
      page: undefined,
      read: async (limit, after) => {
        const batch = await read(limit, after);
        gone = true;
        return batch;
      },
      withCount: true,
      abandoned: () => gone,
      ...common,
    });
    expect(reads).toHaveLength(1);
  });
});
