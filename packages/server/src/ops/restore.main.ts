import { opsContext } from './ops-context.js';
import { restore } from './restore.js';

const { database, blobStore, dir } = opsContext('restore');
try {
  const manifest = await restore({ db: database.db, blobStore, dir });
  process.stdout.write(
    `Restored the backup of ${manifest.createdAt} (${manifest.blobs.length} objects) from ${dir}\n`,
  );
} finally {
  await database.destroy();
}
