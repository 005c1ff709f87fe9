import type { Migration } from 'kysely';
import { m0001Initial } from './0001-initial.js';
import { m0002IdpFederation } from './0002-idp-federation.js';
import { m0003VerifiedIdentities } from './0003-verified-identities.js';
import { m0004SignedRecords } from './0004-signed-records.js';
import { m0005ServerSecrets } from './0005-server-secrets.js';
import { m0006ListIndexes } from './0006-list-indexes.js';
import { m0007IdpFactors } from './0007-idp-factors.js';
import { m0008RecoveryKits } from './0008-recovery-kits.js';
import { m0009EncryptedDrive } from './0009-encrypted-drive.js';
import { m0010LinksRequests } from './0010-links-requests.js';
import { m0011DriveKeyRecords } from './0011-drive-key-records.js';
import { m0012RequestUploaders } from './0012-request-uploaders.js';
import { m0013DownloadFiles } from './0013-download-files.js';

/**
 * Every migration, by name. Kysely applies them in name order and records each name once applied, so
 * names sort by version (`NNNN_description`) and never change. Add a new file and a line here; never edit
 * a released migration.
 */
export const migrations: Readonly<Record<string, Migration>> = {
  '0001_initial': m0001Initial,
  '0002_idp_federation': m0002IdpFederation,
  '0003_verified_identities': m0003VerifiedIdentities,
  '0004_signed_records': m0004SignedRecords,
  // Added after 0006 had shipped: migrate.ts lets this one (only) run after a later one.
  '0005_server_secrets': m0005ServerSecrets,
  '0006_list_indexes': m0006ListIndexes,
  '0007_idp_factors': m0007IdpFactors,
  '0008_recovery_kits': m0008RecoveryKits,
  '0009_encrypted_drive': m0009EncryptedDrive,
  '0010_links_requests': m0010LinksRequests,
  '0011_drive_key_records': m0011DriveKeyRecords,
  '0012_request_uploaders': m0012RequestUploaders,
  '0013_download_files': m0013DownloadFiles,
};
