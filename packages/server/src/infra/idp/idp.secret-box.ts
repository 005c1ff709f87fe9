import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Seals short secrets (TOTP keys) at rest with AES-256-GCM under a server secret, bound to their row by
 * the additional data (the account id), so a sealed value copied to another account does not open.
 * The key lives in `server_secrets`: a leak of the factor table alone (a query log, a partial dump)
 * reveals no TOTP key; a full database copy holds both.
 */
export interface SecretBox {
  seal(plaintext: string, boundTo: string): string;
  /** Throws when the value was not sealed with this key for `boundTo`. */
  open(sealed: string, boundTo: string): string;
}

export function createSecretBox(key: Uint8Array): SecretBox {
  if (key.length !== 32) throw new Error('secret box key must be 32 bytes');
  return {
    seal(plaintext, boundTo) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(boundTo, 'utf8'));
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `v1.${iv.toString('base64url')}.${data.toString('base64url')}`;
    },
    open(sealed, boundTo) {
      const [version, ivText, dataText] = sealed.split('.');
      if (version !== 'v1' || ivText === undefined || dataText === undefined) {
        throw new Error('unknown sealed secret format');
      }
      const data = Buffer.from(dataText, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(ivText, 'base64url'));
      decipher.setAAD(Buffer.from(boundTo, 'utf8'));
      decipher.setAuthTag(data.subarray(data.length - 16));
      return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
