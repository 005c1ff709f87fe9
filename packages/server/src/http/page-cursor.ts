import { ValidationError } from './errors.js';

/** Where a page of a newest-first list ended: the last entry's timestamp and id (the tie-breaker). */
export interface PagePosition {
  at: string;
  id: string;
}

export interface Page {
  limit: number;
  after: PagePosition | undefined;
}

const POSITION = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z)\|([A-Za-z0-9_-]{1,200})$/;

/** An opaque, URL-safe cursor for `position`. */
export function encodeCursor(position: PagePosition): string {
  return Buffer.from(`${position.at}|${position.id}`, 'utf8').toString('base64url');
}

/** The position in `cursor`; a cursor this server did not make is a 400. */
export function decodeCursor(cursor: string): PagePosition {
  const match = POSITION.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (match?.[1] === undefined || match[2] === undefined) throw new ValidationError('Invalid cursor');
  return { at: match[1], id: match[2] };
}

/** The page a `limit`/`cursor` query asks for, or undefined for the whole list. */
export function pageOf(query: { limit?: number; cursor?: string }): Page | undefined {
  if (query.limit === undefined) {
    if (query.cursor !== undefined) throw new ValidationError('A cursor needs a limit');
    return undefined;
  }
  return { limit: query.limit, after: query.cursor === undefined ? undefined : decodeCursor(query.cursor) };
}
