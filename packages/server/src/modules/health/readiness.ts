import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema.js';
import { knownMigrations } from '../../infra/db/migrate.js';
import type { BlobStore } from '../../infra/storage/blob-store.js';

/** One dependency's state in a readiness answer. */
export interface CheckResult {
  ok: boolean;
  /** Why not, in words an operator can act on; never a secret. */
  detail?: string;
}

export interface Readiness {
  ready: boolean;
  checks: { database: CheckResult; migrations: CheckResult; blobStore: CheckResult };
}

/** A key no upload ever uses: a `stat` of it proves the store answers, without writing anything. */
const PROBE_KEY = 'readiness/probe';

function failure(error: unknown): CheckResult {
  const name = error instanceof Error ? error.name : 'Error';
  return { ok: false, detail: `${name}: unreachable` };
}

/**
 * Whether this instance can serve: the database answers, every migration this build knows is applied
 * (an instance of an older build next to a newer database, or the other way round, says so), and the
 * blob store answers.
 */
export async function checkReadiness(db: Kysely<DB>, blobStore: BlobStore): Promise<Readiness> {
  const database = await sql`select 1 as one`.execute(db).then((): CheckResult => ({ ok: true }), failure);
  let migrations: CheckResult = { ok: false, detail: 'database unreachable' };
  if (database.ok) {
    migrations = await sql<{ name: string }>`select name from kysely_migration`
      .execute(db)
      .then(({ rows }): CheckResult => {
        const applied = new Set(rows.map((row) => row.name));
        const missing = knownMigrations().filter((name) => !applied.has(name));
        return missing.length === 0
          ? { ok: true }
          : { ok: false, detail: `not applied: ${missing.join(', ')}` };
      }, failure);
  }
  const blobStore_ = await blobStore.stat(PROBE_KEY).then((): CheckResult => ({ ok: true }), failure);
  return {
    ready: database.ok && migrations.ok && blobStore_.ok,
    checks: { database, migrations, blobStore: blobStore_ },
  };
}
