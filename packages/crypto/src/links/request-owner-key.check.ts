import { spkiBytesFromB64 } from '../base64.codec.js';
import { bytesToHex } from '../bytes.util.js';
import { RequestKeyMismatchError } from '../crypto.errors.js';
import { sha256 } from '../signed-record.util.js';

/** SHA-256 of a base64 SPKI public key as 64 lower-case hex digits: what a request fragment carries. */
export async function ownerKeySha256Hex(publicKeyB64: string): Promise<string> {
  return bytesToHex(await sha256(spkiBytesFromB64(publicKeyB64, 'owner public key')));
}

/**
 * Checks the owner public key the server serves for a file request against the fingerprint in the
 * request link's fragment, before anything is encrypted to it.
 * @throws {RequestKeyMismatchError} another key (a swapped key), or not a key at all.
 */
export async function assertRequestOwnerKey(
  publicKeyB64: string,
  fragmentOwnerKeySha256Hex: string,
): Promise<void> {
  let servedHex: string;
  try {
    servedHex = await ownerKeySha256Hex(publicKeyB64);
  } catch (cause) {
    throw new RequestKeyMismatchError({ cause });
  }
  if (servedHex !== fragmentOwnerKeySha256Hex) throw new RequestKeyMismatchError();
}
