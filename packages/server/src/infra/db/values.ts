import { randomUUID } from 'node:crypto';
import { canonicalEmail } from '@coffer/contracts';
import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import type { DbBool, IsoTimestamp } from './schema.js';

/** Helpers that keep repos on the portability conventions of docs/database.md. */

/** Now, as stored in every timestamp column. */
export function nowIso(now: Date = new Date()): IsoTimestamp {
  return now.toISOString();
}

/** A new primary key. */
export function newId(): string {
  return randomUUID();
}

export function toDbBool(value: boolean): DbBool {
  return value ? 1 : 0;
}

export function fromDbBool(value: DbBool): boolean {
  return value === 1;
}

/**
 * The form every email column holds: the one canonical form of `@coffer/contracts` (trimmed, NFC,
 * lower-cased, IDNA domain). Compare emails only in this form.
 */
export function normalizeEmail(email: string): string {
  return canonicalEmail(email);
}

/**
 * `sum(column)` as a JS number, 0 when no rows match. PostgreSQL's `sum(bigint)` is `numeric` (which
 * pg returns as a string); the cast brings it back to int8, which the driver parses as a safe number.
 */
export function sumAsNumber(column: string): RawBuilder<number> {
  return sql<number>`cast(coalesce(sum(${sql.ref(column)}), 0) as bigint)`;
}
