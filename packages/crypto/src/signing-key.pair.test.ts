import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from './base64.codec.js';
import { InvalidKeyError } from './crypto.errors.js';
import {
  exportSigningPublicKeyB64,
  generateSigningKeyPair,
  importSigningPublicKeyB64,
  preferredSigningAlgorithm,
  SIGNING_ALGORITHMS,
  signBytes,
  signingAlgorithmOfSpki,
  verifyBytes,
} from './signing-key.pair.js';

const message = new TextEncoder().encode('coffer');

describe('signing key pair', () => {
  it('prefers Ed25519 where WebCrypto has it (Node 20 does)', async () => {
    expect(await preferredSigningAlgorithm()).toBe('Ed25519');
    const pair = await generateSigningKeyPair();
    expect(pair.publicKey.algorithm.name).toBe('Ed25519');
  });

  it.each(SIGNING_ALGORITHMS)('%s: exports SPKI, re-imports it, signs and verifies', async (algorithm) => {
    const pair = await generateSigningKeyPair(algorithm);
    const publicKeyB64 = await exportSigningPublicKeyB64(pair.publicKey);
    const spki = base64ToBytes(publicKeyB64);
    expect(spki.length).toBe(algorithm === 'Ed25519' ? 44 : 91);
    expect(signingAlgorithmOfSpki(spki)).toBe(algorithm);
    const imported = await importSigningPublicKeyB64(publicKeyB64);
    const signature = await signBytes(pair.privateKey, message);
    expect(signature.length).toBe(64);
    expect(await verifyBytes(imported, signature, message)).toBe(true);
    expect(await verifyBytes(imported, signature, new TextEncoder().encode('coffeR'))).toBe(false);
    const flipped = new Uint8Array(signature);
    flipped[5] = (flipped[5] ?? 0) ^ 1;
    expect(await verifyBytes(imported, flipped, message)).toBe(false);
    expect(await verifyBytes(imported, signature.subarray(0, 63), message)).toBe(false);
  });

  it('Ed25519 signatures are deterministic (what makes the test vectors exact)', async () => {
    const pair = await generateSigningKeyPair('Ed25519');
    expect(await signBytes(pair.privateKey, message)).toEqual(await signBytes(pair.privateKey, message));
  });

  it('does not verify a signature with another key', async () => {
    const a = await generateSigningKeyPair('Ed25519');
    const b = await generateSigningKeyPair('Ed25519');
    expect(await verifyBytes(b.publicKey, await signBytes(a.privateKey, message), message)).toBe(false);
  });

  it('refuses keys that are not Ed25519 or P-256 SPKI with InvalidKeyError', async () => {
    await expect(importSigningPublicKeyB64('not base64')).rejects.toThrow(InvalidKeyError);
    await expect(importSigningPublicKeyB64(bytesToBase64(new Uint8Array(44)))).rejects.toThrow(
      InvalidKeyError,
    );
    const rsa = await crypto.subtle.generateKey(
      { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      true,
      ['encrypt', 'decrypt'],
    );
    const rsaB64 = bytesToBase64(new Uint8Array(await crypto.subtle.exportKey('spki', rsa.publicKey)));
    await expect(importSigningPublicKeyB64(rsaB64)).rejects.toThrow(InvalidKeyError);
    // A P-256 prefix with a point that is not on the curve.
    const p256 = base64ToBytes(
      await exportSigningPublicKeyB64((await generateSigningKeyPair('ECDSA-P256')).publicKey),
    );
    p256[60] = (p256[60] ?? 0) ^ 0xff;
    await expect(importSigningPublicKeyB64(bytesToBase64(p256))).rejects.toThrow(InvalidKeyError);
  });
});
