import { opsContext } from './ops-context.js';
import { restore, RestoreError } from './restore.js';

const { database, blobStore, dir } = opsContext('restore');
try {
  const manifest = await restore({ db: database.db, blobStore, dir });
  process.stdout.write(
    `Restored the backup of ${manifest.createdAt} (${manifest.blobs.length} objects) from ${dir}\n`,
  );
} catch (err) {
  // A refused restore is the operator's to fix: say why, without a stack trace.
  if (!(err instanceof RestoreError)) throw err;
  process.stderr.write(`restore refused: ${err.message}\n`);
  process.exitCode = 1;
} finally {
  await database.destroy();
}
