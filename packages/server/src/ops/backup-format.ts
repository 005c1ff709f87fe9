/**
 * The backup folder `npm run backup` writes and `npm run restore` reads:
 *
 *   manifest.json          format, creation time, migrations applied, tables and row counts, blobs
 *   tables/<table>.jsonl   one JSON object per row, read in one database snapshot
 *   blobs/<sha256(key)>    each object a snapshot's file refers to, byte for byte (ciphertext)
 *
 * Rows are dialect-neutral JSON, so a backup of SQLite restores into PostgreSQL and back.
 */

export const BACKUP_FORMAT = 'coffer-backup-v1';

export interface BackupBlob {
  key: string;
  /** Name of its file under `blobs/`: keys hold slashes and may be long. */
  file: string;
  size: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  createdAt: string;
  migrations: string[];
  tables: { name: string; rows: number }[];
  blobs: BackupBlob[];
  /**
   * Files of the snapshot whose object was gone when the blobs were copied (deleted while the backup
   * ran). The restore leaves them out, with their shares.
   */
  missingFiles: string[];
}
