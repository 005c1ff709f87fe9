import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DB } from '../infra/db/schema.js';
import type { DatabaseDialect } from '../infra/db/database.js';
import { BlobNotFoundError } from '../infra/storage/blob-store.js';
import type { BlobStore } from '../infra/storage/blob-store.js';
import { BACKUP_FORMAT } from './backup-format.js';
import type { BackupBlob, BackupManifest } from './backup-format.js';
import { appliedMigrations, cofferTables } from '../infra/db/coffer-tables.js';

export interface BackupOptions {
  db: Kysely<DB>;
  dialect: DatabaseDialect;
  blobStore: BlobStore;
  /** An empty or missing folder. */
  dir: string;
  now?: () => Date;
}

type Row = Record<string, unknown>;

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

/**
 * Backs up a running Coffer: first every table in one database snapshot (a repeatable-read transaction,
 * so the rows agree with each other whatever the app writes meanwhile), then the object of every file in
 * that snapshot. Objects stored after the snapshot are not needed by it; one deleted in between is
 * recorded as missing. Nothing is held whole in memory but one table's rows.
 */
export async function backup(options: BackupOptions): Promise<BackupManifest> {
  const { db, dir } = options;
  // Owner-only: a backup holds the identity provider's signing and cookie keys, password hashes and the
  // server's secrets. chmod too, as mkdir leaves a folder that already exists as it was.
  for (const folder of [dir, join(dir, 'tables'), join(dir, 'blobs')]) {
    await mkdir(folder, { recursive: true, mode: PRIVATE_DIR });
    await chmod(folder, PRIVATE_DIR);
  }
  if ((await readdir(join(dir, 'tables'))).length > 0) throw new Error(`${dir} already holds a backup`);

  const snapshot = db.transaction();
  const { tables, migrations, objectKeys } = await (
    options.dialect === 'postgres' ? snapshot.setIsolationLevel('repeatable read') : snapshot
  ).execute(async (trx) => {
    const counted: { name: string; rows: number }[] = [];
    let files: Row[] = [];
    for (const name of await cofferTables(trx)) {
      const rows = (await sql<Row>`select * from ${sql.table(name)}`.execute(trx)).rows;
      await writeFile(
        join(dir, 'tables', `${name}.jsonl`),
        rows.map((row) => `${JSON.stringify(row)}\n`).join(''),
        { mode: PRIVATE_FILE },
      );
      counted.push({ name, rows: rows.length });
      if (name === 'files') files = rows;
    }
    return {
      tables: counted,
      migrations: await appliedMigrations(trx),
      objectKeys: files.map((row) => ({ id: String(row.id), key: String(row.object_key) })),
    };
  });

  const blobs: BackupBlob[] = [];
  const missingFiles: string[] = [];
  for (const { id, key } of objectKeys) {
    const file = createHash('sha256').update(key, 'utf8').digest('hex');
    try {
      const { body, size } = await options.blobStore.get(key);
      const hash = createHash('sha256');
      const hashing = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          done(null, chunk);
        },
      });
      await pipeline(
        Readable.from(body),
        hashing,
        createWriteStream(join(dir, 'blobs', file), { flags: 'wx', mode: PRIVATE_FILE }),
      );
      blobs.push({ key, file, size, sha256: hash.digest('hex') });
    } catch (err) {
      if (!(err instanceof BlobNotFoundError)) throw err;
      missingFiles.push(id);
    }
  }

  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    createdAt: (options.now?.() ?? new Date()).toISOString(),
    migrations,
    tables,
    blobs,
    missingFiles,
  };
  await writeFile(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, {
    mode: PRIVATE_FILE,
  });
  return manifest;
}
