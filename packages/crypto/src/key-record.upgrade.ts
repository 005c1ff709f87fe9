import { ARGON2ID_PARAMS } from './kdf.argon2.js';
import { parsePrivateKeyRecord } from './private-key.record.js';

/**
 * True when a key record should be re-wrapped with today's derivation after the next unlock
 * (`rewrapUserKeys(password, password, …)`): a PBKDF2 record, with or without `kdf`, or an Argon2id
 * record with less memory or fewer passes than {@link ARGON2ID_PARAMS} (none exists yet: readers
 * refuse anything below today's minimum).
 * @throws {InvalidKeyRecordError} the record is malformed.
 * @throws {KdfDowngradeError} the record asks for a weaker KDF than coffer-v1 allows.
 */
export function recordNeedsUpgrade(encryptedPrivateKeyJson: string): boolean {
  const { kdf } = parsePrivateKeyRecord(encryptedPrivateKeyJson);
  return (
    kdf.name !== 'Argon2id' ||
    kdf.memoryKiB < ARGON2ID_PARAMS.memoryKiB ||
    kdf.passes < ARGON2ID_PARAMS.passes
  );
}

/**
 * The revision of a key record (0 for PBKDF2 records): what the client's rollback guard compares
 * with the highest revision it has opened or written for this key.
 */
export function keyRecordRev(encryptedPrivateKeyJson: string): number {
  return parsePrivateKeyRecord(encryptedPrivateKeyJson).rev;
}
