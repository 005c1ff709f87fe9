import { FILE_KEY_LENGTH, IV_LENGTH } from '../format.constants.js';

/** Every key in the drive's tree (drive, folder and file keys) is 32 random bytes for AES-256-GCM. */
export const NODE_KEY_PARAMS: AesKeyGenParams = { name: 'AES-GCM', length: FILE_KEY_LENGTH * 8 };

/** True for an AES-GCM 256-bit key. A 16- or 24-byte payload would unwrap as AES-128/192. */
export function isAes256GcmKey(key: CryptoKey): boolean {
  const algorithm = key.algorithm as Partial<AesKeyAlgorithm>;
  return algorithm.name === 'AES-GCM' && algorithm.length === FILE_KEY_LENGTH * 8;
}

/**
 * A non-extractable copy of an extractable key, with these usages, made inside WebCrypto (wrapped
 * under a throwaway key and unwrapped as non-extractable), so its bytes never reach JavaScript.
 */
export async function nonExtractableCopy(key: CryptoKey, usages: KeyUsage[]): Promise<CryptoKey> {
  const handover = await crypto.subtle.generateKey(NODE_KEY_PARAMS, false, ['wrapKey', 'unwrapKey']);
  const iv = crypto.getRandomValues(new Uint8Array(IV_LENGTH));
  const wrapped = await crypto.subtle.wrapKey('raw', key, handover, { name: 'AES-GCM', iv });
  return crypto.subtle.unwrapKey('raw', wrapped, handover, { name: 'AES-GCM', iv }, 'AES-GCM', false, usages);
}
