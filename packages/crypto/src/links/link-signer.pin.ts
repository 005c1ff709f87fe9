import { InvalidArgumentError } from '../crypto.errors.js';
import { sha256HexOfB64 } from '../signed-record.util.js';

/**
 * The pin of a share link's fragment: SHA-256 of the owner's signing public key (base64 SPKI, as
 * the owner's key record and the link's answer carry it), 64 lower-case hex digits.
 */
export async function linkSigningKeyPin(signingPublicKeyB64: string): Promise<string> {
  const hex = await sha256HexOfB64(signingPublicKeyB64);
  if (hex === null) throw new InvalidArgumentError('a signing public key is base64');
  return hex;
}

/**
 * Whether the signing key a server serves with a link is the one the link's fragment pins. A
 * recipient without an account has no pin of the owner of their own: the fragment's is the only
 * one, and without this check the owner's signatures would rest on the server's word (it could
 * serve a key of its own with records it signed itself). No key at all never matches.
 */
export async function linkSigningKeyMatches(
  servedSigningPublicKeyB64: string | null,
  pinnedSha256Hex: string,
): Promise<boolean> {
  if (servedSigningPublicKeyB64 === null) return false;
  return (await sha256HexOfB64(servedSigningPublicKeyB64)) === pinnedSha256Hex;
}
