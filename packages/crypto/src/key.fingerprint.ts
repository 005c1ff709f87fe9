import { spkiBytesFromB64 } from './base64.codec.js';
import { toBufferSource } from './bytes.util.js';
import { InvalidArgumentError } from './crypto.errors.js';

/**
 * Fingerprint of a public key, for users to compare out of band: SHA-256 of the SPKI DER bytes,
 * as 64 uppercase hex digits in 16 groups of 4 separated by single spaces, e.g.
 * `"9F86 D081 884C 7D65 …"` (79 characters).
 */
export async function fingerprintSpki(spkiBytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', toBufferSource(spkiBytes)));
  return fingerprintFromSha256Hex(Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join(''));
}

/**
 * The fingerprint (safety number) format of a SHA-256 given as hex, e.g. a pin's
 * `publicKeySha256Hex`: the same 79 characters {@link fingerprintSpki} gives for the key.
 * @throws {InvalidArgumentError} not 64 hex digits.
 */
export function fingerprintFromSha256Hex(sha256Hex: string): string {
  if (!/^[0-9a-fA-F]{64}$/.test(sha256Hex)) throw new InvalidArgumentError('expected 64 hex digits');
  return sha256Hex.toUpperCase().match(/.{4}/g)?.join(' ') ?? '';
}

/** {@link fingerprintSpki} of a base64 SPKI public key (the `publicKey` of a key record). */
export async function publicKeyFingerprint(publicKeyB64: string): Promise<string> {
  return fingerprintSpki(spkiBytesFromB64(publicKeyB64));
}
