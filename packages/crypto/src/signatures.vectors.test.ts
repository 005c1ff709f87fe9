import { Buffer } from 'node:buffer';
import { createCipheriv, createHash, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { base64ToBytes } from './base64.codec.js';
import { hexToBytes } from './bytes.util.js';
import { createKeyBinding, verifyKeyBinding } from './key-binding.record.js';
import {
  parseFileManifest,
  signFileManifest,
  signFileManifestV2,
  verifyFileManifest,
} from './file-manifest.record.js';
import { importPrivateKeyPkcs8 } from './key-pair.rsa.js';
import { openPinSet } from './pin-set.record.js';
import { signShareGrant, verifyShareGrant } from './share-grant.record.js';
import type { KeyVectors, SignatureVectors } from './tools/test-vectors.build.js';

// The checked-in vectors pin the signed records byte for byte. Each message is rebuilt here from
// docs/encryption.md's rules with Node's Buffer, and each signature checked with Node's own Ed25519.
const readVectors = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../test-vectors/${name}`, import.meta.url), 'utf8'));
const vectors = readVectors('signatures-v1.json') as SignatureVectors;
const keys = readVectors('keys-v1.json') as KeyVectors;

type Field = string | number | Buffer;

/** The documented encoding, written independently of signed-message.encoding.ts. */
function reference(label: string, fields: Field[]): string {
  const parts = [Buffer.from([label.length]), Buffer.from(label, 'ascii'), u32(fields.length)];
  for (const field of fields) {
    const bytes =
      typeof field === 'string' ? Buffer.from(field, 'utf8') : typeof field === 'number' ? u64(field) : field;
    parts.push(u32(bytes.length), bytes);
  }
  return Buffer.concat(parts).toString('hex');
}
const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const u64 = (n: number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
};
const sha256 = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest();
const hex = (h: string): Buffer => Buffer.from(h, 'hex');
const ms = (iso: string): number => Date.parse(iso);

const nodePrivate = createPrivateKey({
  key: Buffer.from(vectors.signingKey.pkcs8B64, 'base64'),
  format: 'der',
  type: 'pkcs8',
});
const nodePublic = createPublicKey({
  key: Buffer.from(vectors.signingKey.signingPublicKeyB64, 'base64'),
  format: 'der',
  type: 'spki',
});

function expectNodeSignature(vector: { messageHex: string; signatureHex: string }): void {
  expect(sign(null, hex(vector.messageHex), nodePrivate).toString('hex')).toBe(vector.signatureHex);
  expect(verify(null, hex(vector.messageHex), nodePublic, hex(vector.signatureHex))).toBe(true);
}

async function vectorSigningKey(): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    'pkcs8',
    base64ToBytes(vectors.signingKey.pkcs8B64),
    { name: 'Ed25519' },
    false,
    ['sign'],
  );
}

describe('signature vectors (signatures-v1.json)', () => {
  it('the signing key is RFC 8032 test 1', () => {
    expect(Buffer.from(vectors.signingKey.signingPublicKeyB64, 'base64').toString('hex')).toBe(
      '302a300506032b6570032100d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    );
    // RFC 8032 test 1: the signature of the empty message.
    expect(sign(null, Buffer.alloc(0), nodePrivate).toString('hex')).toBe(
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
    );
  });

  it('key binding: exact message, signature and JSON', async () => {
    const v = vectors.keyBinding;
    const spki = Buffer.from(vectors.signingKey.signingPublicKeyB64, 'base64');
    expect(v.messageHex).toBe(
      reference('coffer-v1/key-binding', [
        v.email,
        v.keyId,
        sha256(Buffer.from(vectors.publicKeyB64, 'base64')),
        sha256(spki),
        'Ed25519',
        ms(v.createdAt),
      ]),
    );
    expectNodeSignature(v);
    const fields = {
      email: v.email,
      keyId: v.keyId,
      publicKeyB64: vectors.publicKeyB64,
      signingPublicKeyB64: vectors.signingKey.signingPublicKeyB64,
    };
    expect(await createKeyBinding(fields, await vectorSigningKey(), new Date(v.createdAt))).toBe(v.json);
    expect(await verifyKeyBinding(v.json, fields)).toEqual({ status: 'valid' });
  });

  it('file manifest: exact message, signature and JSON', async () => {
    const v = vectors.fileManifest;
    const { fields } = v;
    expect(v.messageHex).toBe(
      reference('coffer-v1/file-manifest', [
        fields.ownerEmail,
        fields.ownerKeyId,
        sha256(Buffer.from(v.ownerEncryptedFileKeyB64, 'base64')),
        fields.name,
        fields.contentType,
        fields.size,
        99_614_720,
        3,
        ms(v.signedAt),
      ]),
    );
    expect(v.manifestSha256Hex).toBe(sha256(hex(v.messageHex)).toString('hex'));
    expectNodeSignature(v);
    const json = await signFileManifest(
      { ...fields, ownerEncryptedFileKeyB64: v.ownerEncryptedFileKeyB64 },
      await vectorSigningKey(),
      new Date(v.signedAt),
    );
    expect(json).toBe(v.json);
    expect(
      await verifyFileManifest(
        v.json,
        { ...fields, ownerEncryptedFileKeyB64: v.ownerEncryptedFileKeyB64 },
        vectors.signingKey.signingPublicKeyB64,
      ),
    ).toEqual({ status: 'valid' });
  });

  it('file manifest v2: exact message, signature and JSON; the sealed metadata is compared by its hash', async () => {
    const v = vectors.fileManifestV2;
    const { fields } = v;
    expect(v.messageHex).toBe(
      reference('coffer-v2/file-manifest', [
        fields.ownerEmail,
        fields.ownerKeyId,
        sha256(Buffer.from(v.ownerEncryptedFileKeyB64, 'base64')),
        sha256(Buffer.from(v.encryptedMetadataB64, 'base64')),
        fields.size,
        99_614_720,
        3,
        ms(v.signedAt),
      ]),
    );
    expect(v.manifestSha256Hex).toBe(sha256(hex(v.messageHex)).toString('hex'));
    expectNodeSignature(v);
    const signFields = {
      ...fields,
      ownerEncryptedFileKeyB64: v.ownerEncryptedFileKeyB64,
      encryptedMetadataB64: v.encryptedMetadataB64,
    };
    expect(await signFileManifestV2(signFields, await vectorSigningKey(), new Date(v.signedAt))).toBe(v.json);
    const parsed = parseFileManifest(v.json);
    expect(parsed?.v).toBe(2);
    expect(parsed).toHaveProperty(
      'metadataSha256Hex',
      sha256(Buffer.from(v.encryptedMetadataB64, 'base64')).toString('hex'),
    );
    expect(JSON.parse(v.json)).not.toHaveProperty('name');
    const served = { ...signFields, name: 'encrypted', contentType: 'application/octet-stream' };
    const key = vectors.signingKey.signingPublicKeyB64;
    expect(await verifyFileManifest(v.json, served, key)).toEqual({ status: 'valid' });
    expect(
      await verifyFileManifest(
        v.json,
        { ...served, encryptedMetadataB64: Buffer.from('other').toString('base64') },
        key,
      ),
    ).toEqual({ status: 'mismatch', fields: ['metadataSha256Hex'] });
  });

  it('share grant: exact message, signature and JSON', async () => {
    const v = vectors.shareGrant;
    const { fields } = v;
    expect(v.messageHex).toBe(
      reference('coffer-v1/share-grant', [
        fields.fileId,
        fields.ownerEmail,
        fields.recipientEmail,
        fields.recipientKeyId,
        sha256(Buffer.from(vectors.publicKeyB64, 'base64')),
        sha256(Buffer.from(v.encryptedFileKeyB64, 'base64')),
        hex(vectors.fileManifest.manifestSha256Hex),
        ms(v.signedAt),
      ]),
    );
    expectNodeSignature(v);
    const served = {
      ...fields,
      recipientPublicKeyB64: vectors.publicKeyB64,
      encryptedFileKeyB64: v.encryptedFileKeyB64,
      manifestJson: vectors.fileManifest.json,
    };
    expect(await signShareGrant(served, await vectorSigningKey(), new Date(v.signedAt))).toBe(v.json);
    expect(await verifyShareGrant(v.json, served, vectors.signingKey.signingPublicKeyB64)).toEqual({
      status: 'valid',
    });
  });

  it('pin set: exact AAD, ciphertext and signature; opens with the keys-v1 private key', async () => {
    const v = vectors.pinSet;
    expect(v.aadHex).toBe(reference('coffer-v1/pin-set', [1]));
    const cipher = createCipheriv('aes-256-gcm', hex(v.pinKeyHex), hex(v.ivHex));
    cipher.setAAD(hex(v.aadHex));
    const data = Buffer.concat([
      cipher.update(Buffer.from(v.plaintextJson, 'utf8')),
      cipher.final(),
      cipher.getAuthTag(),
    ]);
    expect(data.toString('hex')).toBe(v.dataHex);
    expect(v.messageHex).toBe(
      reference('coffer-v1/pin-set', [1, hex(v.wrappedKeyHex), hex(v.ivHex), hex(v.dataHex)]),
    );
    expectNodeSignature(v);

    const privateKey = await importPrivateKeyPkcs8(base64ToBytes(keys.userKeyPair.pkcs8B64));
    const pinKey = await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, privateKey, hexToBytes(v.wrappedKeyHex));
    expect(Buffer.from(pinKey).toString('hex')).toBe(v.pinKeyHex);
    const pinSet = await openPinSet(v.json, {
      privateKey,
      signingPublicKeyB64: vectors.signingKey.signingPublicKeyB64,
    });
    expect(JSON.stringify(pinSet)).toBe(v.plaintextJson);
  });
});
