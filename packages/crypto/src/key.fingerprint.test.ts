import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base64ToBytes } from './base64.codec.js';
import { InvalidArgumentError, InvalidKeyError } from './crypto.errors.js';
import { exportPublicKeyB64, generateUserKeyPair } from './key-pair.rsa.js';
import { fingerprintSpki, publicKeyFingerprint, fingerprintFromSha256Hex } from './key.fingerprint.js';

describe('public key fingerprint', () => {
  it('is SHA-256 of the SPKI bytes, uppercase hex in 16 groups of 4', async () => {
    const publicKeyB64 = await exportPublicKeyB64((await generateUserKeyPair()).publicKey);
    const fingerprint = await publicKeyFingerprint(publicKeyB64);
    expect(fingerprint).toMatch(/^[0-9A-F]{4}( [0-9A-F]{4}){15}$/);
    const expected = createHash('sha256').update(base64ToBytes(publicKeyB64)).digest('hex').toUpperCase();
    expect(fingerprint.replaceAll(' ', '')).toBe(expected);
  });

  it('matches a known digest', async () => {
    // SHA-256("abc")
    expect(await fingerprintSpki(new TextEncoder().encode('abc'))).toBe(
      'BA78 16BF 8F01 CFEA 4141 40DE 5DAE 2223 B003 61A3 9617 7A9C B410 FF61 F200 15AD',
    );
  });

  it('rejects a public key that is not base64', async () => {
    await expect(publicKeyFingerprint('***')).rejects.toThrow(InvalidKeyError);
  });

  it('formats a hex SHA-256 (a pin) the same way', () => {
    expect(fingerprintFromSha256Hex('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')).toBe(
      'BA78 16BF 8F01 CFEA 4141 40DE 5DAE 2223 B003 61A3 9617 7A9C B410 FF61 F200 15AD',
    );
    expect(() => fingerprintFromSha256Hex('abc')).toThrow(InvalidArgumentError);
  });
});
