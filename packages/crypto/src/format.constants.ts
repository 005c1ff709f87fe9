/** Name of the encryption format, stored in `encryptionInfo.format` and the first bytes of every chunk's AAD. */
export const FORMAT = 'coffer-v1';

/** Plaintext bytes per chunk: 95 MiB. Every chunk but the last is exactly this long. */
export const CHUNK_SIZE = 99_614_720;

/** Bytes of the random AES-GCM IV stored in front of each chunk. */
export const IV_LENGTH = 12;

/** Bytes of the AES-GCM authentication tag at the end of each chunk. */
export const TAG_LENGTH = 16;

/** Bytes each encrypted chunk adds to its plaintext: IV + tag. */
export const CHUNK_OVERHEAD = IV_LENGTH + TAG_LENGTH;

/** Bytes of a file key (AES-256). */
export const FILE_KEY_LENGTH = 32;

/** PBKDF2 iterations for new private key records (OWASP recommendation for PBKDF2-HMAC-SHA256). */
export const PBKDF2_ITERATIONS = 600_000;

/** PBKDF2 iterations implied by a private key record that has no `kdf` field (the product spec's value). */
export const LEGACY_PBKDF2_ITERATIONS = 100_000;

/**
 * The fewest PBKDF2 iterations a reader accepts (the product spec's value). A record asking for
 * fewer is a downgrade and is refused before any derivation.
 */
export const MIN_PBKDF2_ITERATIONS = LEGACY_PBKDF2_ITERATIONS;

/** Bytes of the random PBKDF2 salt in a private key record. */
export const PBKDF2_SALT_LENGTH = 16;

/** Largest chunk index the 32-bit AAD counter can express. */
export const MAX_CHUNK_INDEX = 0xffff_ffff;

/** RSA-OAEP parameters of a user key pair. */
export const RSA_OAEP_PARAMS = {
  name: 'RSA-OAEP',
  modulusLength: 2048,
  publicExponent: new Uint8Array([0x01, 0x00, 0x01]),
  hash: 'SHA-256',
} as const satisfies RsaHashedKeyGenParams;
