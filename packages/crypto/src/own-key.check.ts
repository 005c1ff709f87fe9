import { KeyMismatchError } from './crypto.errors.js';
import { verifyKeyBinding } from './key-binding.record.js';
import { importPublicKeyB64 } from './key-pair.rsa.js';
import { importSigningPublicKeyB64, signBytes, verifyBytes } from './signing-key.pair.js';

const RSA_OAEP: RsaOaepParams = { name: 'RSA-OAEP' };
const PROBE_LENGTH = 32;

/**
 * Proves that `publicKeyB64` (the active key record's `publicKey`, as the server serves it) is the
 * public half of `privateKey` (just decrypted from that record with the user's password): a random
 * value encrypted to the served public key must decrypt with the private key. Works with the
 * non-extractable private key `unlockPrivateKey` returns (it needs the `decrypt` usage).
 *
 * Without this check a server could serve its own public key beside the user's genuine
 * `encryptedPrivateKey`: the user would then wrap every new file key to the server's key.
 * @throws {KeyMismatchError} the served key is not an RSA 2048 key, or not this private key's half.
 */
export async function assertOwnKeyPair(publicKeyB64: string, privateKey: CryptoKey): Promise<void> {
  let publicKey: CryptoKey;
  try {
    publicKey = await importPublicKeyB64(publicKeyB64);
  } catch (cause) {
    throw new KeyMismatchError('the served public key is not a valid RSA-OAEP 2048 key', { cause });
  }
  const probe = crypto.getRandomValues(new Uint8Array(PROBE_LENGTH));
  const encrypted = await crypto.subtle.encrypt(RSA_OAEP, publicKey, probe);
  let decrypted: Uint8Array;
  try {
    decrypted = new Uint8Array(await crypto.subtle.decrypt(RSA_OAEP, privateKey, encrypted));
  } catch (cause) {
    throw ownKeyMismatch(cause);
  }
  if (!sameBytes(decrypted, probe)) throw ownKeyMismatch();
}

function ownKeyMismatch(cause?: unknown): KeyMismatchError {
  return new KeyMismatchError(
    'the public key the server holds for you is not the one that belongs to your private key',
    cause === undefined ? undefined : { cause },
  );
}

/** Equality of two byte arrays (not constant-time: for public values only). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The user's own keys after unlock, as served by the server and as just decrypted. */
export interface OwnKeys {
  /** The active key record's `keyId`. */
  keyId: string;
  /** The signed-in user's email (from the identity token). */
  email: string;
  /** The active key record's `publicKey`. */
  publicKeyB64: string;
  /** Decrypted from the active key record's `encryptedPrivateKey`. */
  privateKey: CryptoKey;
  /** Absent for a user who has no signing key yet (set up before signing keys existed). */
  signing?: {
    /** The key record's `signingPublicKey`. */
    signingPublicKeyB64: string;
    /** Decrypted from the key record's `encryptedSigningKey`. */
    signingPrivateKey: CryptoKey;
    /** The key record's `keyBinding`; absent counts as a mismatch for a user with a signing key. */
    keyBindingJson: string | undefined;
  };
}

/**
 * The check to run at every unlock: the served RSA public key belongs to the decrypted private key,
 * the served signing public key to the decrypted signing key, and the key binding (signed by that
 * signing key) names this email, this key id and both keys.
 * @throws {KeyMismatchError} with a message saying which part does not match.
 */
export async function assertOwnKeys(keys: OwnKeys): Promise<void> {
  await assertOwnKeyPair(keys.publicKeyB64, keys.privateKey);
  if (keys.signing === undefined) return;
  const { signingPublicKeyB64, signingPrivateKey, keyBindingJson } = keys.signing;
  await assertOwnSigningKeyPair(signingPublicKeyB64, signingPrivateKey);
  const check = await verifyKeyBinding(keyBindingJson, {
    email: keys.email,
    keyId: keys.keyId,
    publicKeyB64: keys.publicKeyB64,
    signingPublicKeyB64,
  });
  switch (check.status) {
    case 'valid':
      return;
    case 'unsigned':
      throw new KeyMismatchError('your key record has a signing key but no key binding');
    case 'invalid-signature':
      throw new KeyMismatchError(`your key binding is not valid: ${check.reason}`);
    case 'mismatch':
      throw new KeyMismatchError(`your key binding does not match your keys (${check.fields.join(', ')})`);
  }
}

/**
 * Proves that `signingPublicKeyB64` is the public half of `signingPrivateKey`: a random value
 * signed with the private key verifies with the served public key.
 * @throws {KeyMismatchError} it is not.
 */
export async function assertOwnSigningKeyPair(
  signingPublicKeyB64: string,
  signingPrivateKey: CryptoKey,
): Promise<void> {
  let signingPublicKey: CryptoKey;
  try {
    signingPublicKey = await importSigningPublicKeyB64(signingPublicKeyB64);
  } catch (cause) {
    throw new KeyMismatchError('the served signing public key is not a valid signing key', { cause });
  }
  const probe = crypto.getRandomValues(new Uint8Array(PROBE_LENGTH));
  const signature = await signBytes(signingPrivateKey, probe);
  if (!(await verifyBytes(signingPublicKey, signature, probe))) {
    throw new KeyMismatchError(
      'the signing public key the server holds for you is not the one that belongs to your signing key',
    );
  }
}
