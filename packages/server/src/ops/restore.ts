import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { migrateToLatest } from '../infra/db/migrate.js';
import { migrations as knownMigrations } from '../infra/db/migrations/index.js';
import type { DB } from '../infra/db/schema.js';
import type { BlobStore } from '../infra/storage/blob-store.js';
import { BACKUP_FORMAT } from './backup-format.js';
import type { BackupManifest } from './backup-format.js';

export interface RestoreOptions {
  /** An empty database: nothing migrated yet, or migrated but without a user. */
  db: Kysely<DB>;
  blobStore: BlobStore;
  dir: string;
}

/** Rows inserted per statement: well under SQLite's and PostgreSQL's bound-parameter limits. */
const BATCH = 50;

export class RestoreError extends Error {
  readonly code = 'RESTORE_FAILED';
}

async function readManifest(dir: string): Promise<BackupManifest> {
  // Partial: the file may be anything until its format says otherwise.
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Partial<BackupManifest>;
  if (manifest.format !== BACKUP_FORMAT) throw new RestoreError(`${dir} is not a ${BACKUP_FORMAT} backup`);
  return manifest as BackupManifest;
}

/**
 * Restores a backup into an empty instance: the database is migrated to the backup's version, the rows
 * go in (parents first), then to this build's latest version; every object is checked against its
 * SHA-256 and stored. Files whose object the backup lacked are left out, with their shares.
 */
export async function restore(options: RestoreOptions): Promise<BackupManifest> {
  const { db, dir } = options;
  const manifest = await readManifest(dir);
  const unknown = manifest.migrations.filter((name) => !(name in knownMigrations));
  if (unknown.length > 0) {
    throw new RestoreError(
      `the backup comes from a newer Coffer (migrations ${unknown.join(', ')}): restore it with that version`,
    );
  }
  const backupVersion = Object.fromEntries(
    Object.entries(knownMigrations).filter(([name]) => manifest.migrations.includes(name)),
  );
  await migrateToLatest(db, backupVersion);
  const users = await sql<{ n: number | string }>`select count(*) as n from users`.execute(db);
  if (Number(users.rows[0]?.n ?? 0) > 0)
    throw new RestoreError('the target database is not empty: restore into a new one');

  // Objects first: a row that names an object is only ever inserted once the object is there.
  for (const blob of manifest.blobs) {
    const hash = createHash('sha256');
    const checked = createReadStream(join(dir, 'blobs', blob.file)).pipe(
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          done(null, chunk);
        },
        flush(done) {
          const digest = hash.digest('hex');
          done(
            digest === blob.sha256 ? null : new RestoreError(`the backup's copy of ${blob.key} is damaged`),
          );
        },
      }),
    );
    await options.blobStore.put(blob.key, checked, { size: blob.size });
  }

  await db.transaction().execute(async (trx) => {
    for (const table of manifest.tables) {
      const text = await readFile(join(dir, 'tables', `${table.name}.jsonl`), 'utf8');
      const rows = text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      for (let i = 0; i < rows.length; i += BATCH) {
        await trx
          .withTables<Record<string, Record<string, unknown>>>()
          .insertInto(table.name)
          .values(rows.slice(i, i + BATCH))
          .execute();
      }
    }
    if (manifest.missingFiles.length > 0) {
      await trx.deleteFrom('files').where('id', 'in', manifest.missingFiles).execute();
    }
  });
  await migrateToLatest(db);
  return manifest;
}
