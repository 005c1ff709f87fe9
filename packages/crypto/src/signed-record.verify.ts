import { base64ToBytes } from './base64.codec.js';
import type { SignedEnvelope, SignedRecordKind } from './signed-record.kind.js';
import type { SignatureCheck } from './signed-record.util.js';
import { importSigningPublicKeyB64, verifyBytes } from './signing-key.pair.js';

/** A record whose signature verified (and the key that verified it), or the check to answer. */
export type VerifiedRecord<T> =
  { ok: true; record: T; signingPublicKey: CryptoKey } | { ok: false; check: SignatureCheck };

const refused = (reason: string): { ok: false; check: SignatureCheck } => ({
  ok: false,
  check: { status: 'invalid-signature', reason },
});

/** How many signing public keys stay imported: a screen checks records of a few people at most. */
export const VERIFY_KEY_CACHE_SIZE = 32;

/** Imported signing public keys by base64 SPKI, oldest first (a public key: nothing to keep secret). */
const importedKeys = new Map<string, Promise<CryptoKey>>();

/**
 * The signing public key for verifying, imported once per base64 SPKI: a list of 10,000 node
 * records checks them all with one key, and WebCrypto's import costs as much as a verify. A key
 * that does not import is not kept (each check refuses it again).
 * @throws {InvalidKeyError} as `importSigningPublicKeyB64`.
 */
export function verifyingKeyOf(signingPublicKeyB64: string): Promise<CryptoKey> {
  const known = importedKeys.get(signingPublicKeyB64);
  if (known !== undefined) return known;
  const importing = importSigningPublicKeyB64(signingPublicKeyB64);
  importedKeys.set(signingPublicKeyB64, importing);
  importing.catch(() => {
    if (importedKeys.get(signingPublicKeyB64) === importing) importedKeys.delete(signingPublicKeyB64);
  });
  if (importedKeys.size > VERIFY_KEY_CACHE_SIZE) {
    const oldest = importedKeys.keys().next().value;
    if (oldest !== undefined) importedKeys.delete(oldest);
  }
  return importing;
}

/**
 * The first half of every signed record's check: present (else `unsigned`), well formed, and signed
 * by the given key. Comparing the record with what the server serves beside it is each kind's own.
 * `keyName` names the key in the reason when it is not a signing key ("the owner's signing key").
 */
export async function verifySignedRecord<T extends SignedEnvelope>(
  json: string | undefined,
  kind: SignedRecordKind<T>,
  signingPublicKeyB64: string,
  keyName: string,
): Promise<VerifiedRecord<T>> {
  if (json === undefined) return { ok: false, check: { status: 'unsigned' } };
  const record = kind.parse(json);
  if (record === null) return refused(`the ${kind.name} is malformed`);
  let signingPublicKey: CryptoKey;
  try {
    signingPublicKey = await verifyingKeyOf(signingPublicKeyB64);
  } catch {
    return refused(`${keyName} is not valid`);
  }
  const signed = await verifyBytes(
    signingPublicKey,
    base64ToBytes(record.signatureB64),
    kind.message(record),
  );
  if (!signed) return refused(`the ${kind.name} signature does not verify`);
  return { ok: true, record, signingPublicKey };
}

/**
 * `valid` when every served field matches the record, else `mismatch` naming those that do not, in
 * the order given: `comparedFields({ name: record.name === served.name, … })`.
 */
export function comparedFields(matches: Record<string, boolean>): SignatureCheck {
  const fields = Object.keys(matches).filter((field) => !matches[field]);
  return fields.length === 0 ? { status: 'valid' } : { status: 'mismatch', fields };
}
