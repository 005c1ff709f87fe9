import { Buffer } from 'node:buffer';
import {
  constants,
  createCipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  privateDecrypt,
  verify,
} from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from '../base64.codec.js';
import { hexToBytes } from '../bytes.util.js';
import { importPrivateKeyPkcs8 } from '../key-pair.rsa.js';
import { signDriveKeyRecord, verifyDriveKeyRecord } from './drive-key.record.js';
import { unwrapDriveKey } from './drive-key.wrap.js';
import { unwrapFolderKeyFromGrant } from './folder-key.share.js';
import { signFolderGrant, verifyFolderGrant } from './folder-grant.record.js';
import { unwrapNodeKey, wrapNodeKeyWith } from './node-key.wrap.js';
import { openMetadata, sealMetadataWith } from './node-metadata.seal.js';
import { signNodeRecord, verifyNodeRecord, type NodeRecordFields } from './node.record.js';

// drive-v2.json pins the key hierarchy's formats byte for byte. Each AES-GCM output is recomputed
// here with Node's own crypto from docs/encryption.md's rules, each signed message rebuilt with an
// encoder written apart from signed-message.encoding.ts, and each signature checked with Node's Ed25519.

interface Sealed {
  aad: string;
  ivHex: string;
}
interface NodeVector {
  nodeId: string;
  parentNodeId: string;
  keyHex: string;
  wrap: Sealed & { wrappedKeyHex: string };
  metadata: Sealed & { plaintext: string; encryptedMetadataHex: string };
  nodeRecord: { signedAt: string; json: string; messageHex: string; signatureHex: string };
}
interface DriveVectors {
  driveKeyHex: string;
  wrappedDriveKeyB64: string;
  driveKeyRecord: { keyId: string; signedAt: string; json: string; messageHex: string; signatureHex: string };
  folder: NodeVector;
  file: NodeVector;
  folderGrant: {
    recipientEmail: string;
    recipientKeyId: string;
    encryptedFolderKeyB64: string;
    signedAt: string;
    json: string;
    messageHex: string;
    signatureHex: string;
  };
}

