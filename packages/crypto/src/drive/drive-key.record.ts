import { InvalidArgumentError } from '../crypto.errors.js';
import { SIGNED_LABELS } from '../signed-message.encoding.js';
import { defineSignedRecord, type SignedStatement } from '../signed-record.kind.js';
import { canonicalEmail, sha256HexOfB64, type SignatureCheck } from '../signed-record.util.js';
import { comparedFields, verifySignedRecord } from '../signed-record.verify.js';

/**
 * A drive key record: the user's own signature on a `wrappedDriveKey`. RSA-OAEP wraps to a PUBLIC
 * key, so anyone (the server) can make a wrap that opens: without this record, a server could hand
 * a user a drive key it chose, and then read every key and name the user puts under it. Travels as
 * the JSON text `driveKeyRecord` beside `wrappedDriveKey`, members in this order.
 */
export interface DriveKeyRecord {
  v: 1;
  type: 'drive-key';
  /** Canonical (lower-case) email of the user. */
  ownerEmail: string;
  /** The key pair the drive key is wrapped to. */
  keyId: string;
  /** Lowercase hex SHA-256 of the `wrappedDriveKey` bytes. */
  wrappedDriveKeySha256Hex: string;
  /** ISO 8601 UTC (`Date#toISOString`). */
  signedAt: string;
  signatureB64: string;
}

/** What the user knows when signing; also what is compared with the served key record. */
export interface DriveKeyRecordFields {
  ownerEmail: string;
  keyId: string;
  wrappedDriveKeyB64: string;
}

const DRIVE_KEY_RECORD = defineSignedRecord<DriveKeyRecord>({
  type: 'drive-key',
  label: SIGNED_LABELS.driveKey,
  name: 'drive key record',
  members: { ownerEmail: 'email', keyId: 'text', wrappedDriveKeySha256Hex: 'sha256Hex', signedAt: 'iso' },
});

/**
 * The signed bytes: label `coffer-v2/drive-key`, then ownerEmail, keyId (UTF-8), the wrapped drive
 * key's SHA-256 (32 bytes) and signedAt (u64 ms).
 */
export const driveKeyRecordMessage = DRIVE_KEY_RECORD.message;

/** Parses a drive key record's JSON text strictly; null when it is not one. */
export const parseDriveKeyRecord = DRIVE_KEY_RECORD.parse;

/** Signs a `wrappedDriveKey` with the user's own signing key, when it is made. Returns the JSON text. */
export async function signDriveKeyRecord(
  fields: DriveKeyRecordFields,
  signingPrivateKey: CryptoKey,
  signedAt: Date = new Date(),
): Promise<string> {
  const wrappedDriveKeySha256Hex = await sha256HexOfB64(fields.wrappedDriveKeyB64);
  if (wrappedDriveKeySha256Hex === null)
    throw new InvalidArgumentError('the wrapped drive key must be base64');
  const statement: SignedStatement<DriveKeyRecord> = {
    ownerEmail: fields.ownerEmail,
    keyId: fields.keyId,
    wrappedDriveKeySha256Hex,
    signedAt: signedAt.toISOString(),
  };
  return DRIVE_KEY_RECORD.sign(statement, signingPrivateKey);
}

/**
 * Checks a served `wrappedDriveKey` before it is used: its record must be signed by the user's OWN
 * signing key (verified at unlock) and name this user, key id and wrap. Anything but `valid`
 * (`unsigned` included) means the drive key is not the user's: never wrap or seal anything under it.
 */
export async function verifyDriveKeyRecord(
  driveKeyRecordJson: string | undefined,
  served: DriveKeyRecordFields,
  ownSigningPublicKeyB64: string,
): Promise<SignatureCheck> {
  const verified = await verifySignedRecord(
    driveKeyRecordJson,
    DRIVE_KEY_RECORD,
    ownSigningPublicKeyB64,
    'your signing key',
  );
  if (!verified.ok) return verified.check;
  const record = verified.record;
  return comparedFields({
    ownerEmail: record.ownerEmail === canonicalEmail(served.ownerEmail),
    keyId: record.keyId === served.keyId,
    wrappedDriveKeySha256Hex:
      record.wrappedDriveKeySha256Hex === (await sha256HexOfB64(served.wrappedDriveKeyB64)),
  });
}
