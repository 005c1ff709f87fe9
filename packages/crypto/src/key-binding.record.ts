import { InvalidArgumentError } from './crypto.errors.js';
import { SIGNED_LABELS } from './signed-message.encoding.js';
import { defineSignedRecord, type SignedStatement } from './signed-record.kind.js';
import { canonicalEmail, sha256HexOfB64, type SignatureCheck } from './signed-record.util.js';
import { comparedFields, verifySignedRecord } from './signed-record.verify.js';
import { signingAlgorithmOf, SIGNING_ALGORITHMS, type SigningAlgorithm } from './signing-key.pair.js';

/**
 * The key binding: a user's signing key vouching for their RSA-OAEP key, their email and key id.
 * Published beside the key record as the JSON text `keyBindingJson`, members in this order.
 */
export interface KeyBinding {
  v: 1;
  type: 'key-binding';
  /** Canonical (lower-case) email of the key's owner. */
  email: string;
  /** The key record's id (`keyId`). */
  keyId: string;
  /** Lowercase hex SHA-256 of the RSA-OAEP public key's SPKI bytes. */
  publicKeySha256Hex: string;
  /** Lowercase hex SHA-256 of the signing public key's SPKI bytes. */
  signingKeySha256Hex: string;
  signingAlgorithm: SigningAlgorithm;
  /** ISO 8601 UTC, `Date#toISOString` form (whole milliseconds). */
  createdAt: string;
  /** base64 of the signature of {@link keyBindingMessage} by the signing key. */
  signatureB64: string;
}

/** What a key binding states, before signing. */
export interface KeyBindingFields {
  email: string;
  keyId: string;
  /** The key record's `publicKey` (base64 SPKI, RSA-OAEP). */
  publicKeyB64: string;
  /** The key record's `signingPublicKey` (base64 SPKI). */
  signingPublicKeyB64: string;
}

const KEY_BINDING = defineSignedRecord<KeyBinding>({
  type: 'key-binding',
  label: SIGNED_LABELS.keyBinding,
  name: 'key binding',
  members: {
    email: 'email',
    keyId: 'text',
    publicKeySha256Hex: 'sha256Hex',
    signingKeySha256Hex: 'sha256Hex',
    signingAlgorithm: 'text',
    createdAt: 'iso',
  },
  check: (binding) => SIGNING_ALGORITHMS.includes(binding.signingAlgorithm),
});

/**
 * The signed bytes of a key binding: label `coffer-v1/key-binding`, then email (UTF-8), keyId
 * (UTF-8), SHA-256 of the RSA SPKI (32 bytes), SHA-256 of the signing SPKI (32 bytes), the signing
 * algorithm's name (ASCII) and createdAt (u64 milliseconds since 1970).
 */
export const keyBindingMessage = KEY_BINDING.message;

/** Parses a key binding's JSON text strictly; null when it is not one. */
export const parseKeyBinding = KEY_BINDING.parse;

/**
 * Signs a key binding with the user's signing private key (at set-up, or when a user who had only
 * an RSA key gets a signing key). Returns its JSON text.
 */
export async function createKeyBinding(
  fields: KeyBindingFields,
  signingPrivateKey: CryptoKey,
  createdAt: Date = new Date(),
): Promise<string> {
  const publicKeySha256Hex = await sha256HexOfB64(fields.publicKeyB64);
  const signingKeySha256Hex = await sha256HexOfB64(fields.signingPublicKeyB64);
  if (publicKeySha256Hex === null || signingKeySha256Hex === null) {
    throw new InvalidArgumentError('public keys must be base64');
  }
  const statement: SignedStatement<KeyBinding> = {
    email: fields.email,
    keyId: fields.keyId,
    publicKeySha256Hex,
    signingKeySha256Hex,
    signingAlgorithm: signingAlgorithmOf(signingPrivateKey),
    createdAt: createdAt.toISOString(),
  };
  return KEY_BINDING.sign(statement, signingPrivateKey);
}

/**
 * Checks a served key binding against the served key record: signed by the served signing key,
 * and stating exactly this email, key id, RSA key and signing key.
 *
 * `valid` proves the binding was made by whoever holds the signing private key; that this is the
 * contact at all is what pinning (or comparing safety numbers) establishes.
 */
export async function verifyKeyBinding(
  keyBindingJson: string | undefined,
  expected: KeyBindingFields,
): Promise<SignatureCheck> {
  const verified = await verifySignedRecord(
    keyBindingJson,
    KEY_BINDING,
    expected.signingPublicKeyB64,
    'the signing public key',
  );
  if (!verified.ok) return verified.check;
  const { record: binding, signingPublicKey } = verified;
  return comparedFields({
    email: binding.email === canonicalEmail(expected.email),
    keyId: binding.keyId === expected.keyId,
    publicKeySha256Hex: binding.publicKeySha256Hex === (await sha256HexOfB64(expected.publicKeyB64)),
    signingKeySha256Hex: binding.signingKeySha256Hex === (await sha256HexOfB64(expected.signingPublicKeyB64)),
    signingAlgorithm: binding.signingAlgorithm === signingAlgorithmOf(signingPublicKey),
  });
}

/** Lowercase hex SHA-256 of SPKI bytes given as base64 (a key's identity in signed records). */
export async function keySha256Hex(publicKeyB64: string): Promise<string> {
  const hex = await sha256HexOfB64(publicKeyB64);
  if (hex === null) throw new InvalidArgumentError('public key is not valid base64');
  return hex;
}
