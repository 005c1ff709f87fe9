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
    signingPublicKey = await importSigningPublicKeyB64(signingPublicKeyB64);
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
