import { bytesToHex, concatBytes, hexToBytes, toBufferSource, utf8Bytes } from '../bytes.util.js';
import { InvalidArgumentError } from '../crypto.errors.js';
import { argon2idBytes, parseArgon2idParams } from '../kdf.argon2.js';
import { sha256 } from '../signed-record.util.js';
import { LINK_SECRET_LENGTH } from './link-secret.fragment.js';

/** HKDF info of the link key `K` (wraps what the link grants). */
export const LINK_WRAP_INFO = 'coffer-v2/link-wrap';
/** HKDF info of the link proof `A` (sent as `X-Link-Auth`; the server keeps only SHA-256(A)). */
export const LINK_AUTH_INFO = 'coffer-v2/link-auth';
/** A link password's Argon2id salt: 16 random bytes. */
export const LINK_PASSWORD_SALT_LENGTH = 16;

/** A link's password and the parameters its settings carry (`password: {salt, kdf}`). */
export interface LinkPassword {
  password: string;
  saltBytes: Uint8Array;
  /** The `kdf` member as served: Argon2id, at least the unlock key's minimums (else KdfDowngradeError). */
  kdf: Record<string, unknown>;
}

/** What a link secret (and password) gives. */
export interface LinkKeys {
  /** `K`: non-extractable AES-256-GCM (encrypt, decrypt, wrapKey, unwrapKey). */
  wrapKey: CryptoKey;
  /** `A`: 32 bytes that prove the secret (and password) to the server. */
  authKeyBytes: Uint8Array<ArrayBuffer>;
}

/** A new link password salt. */
export function createLinkPasswordSalt(): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(LINK_PASSWORD_SALT_LENGTH));
}

/**
 * `K = HKDF-SHA256(S || P, salt F, info "coffer-v2/link-wrap")` and
 * `A = HKDF-SHA256(S || P, salt F, info "coffer-v2/link-auth")`, 32 bytes each, where
 * `P = Argon2id(password, salt, kdf)` (32 bytes) with a password and empty without, and `F` the 32
 * bytes of the owner's signing key hash the fragment pins (empty for a link from before the pin).
 * Every guess of a password needs `S`, which the server never sees: what it stores (SHA-256(A), the
 * salt and the KDF parameters) cannot test a password offline. The pin goes into both keys, so an
 * altered pin is refused like an altered secret (another `A`, another `K`).
 * @throws {KdfDowngradeError} a `kdf` weaker than the unlock key's minimums.
 * @throws {InvalidKeyRecordError} a `kdf` that is not Argon2id parameters, or asks for too much work.
 */
export async function deriveLinkKeys(
  secretBytes: Uint8Array,
  password?: LinkPassword,
  ownerSigningKeySha256Hex: string | null = null,
): Promise<LinkKeys> {
  if (secretBytes.length !== LINK_SECRET_LENGTH) {
    throw new InvalidArgumentError(`a link secret is ${LINK_SECRET_LENGTH} bytes`);
  }
  if (ownerSigningKeySha256Hex !== null && !/^[0-9a-f]{64}$/.test(ownerSigningKeySha256Hex)) {
    throw new InvalidArgumentError('a signing key pin is 64 lower-case hex digits');
  }
  const saltBytes =
    ownerSigningKeySha256Hex === null ? new Uint8Array(0) : hexToBytes(ownerSigningKeySha256Hex);
  let passwordBytes: Uint8Array = new Uint8Array(0);
  if (password !== undefined) {
    if (password.kdf.name !== 'Argon2id') throw new InvalidArgumentError('a link password uses Argon2id');
    const params = parseArgon2idParams(password.kdf);
    if (password.saltBytes.length !== LINK_PASSWORD_SALT_LENGTH) {
      throw new InvalidArgumentError(`a link password salt is ${LINK_PASSWORD_SALT_LENGTH} bytes`);
    }
    passwordBytes = await argon2idBytes(password.password, password.saltBytes, params);
  }
  const ikmBytes = concatBytes([secretBytes, passwordBytes]);
  try {
    const ikm = await crypto.subtle.importKey('raw', ikmBytes, 'HKDF', false, ['deriveKey', 'deriveBits']);
    const hkdf = (info: string): HkdfParams => ({
      name: 'HKDF',
      hash: 'SHA-256',
      salt: saltBytes,
      info: utf8Bytes(info),
    });
    const wrapKey = await crypto.subtle.deriveKey(
      hkdf(LINK_WRAP_INFO),
      ikm,
      { name: 'AES-GCM', length: 256 },
      false,
      ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey'],
    );
    const authKeyBytes = new Uint8Array(await crypto.subtle.deriveBits(hkdf(LINK_AUTH_INFO), ikm, 256));
    return { wrapKey, authKeyBytes };
  } finally {
    ikmBytes.fill(0);
    passwordBytes.fill(0);
  }
}

/** `authKeyHash`: SHA-256(A) as 64 lower-case hex digits, what the server stores. */
export async function linkAuthKeyHashHex(authKeyBytes: Uint8Array): Promise<string> {
  return bytesToHex(await sha256(toBufferSource(authKeyBytes)));
}