const read = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../test-vectors/${name}`, import.meta.url), 'utf8'));
const v = read('drive-v2.json') as DriveVectors;
const keys = read('keys-v1.json') as { userKeyPair: { pkcs8B64: string; publicKeyB64: string } };
const sigs = read('signatures-v1.json') as {
  signingKey: { pkcs8B64: string; signingPublicKeyB64: string };
  fileManifest: { json: string; messageHex: string };
};
const OWNER = 'alice@example.com';

/** AES-256-GCM with Node's crypto: iv || ciphertext || tag. */
function nodeGcm(keyHex: string, sealed: Sealed, plaintext: Buffer): string {
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), Buffer.from(sealed.ivHex, 'hex'));
  cipher.setAAD(Buffer.from(sealed.aad, 'ascii'));
  return Buffer.concat([
    Buffer.from(sealed.ivHex, 'hex'),
    cipher.update(plaintext),
    cipher.final(),
    cipher.getAuthTag(),
  ]).toString('hex');
}

/** The documented message encoding, written independently. */
function reference(label: string, fields: (string | Buffer)[]): string {
  const u32 = (n: number): Buffer => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  const parts = [Buffer.from([label.length]), Buffer.from(label, 'ascii'), u32(fields.length)];
  for (const field of fields) {
    const bytes = typeof field === 'string' ? Buffer.from(field, 'utf8') : field;
    parts.push(u32(bytes.length), bytes);
  }
  return Buffer.concat(parts).toString('hex');
}
const ms = (iso: string): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(Date.parse(iso)));
  return b;
};
const sha256 = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest();
const hex = (h: string): Buffer => Buffer.from(h, 'hex');

const edPublic = createPublicKey({
  key: Buffer.from(sigs.signingKey.signingPublicKeyB64, 'base64'),
  format: 'der',
  type: 'spki',
});
const rsaPrivate = createPrivateKey({
  key: Buffer.from(keys.userKeyPair.pkcs8B64, 'base64'),
  format: 'der',
  type: 'pkcs8',
});
const rsaDecrypt = (b64: string): string =>
  privateDecrypt(
    { key: rsaPrivate, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(b64, 'base64'),
  ).toString('hex');

const importAes = (keyHex: string): Promise<CryptoKey> =>
  crypto.subtle.importKey('raw', hexToBytes(keyHex), 'AES-GCM', true, [
    'encrypt',
    'decrypt',
    'wrapKey',
    'unwrapKey',
  ]);
const signingKey = (): Promise<CryptoKey> =>
  crypto.subtle.importKey('pkcs8', base64ToBytes(sigs.signingKey.pkcs8B64), { name: 'Ed25519' }, false, [
    'sign',
  ]);

function served(node: NodeVector, kind: 'file' | 'folder'): NodeRecordFields {
  return {
    ownerEmail: OWNER,
    nodeId: node.nodeId,
    parentNodeId: node.parentNodeId,
    kind,
    wrappedKeyB64: bytesToBase64(hexToBytes(node.wrap.wrappedKeyHex)),
    encryptedMetadataB64: bytesToBase64(hexToBytes(node.metadata.encryptedMetadataHex)),
    manifestJson: kind === 'file' ? sigs.fileManifest.json : undefined,
  };
}

describe('key hierarchy vectors (drive-v2.json)', () => {
  it('the drive key wrap opens with the keys-v1 private key', async () => {
    expect(rsaDecrypt(v.wrappedDriveKeyB64)).toBe(v.driveKeyHex);
    const privateKey = await importPrivateKeyPkcs8(base64ToBytes(keys.userKeyPair.pkcs8B64));
    const driveKey = await unwrapDriveKey(v.wrappedDriveKeyB64, privateKey);
    const folder = v.folder;
    const place = { parentNodeId: folder.parentNodeId, nodeId: folder.nodeId };
    await expect(
      unwrapNodeKey(bytesToBase64(hexToBytes(folder.wrap.wrappedKeyHex)), driveKey, place, 'folder'),
    ).resolves.toBeDefined();
  });

  it('drive key record: exact message, signature and JSON', async () => {
    const r = v.driveKeyRecord;
    expect(r.messageHex).toBe(
      reference('coffer-v2/drive-key', [
        OWNER,
        r.keyId,
        sha256(Buffer.from(v.wrappedDriveKeyB64, 'base64')),
        ms(r.signedAt),
      ]),
    );
    expect(verify(null, hex(r.messageHex), edPublic, hex(r.signatureHex))).toBe(true);
    const fields = { ownerEmail: OWNER, keyId: r.keyId, wrappedDriveKeyB64: v.wrappedDriveKeyB64 };
    expect(await signDriveKeyRecord(fields, await signingKey(), new Date(r.signedAt))).toBe(r.json);
    expect(await verifyDriveKeyRecord(r.json, fields, sigs.signingKey.signingPublicKeyB64)).toEqual({
      status: 'valid',
    });
  });

  for (const [name, parentKeyHex, kind] of [
    ['folder', v.driveKeyHex, 'folder'],
    ['file', v.folder.keyHex, 'file'],
  ] as const) {
    it(`${name}: node key wrap and metadata, byte for byte, and Node's AES-GCM agrees`, async () => {
      const node = v[name];
      const place = { parentNodeId: node.parentNodeId, nodeId: node.nodeId };
      expect(node.wrap.aad).toBe(`coffer-v2/node-key/${node.parentNodeId}/${node.nodeId}`);
      expect(node.metadata.aad).toBe(`coffer-v2/metadata/${node.nodeId}`);
      expect(nodeGcm(parentKeyHex, node.wrap, hex(node.keyHex))).toBe(node.wrap.wrappedKeyHex);
      expect(nodeGcm(node.keyHex, node.metadata, Buffer.from(node.metadata.plaintext, 'utf8'))).toBe(
        node.metadata.encryptedMetadataHex,
      );

      const parentKey = await importAes(parentKeyHex);
      const nodeKey = await importAes(node.keyHex);
      const wrapped = await wrapNodeKeyWith(nodeKey, parentKey, place, hex(node.wrap.ivHex));
      expect(Buffer.from(base64ToBytes(wrapped)).toString('hex')).toBe(node.wrap.wrappedKeyHex);
      const metadata = JSON.parse(node.metadata.plaintext) as { name: string; contentType?: string };
      const sealed = await sealMetadataWith(nodeKey, node.nodeId, metadata, hex(node.metadata.ivHex));
      expect(Buffer.from(base64ToBytes(sealed)).toString('hex')).toBe(node.metadata.encryptedMetadataHex);

      const opened = await unwrapNodeKey(wrapped, parentKey, place, kind);
      expect(await openMetadata(opened, node.nodeId, sealed)).toEqual(metadata);
    });

    it(`${name}: node record, exact message, signature and JSON`, async () => {
      const node = v[name];
      const fields = served(node, kind);
      expect(node.nodeRecord.messageHex).toBe(
        reference('coffer-v2/node', [
          OWNER,
          node.nodeId,
          node.parentNodeId,
          kind,
          sha256(hex(node.wrap.wrappedKeyHex)),
          sha256(hex(node.metadata.encryptedMetadataHex)),
          kind === 'file' ? sha256(hex(sigs.fileManifest.messageHex)) : Buffer.alloc(0),
          ms(node.nodeRecord.signedAt),
        ]),
      );
      expect(verify(null, hex(node.nodeRecord.messageHex), edPublic, hex(node.nodeRecord.signatureHex))).toBe(
        true,
      );
      expect(await signNodeRecord(fields, await signingKey(), new Date(node.nodeRecord.signedAt))).toBe(
        node.nodeRecord.json,
      );
      expect(
        await verifyNodeRecord(node.nodeRecord.json, fields, sigs.signingKey.signingPublicKeyB64),
      ).toEqual({
        status: 'valid',
      });
    });
  }

  it('folder grant: exact message, signature and JSON; the wrapped folder key opens', async () => {
    const g = v.folderGrant;
    expect(rsaDecrypt(g.encryptedFolderKeyB64)).toBe(v.folder.keyHex);
    const fields = {
      folderNodeId: v.folder.nodeId,
      ownerEmail: OWNER,
      recipientEmail: g.recipientEmail,
      recipientKeyId: g.recipientKeyId,
      recipientPublicKeyB64: keys.userKeyPair.publicKeyB64,
      encryptedFolderKeyB64: g.encryptedFolderKeyB64,
    };
    expect(g.messageHex).toBe(
      reference('coffer-v2/folder-grant', [
        v.folder.nodeId,
        OWNER,
        g.recipientEmail,
        g.recipientKeyId,
        sha256(Buffer.from(keys.userKeyPair.publicKeyB64, 'base64')),
        sha256(Buffer.from(g.encryptedFolderKeyB64, 'base64')),
        ms(g.signedAt),
      ]),
    );
    expect(verify(null, hex(g.messageHex), edPublic, hex(g.signatureHex))).toBe(true);
    expect(await signFolderGrant(fields, await signingKey(), new Date(g.signedAt))).toBe(g.json);
    expect(await verifyFolderGrant(g.json, fields, sigs.signingKey.signingPublicKeyB64)).toEqual({
      status: 'valid',
    });
    const privateKey = await importPrivateKeyPkcs8(base64ToBytes(keys.userKeyPair.pkcs8B64));
    const folderKey = await unwrapFolderKeyFromGrant(g.encryptedFolderKeyB64, privateKey);
    const file = v.file;
    const place = { parentNodeId: file.parentNodeId, nodeId: file.nodeId };
    const fileKey = await unwrapNodeKey(
      bytesToBase64(hex(file.wrap.wrappedKeyHex)),
      folderKey,
      place,
      'file',
    );
    expect(
      await openMetadata(fileKey, file.nodeId, bytesToBase64(hex(file.metadata.encryptedMetadataHex))),
    ).toEqual(JSON.parse(file.metadata.plaintext));
  });
});
