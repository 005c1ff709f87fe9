import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { migrateToLatest } from '../infra/db/migrate.js';
import { migrations as knownMigrations } from '../infra/db/migrations/index.js';
import type { DB } from '../infra/db/schema.js';
import { nowIso } from '../infra/db/values.js';
import type { BlobStore } from '../infra/storage/blob-store.js';
import { BACKUP_FORMAT } from './backup-format.js';
import type { BackupBlob, BackupManifest } from './backup-format.js';
import { TABLE_ORDER, appliedMigrations, cofferTables } from '../infra/db/coffer-tables.js';

export interface RestoreOptions {
  /** A new database, or one of an instance started once and stopped without use (see GENERATED_TABLES). */
  db: Kysely<DB>;
  blobStore: BlobStore;
  dir: string;
  now?: () => Date;
}

/** Rows inserted per statement: well under SQLite's and PostgreSQL's bound-parameter limits. */
const BATCH = 50;

/**
 * Tables an instance fills on its first start, before anyone uses it (the identity provider's keys, the
 * server's secrets). A restore replaces their rows with the backup's, so the restored users' sessions
 * and tokens stay valid; every other table must be empty.
 */
const GENERATED_TABLES: readonly string[] = ['server_secrets', 'idp_keys'];

const SHA256_HEX = /^[0-9a-f]{64}$/;

export class RestoreError extends Error {
  readonly code = 'RESTORE_FAILED';
}

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function checkBlob(blob: Partial<BackupBlob>): BackupBlob {
  const { key, file, size, sha256 } = blob;
  if (typeof key !== 'string' || key === '')
    throw new RestoreError('the manifest lists an object without a key');
  // The file name is derived from the key, never taken as a path: nothing outside `blobs/` is read.
  if (typeof file !== 'string' || !SHA256_HEX.test(file) || file !== sha256Hex(key)) {
    throw new RestoreError(`the manifest's file name for object ${key} is not the SHA-256 of its key`);
  }
  if (!isCount(size) || typeof sha256 !== 'string' || !SHA256_HEX.test(sha256)) {
    throw new RestoreError(`the manifest's size or SHA-256 of object ${key} is not valid`);
  }
  return { key, file, size, sha256 };
}

/** The manifest, checked: it names the files and tables the restore opens and writes to. */
async function readManifest(dir: string): Promise<BackupManifest> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  } catch (err) {
    throw new RestoreError(`${dir}/manifest.json cannot be read: ${(err as Error).message}`);
  }
  // Partial: the file may be anything until checked.
  const manifest = (parsed ?? {}) as Partial<BackupManifest>;
  if (manifest.format !== BACKUP_FORMAT) throw new RestoreError(`${dir} is not a ${BACKUP_FORMAT} backup`);
  const { migrations, tables, blobs, missingFiles } = manifest;
  if (
    !isStringArray(migrations) ||
    !isStringArray(missingFiles) ||
    !Array.isArray(blobs) ||
    !Array.isArray(tables)
  ) {
    throw new RestoreError('the manifest lacks its migrations, tables, blobs or missingFiles');
  }
  const known: readonly string[] = TABLE_ORDER;
  for (const table of tables as Partial<BackupManifest['tables'][number]>[]) {
    if (typeof table.name !== 'string' || !known.includes(table.name) || !isCount(table.rows)) {
      throw new RestoreError(
        `the manifest lists a table that is not Coffer's: ${JSON.stringify(table.name)}`,
      );
    }
  }
  return {
    ...(manifest as BackupManifest),
    blobs: blobs.map((blob) => checkBlob(blob as Partial<BackupBlob>)),
  };
}

/** Refuses a target that is not empty or is migrated past the backup; returns the generated tables to replace. */
async function checkTarget(db: Kysely<DB>, manifest: BackupManifest): Promise<string[]> {
  const ahead = (await appliedMigrations(db)).filter((name) => !manifest.migrations.includes(name));
  if (ahead.length > 0) {
    throw new RestoreError(
      `the target database has migrations the backup lacks (${ahead.join(', ')}): restore into a new database`,
    );
  }
  const tables = await cofferTables(db);
  for (const name of tables.filter((table) => !GENERATED_TABLES.includes(table))) {
    const row = await sql`select 1 as one from ${sql.table(name)} limit 1`.execute(db);
    if (row.rows.length > 0) {
      throw new RestoreError(
        `the target database is not empty (table ${name} has rows): restore into a new one`,
      );
    }
  }
  return tables.filter((table) => GENERATED_TABLES.includes(table));
}

/** Checks the backup's copy of an object, size and SHA-256, before anything of it reaches the store. */
async function checkObjectFile(path: string, blob: BackupBlob): Promise<void> {
  const hash = createHash('sha256');
  let size = 0;
  try {
    await pipeline(
      createReadStream(path),
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          size += chunk.length;
          done();
        },
      }),
    );
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'is missing' : 'cannot be read';
    throw new RestoreError(`the backup's copy of ${blob.key} (blobs/${blob.file}) ${reason}`, { cause: err });
  }
  if (size !== blob.size || hash.digest('hex') !== blob.sha256) {
    throw new RestoreError(`the backup's copy of ${blob.key} is damaged`);
  }
}

/**
 * Restores a backup into an empty instance: the database is migrated to the backup's version, every
 * object is checked against its SHA-256 and stored, the rows go in (parents first), then the database is
 * migrated to this build's latest version. Files whose object the backup lacked are left out, with their
 * shares; uploads that were in progress are aborted, as their storage uploads do not exist in the new store.
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
  // Checked before and after migrating: a never-migrated database has no tables to look at yet.
  await checkTarget(db, manifest);
  await migrateToLatest(db, backupVersion);
  const generated = await checkTarget(db, manifest);

  // Objects first: a row that names an object is only ever inserted once the object is there.
  for (const blob of manifest.blobs) {
    const path = join(dir, 'blobs', blob.file);
    await checkObjectFile(path, blob);
    await options.blobStore.put(blob.key, createReadStream(path), { size: blob.size });
  }

  const inBackup = new Set(manifest.tables.map((table) => table.name));
  await db.transaction().execute(async (trx) => {
    for (const name of generated.filter((table) => inBackup.has(table))) {
      await sql`delete from ${sql.table(name)}`.execute(trx);
    }
    for (const name of TABLE_ORDER.filter((table) => inBackup.has(table))) {
      const text = await readFile(join(dir, 'tables', `${name}.jsonl`), 'utf8');
      const rows = text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      for (let i = 0; i < rows.length; i += BATCH) {
        await trx
          .withTables<Record<string, Record<string, unknown>>>()
          .insertInto(name)
          .values(rows.slice(i, i + BATCH))
          .execute();
      }
    }
    if (manifest.missingFiles.length > 0) {
      await trx.deleteFrom('files').where('id', 'in', manifest.missingFiles).execute();
    }
    const pending = trx.selectFrom('uploads').select('id').where('status', '=', 'pending');
    await trx.deleteFrom('upload_parts').where('upload_id', 'in', pending).execute();
    await trx
      .updateTable('uploads')
      .set({ status: 'aborted', updated_at: nowIso(options.now?.()) })
      .where('status', '=', 'pending')
      .execute();
  });
  await migrateToLatest(db);
  return manifest;
}
