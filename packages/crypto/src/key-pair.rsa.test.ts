import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from './base64.codec.js';
import { InvalidKeyError } from './crypto.errors.js';
import {
  exportPrivateKeyPkcs8,
  exportPublicKeyB64,
  generateUserKeyPair,
  importPrivateKeyPkcs8,
  importPublicKeyB64,
} from './key-pair.rsa.js';

describe('user key pair', () => {
  it('generates RSA-OAEP 2048 / 65537 / SHA-256', async () => {
    const { publicKey, privateKey } = await generateUserKeyPair();
    const algorithm = publicKey.algorithm as RsaHashedKeyAlgorithm;
    expect(algorithm.name).toBe('RSA-OAEP');
    expect(algorithm.modulusLength).toBe(2048);
    expect(Array.from(algorithm.publicExponent)).toEqual([1, 0, 1]);
    expect(algorithm.hash.name).toBe('SHA-256');
    expect(privateKey.extractable).toBe(true);
  });

  it('round-trips SPKI base64 and imports PKCS#8 as non-extractable decrypt/unwrap key', async () => {
    const pair = await generateUserKeyPair();
    const publicKeyB64 = await exportPublicKeyB64(pair.publicKey);
    expect(base64ToBytes(publicKeyB64).length).toBe(294); // SPKI DER of a 2048-bit RSA key
    const publicKey = await importPublicKeyB64(publicKeyB64);
    expect(publicKey.usages.sort()).toEqual(['encrypt', 'wrapKey']);

    const privateKey = await importPrivateKeyPkcs8(await exportPrivateKeyPkcs8(pair.privateKey));
    expect(privateKey.extractable).toBe(false);
    expect(privateKey.usages.sort()).toEqual(['decrypt', 'unwrapKey']);
    await expect(crypto.subtle.exportKey('pkcs8', privateKey)).rejects.toThrow();

    const message = new TextEncoder().encode('hello');
    const encrypted = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, publicKey, message);
    const decrypted = await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, privateKey, encrypted);
    expect(new Uint8Array(decrypted)).toEqual(message);
  });

  it('rejects malformed and wrong-size public keys with InvalidKeyError', async () => {
    await expect(importPublicKeyB64('not base64!')).rejects.toThrow(InvalidKeyError);
    await expect(importPublicKeyB64(bytesToBase64(new Uint8Array(40)))).rejects.toThrow(InvalidKeyError);
    const small = await crypto.subtle.generateKey(
      { name: 'RSA-OAEP', modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      true,
      ['encrypt', 'decrypt'],
    );
    const smallB64 = bytesToBase64(new Uint8Array(await crypto.subtle.exportKey('spki', small.publicKey)));
    await expect(importPublicKeyB64(smallB64)).rejects.toThrow(InvalidKeyError);
  });

  it('rejects malformed PKCS#8 with InvalidKeyError', async () => {
    await expect(importPrivateKeyPkcs8(new Uint8Array(64))).rejects.toThrow(InvalidKeyError);
  });
});
