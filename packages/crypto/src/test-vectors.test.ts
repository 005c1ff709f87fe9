import { createCipheriv, createHash, pbkdf2Sync } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from './base64.codec.js';
import { bytesToHex, hexToBytes } from './bytes.util.js';
import { chunkAad, decryptChunk, encryptChunk } from './chunk.cipher.js';
import { decryptStream, encryptStream } from './content.streams.js';
import { encryptedSize } from './content-size.math.js';
import { importFileKeyBytes, unwrapFileKey, wrapFileKey } from './file-key.wrap.js';
import { importPrivateKeyPkcs8, importPublicKeyB64 } from './key-pair.rsa.js';
import { publicKeyFingerprint } from './key.fingerprint.js';
import { parsePrivateKeyRecord, sealPrivateKeyRecord, unlockPrivateKey } from './private-key.record.js';
import { runTransform, splitBytes } from './testing/stream.helpers.js';
import type { ContentVectors, KeyVectors } from './tools/test-vectors.build.js';

// The checked-in vectors pin the format: if the implementation drifts, these fail.
const readVectors = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../test-vectors/${name}`, import.meta.url), 'utf8'));
const content = readVectors('content-v1.json') as ContentVectors;
const keys = readVectors('keys-v1.json') as KeyVectors;

/** The coffer-v1 chunk, computed with Node's own AES-GCM straight from the written format. */
function referenceChunk(
  keyHex: string,
  ivHex: string,
  index: number,
  isLast: boolean,
  plaintextHex: string,
): string {
  const aad = Buffer.concat([Buffer.from('coffer-v1', 'ascii'), Buffer.alloc(5)]);
  aad.writeUInt32BE(index, 9);
  aad[13] = isLast ? 1 : 0;
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), Buffer.from(ivHex, 'hex'));
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(Buffer.from(plaintextHex, 'hex')), cipher.final()]);
  return Buffer.concat([Buffer.from(ivHex, 'hex'), body, cipher.getAuthTag()]).toString('hex');
}

describe('content vectors (content-v1.json)', () => {
  it('are self-consistent and match an independent AES-GCM implementation', () => {
    expect(content.vectors.length).toBeGreaterThanOrEqual(5);
    for (const vector of content.vectors) {
      expect(vector.encryptedHex.length / 2).toBe(
        encryptedSize(vector.plaintextHex.length / 2, vector.chunkSize),
      );
      expect(vector.chunks.map((c) => c.encryptedHex).join('')).toBe(vector.encryptedHex);
      expect(vector.chunks.map((c) => c.plaintextHex).join('')).toBe(vector.plaintextHex);
      expect(bytesToBase64(hexToBytes(vector.encryptedHex))).toBe(vector.encryptedB64);
      for (const chunk of vector.chunks) {
        expect(chunk.encryptedHex).toBe(
          referenceChunk(content.fileKeyHex, chunk.ivHex, chunk.index, chunk.isLast, chunk.plaintextHex),
        );
      }
    }
  });

  for (const vector of content.vectors) {
    it(`reproduces "${vector.name}" exactly and decrypts it`, async () => {
      const fileKey = await importFileKeyBytes(hexToBytes(content.fileKeyHex));
      for (const chunk of vector.chunks) {
        expect(bytesToHex(chunkAad(chunk.index, chunk.isLast))).toBe(chunk.aadHex);
        const encrypted = await encryptChunk(
          fileKey,
          chunk.index,
          chunk.isLast,
          hexToBytes(chunk.plaintextHex),
          hexToBytes(chunk.ivHex),
        );
        expect(bytesToHex(encrypted)).toBe(chunk.encryptedHex);
        expect(bytesToHex(await decryptChunk(fileKey, chunk.index, chunk.isLast, encrypted))).toBe(
          chunk.plaintextHex,
        );
      }

      const ivs = vector.chunks.map((chunk) => hexToBytes(chunk.ivHex));
      const plaintext = hexToBytes(vector.plaintextHex);
      const ivSource = (index: number): Uint8Array => ivs[index] ?? new Uint8Array(0);
      const viaStream = await runTransform(
        encryptStream(fileKey, { chunkSize: vector.chunkSize, ivSource }),
        splitBytes(plaintext, () => 3),
      );
      expect(bytesToHex(viaStream)).toBe(vector.encryptedHex);
      const decrypted = await runTransform(decryptStream(fileKey, { chunkSize: vector.chunkSize }), [
        base64ToBytes(vector.encryptedB64),
      ]);
      expect(bytesToHex(decrypted)).toBe(vector.plaintextHex);
    });
  }
});

describe('key vectors (keys-v1.json)', () => {
  it('user key pair: the fingerprint is SHA-256 of the SPKI', async () => {
    const spki = base64ToBytes(keys.userKeyPair.publicKeyB64);
    const hex = createHash('sha256').update(spki).digest('hex').toUpperCase();
    expect(keys.userKeyPair.fingerprint).toBe(hex.match(/.{4}/g)?.join(' '));
    expect(await publicKeyFingerprint(keys.userKeyPair.publicKeyB64)).toBe(keys.userKeyPair.fingerprint);
  });

  it('file key wrap: the private key opens encryptedFileKey to the known file key', async () => {
    const privateKey = await importPrivateKeyPkcs8(base64ToBytes(keys.userKeyPair.pkcs8B64));
    const fileKey = await unwrapFileKey(keys.fileKeyWrap.encryptedFileKeyB64, privateKey);
    // Same key ⇔ same ciphertext for the same IV and AAD.
    const probe = await encryptChunk(fileKey, 0, true, new Uint8Array(4), new Uint8Array(12));
    const known = await importFileKeyBytes(hexToBytes(keys.fileKeyWrap.fileKeyHex));
    expect(probe).toEqual(await encryptChunk(known, 0, true, new Uint8Array(4), new Uint8Array(12)));

    // And a fresh wrap to the vector's public key opens with its private key.
    const publicKey = await importPublicKeyB64(keys.userKeyPair.publicKeyB64);
    const exportable = await importFileKeyBytes(hexToBytes(keys.fileKeyWrap.fileKeyHex), true);
    await expect(unwrapFileKey(await wrapFileKey(exportable, publicKey), privateKey)).resolves.toBeDefined();
  });

  for (const vector of keys.privateKeyRecords) {
    it(`private key record "${vector.name}": exact data, and it unlocks`, async () => {
      const pkcs8 = base64ToBytes(keys.userKeyPair.pkcs8B64);
      const record = JSON.parse(vector.recordJson) as {
        iv: string;
        salt: string;
        data: string;
        kdf?: unknown;
      };
      expect(bytesToHex(new TextEncoder().encode(vector.password))).toBe(vector.passwordUtf8Hex);

      // Independent computation with Node's PBKDF2 and AES-GCM.
      const wrapKey = pbkdf2Sync(
        Buffer.from(vector.passwordUtf8Hex, 'hex'),
        Buffer.from(vector.saltHex, 'hex'),
        vector.iterations,
        32,
        'sha256',
      );
      const cipher = createCipheriv('aes-256-gcm', wrapKey, Buffer.from(vector.ivHex, 'hex'));
      const data = Buffer.concat([cipher.update(pkcs8), cipher.final(), cipher.getAuthTag()]);
      expect(record.data).toBe(data.toString('base64'));
      expect(record.iv).toBe(Buffer.from(vector.ivHex, 'hex').toString('base64'));
      expect(record.salt).toBe(Buffer.from(vector.saltHex, 'hex').toString('base64'));

      // This implementation reproduces the record byte for byte (with kdf) …
      const sealed = await sealPrivateKeyRecord(pkcs8, vector.password, {
        iterations: vector.iterations,
        saltBytes: hexToBytes(vector.saltHex),
        ivBytes: hexToBytes(vector.ivHex),
      });
      const parsed = parsePrivateKeyRecord(vector.recordJson);
      if (parsed.hasKdf) expect(sealed).toBe(vector.recordJson);
      else expect((JSON.parse(sealed) as { data: string }).data).toBe(record.data);
      expect(parsed.iterations).toBe(vector.iterations);

      // … and unlocks it to the vector's key pair.
      const privateKey = await unlockPrivateKey(vector.recordJson, vector.password);
      await expect(unwrapFileKey(keys.fileKeyWrap.encryptedFileKeyB64, privateKey)).resolves.toBeDefined();
    });
  }
});
