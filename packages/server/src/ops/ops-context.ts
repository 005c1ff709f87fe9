import { loadConfig } from '../config.js';
import { createDatabase } from '../infra/db/database.js';
import type { Database } from '../infra/db/database.js';
import { createBlobStore } from '../infra/storage/blob-store.factory.js';
import type { BlobStore } from '../infra/storage/blob-store.js';

/**
 * The database and blob store the server's own environment names (DATABASE_URL, S3_*, DATA_DIR), for the
 * operator's commands, and the folder given as their one argument.
 */
export function opsContext(command: string): { database: Database; blobStore: BlobStore; dir: string } {
  const dir = process.argv[2];
  if (dir === undefined || dir === '') {
    process.stderr.write(`usage: npm run ${command} -- <backup folder>\n`);
    process.exit(2);
  }
  const config = loadConfig(process.env);
  const database = createDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  return { database, blobStore: createBlobStore(config.storage), dir };
}
