import { backup } from './backup.js';
import { opsContext } from './ops-context.js';

const { database, blobStore, dir } = opsContext('backup');
try {
  const manifest = await backup({ db: database.db, dialect: database.dialect, blobStore, dir });
  const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
  process.stdout.write(
    `Backed up ${rows} rows in ${manifest.tables.length} tables and ${manifest.blobs.length} objects to ${dir}\n`,
  );
  if (manifest.missingFiles.length > 0) {
    process.stdout.write(
      `${manifest.missingFiles.length} files were deleted while the backup ran: left out\n`,
    );
  }
} finally {
  await database.destroy();
}
