import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from './schema.js';
import { nowIso } from './values.js';

/**
 * The secret named `name` (32 random bytes), made on first use and kept in `server_secrets`, so every
 * instance on the database, and every restart, signs and verifies with the same one. When several
 * instances start at once on an empty database, exactly one insert wins and all read that one.
 */
export async function loadOrCreateServerSecret(
  db: Kysely<DB>,
  name: string,
  now: Date = new Date(),
): Promise<Uint8Array> {
  await db
    .insertInto('server_secrets')
    .values({ name, value: randomBytes(32).toString('base64url'), created_at: nowIso(now) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64url');
}
