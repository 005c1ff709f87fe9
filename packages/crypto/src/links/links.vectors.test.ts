import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from '../base64.codec.js';
import { bytesToHex, hexToBytes } from '../bytes.util.js';
import { deriveLinkKeys, linkAuthKeyHashHex } from './link-keys.derive.js';
import { unwrapLinkFileKey, wrapLinkFileKeyWith } from './link-key.wrap.js';
import {
  encodeLinkFragment,
  encodeRequestFragment,
  parseLinkFragment,
  parseRequestFragment,
} from './link-secret.fragment.js';
import { linkSigningKeyPin } from './link-signer.pin.js';
import { openLinkMetadata, sealLinkLabel, sealLinkMetadata, sealRequestMessage } from './link-text.seal.js';
import { linkRecordMessage, parseLinkRecord, signLinkRecord, verifyLinkRecord } from './link.record.js';
import { ownerKeySha256Hex } from './request-owner-key.check.js';

// links-v2.json was computed apart from this implementation (Node's HKDF, AES-GCM and Ed25519,
// hash-wasm's Argon2id, the section 9 encoding written by hand): the implementation must give
// exactly its bytes.

interface Derived {
  wrapKeyHex: string;
  authKeyHex: string;
  authKeyB64Url: string;
  authKeyHashHex: string;
}
interface Sealed {
  ivHex: string;
  plaintext: string;
  sealedHex: string;
}
interface LinksVectors {
  secretHex: string;
  linkId: string;
  fragment: string;
  requestFragment: string;
  ownerKeySha256Hex: string;
  pinned: Omit<Derived, 'authKeyB64Url'> & { ownerSigningKeySha256Hex: string; fragment: string };
  noPassword: Derived;
  password: Derived & { password: string; saltHex: string; kdf: Record<string, unknown> };
  fileId: string;
  fileKeyHex: string;
  wrap: { ivHex: string; wrappedKeyHex: string };
  metadata: { ivHex: string; plaintext: string; encryptedMetadataHex: string };
  label: Sealed;
  requestMessage: Sealed;
  linkRecord: {
    expiresAt: string;
    maxDownloads: number;
    signedAt: string;
    json: string;
    messageHex: string;
    signatureHex: string;
  };
}

const read = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../test-vectors/${name}`, import.meta.url), 'utf8'));
const v = read('links-v2.json') as LinksVectors;
const keys = read('keys-v1.json') as { userKeyPair: { publicKeyB64: string } };
const sigs = read('signatures-v1.json') as { signingKey: { pkcs8B64: string; signingPublicKeyB64: string } };
const item = { linkId: v.linkId, fileId: v.fileId };
const secret = hexToBytes(v.secretHex);

describe('links-v2 test vectors', () => {
  it('fragments and the owner key hash', async () => {
    expect(encodeLinkFragment(secret)).toBe(v.fragment);
    expect(await ownerKeySha256Hex(keys.userKeyPair.publicKeyB64)).toBe(v.ownerKeySha256Hex);
    expect(encodeRequestFragment(secret, v.ownerKeySha256Hex)).toBe(v.requestFragment);
    expect(bytesToHex(parseRequestFragment(v.requestFragment).secretBytes)).toBe(v.secretHex);
  });

  it('A and SHA-256(A), without and with a password', async () => {
    const plain = await deriveLinkKeys(secret);
    expect(bytesToHex(plain.authKeyBytes)).toBe(v.noPassword.authKeyHex);
    expect(await linkAuthKeyHashHex(plain.authKeyBytes)).toBe(v.noPassword.authKeyHashHex);
    const withPassword = await deriveLinkKeys(secret, {
      password: v.password.password,
      saltBytes: hexToBytes(v.password.saltHex),
      kdf: v.password.kdf,
    });
    expect(bytesToHex(withPassword.authKeyBytes)).toBe(v.password.authKeyHex);
    expect(await linkAuthKeyHashHex(withPassword.authKeyBytes)).toBe(v.password.authKeyHashHex);
  });

  it("a pinned link: the owner's signing key hash in the fragment and in K and A", async () => {
    expect(await linkSigningKeyPin(sigs.signingKey.signingPublicKeyB64)).toBe(
      v.pinned.ownerSigningKeySha256Hex,
    );
    expect(encodeLinkFragment(secret, v.pinned.ownerSigningKeySha256Hex)).toBe(v.pinned.fragment);
    expect(parseLinkFragment(v.pinned.fragment).ownerSigningKeySha256Hex).toBe(
      v.pinned.ownerSigningKeySha256Hex,
    );
    const pinned = await deriveLinkKeys(secret, undefined, v.pinned.ownerSigningKeySha256Hex);
    expect(bytesToHex(pinned.authKeyBytes)).toBe(v.pinned.authKeyHex);
    expect(await linkAuthKeyHashHex(pinned.authKeyBytes)).toBe(v.pinned.authKeyHashHex);
    // K is never extractable: what the vector's K seals opens under the derived one.
    const vectorK = await crypto.subtle.importKey('raw', hexToBytes(v.pinned.wrapKeyHex), 'AES-GCM', false, [
      'encrypt',
      'decrypt',
    ]);
    const sealed = await sealLinkMetadata(vectorK, item, { name: 'pinned.txt' });
    expect(await openLinkMetadata(pinned.wrapKey, item, sealed)).toEqual({ name: 'pinned.txt' });
  });

  it('the file key, metadata, label and request message under K', async () => {
    const { wrapKey } = await deriveLinkKeys(secret);
    const fileKey = await crypto.subtle.importKey('raw', hexToBytes(v.fileKeyHex), 'AES-GCM', true, [
      'encrypt',
      'decrypt',
    ]);
    const wrappedKeyB64 = await wrapLinkFileKeyWith(fileKey, wrapKey, item, hexToBytes(v.wrap.ivHex));
    expect(bytesToHex(base64ToBytes(wrappedKeyB64))).toBe(v.wrap.wrappedKeyHex);
    await expect(unwrapLinkFileKey(wrappedKeyB64, wrapKey, item)).resolves.toBeDefined();
    const metadata = JSON.parse(v.metadata.plaintext) as { name: string; contentType: string };
    const sealed = await sealLinkMetadata(wrapKey, item, metadata, hexToBytes(v.metadata.ivHex));
    expect(bytesToHex(base64ToBytes(sealed))).toBe(v.metadata.encryptedMetadataHex);
    expect(await openLinkMetadata(wrapKey, item, sealed)).toEqual(metadata);
    const label = await sealLinkLabel(wrapKey, v.linkId, v.label.plaintext, hexToBytes(v.label.ivHex));
    expect(bytesToHex(base64ToBytes(label))).toBe(v.label.sealedHex);
    const message = await sealRequestMessage(
      wrapKey,
      v.linkId,
      v.requestMessage.plaintext,
      hexToBytes(v.requestMessage.ivHex),
    );
    expect(bytesToHex(base64ToBytes(message))).toBe(v.requestMessage.sealedHex);
  });

  it('the link record: message, signature and JSON', async () => {
    const signingKey = await crypto.subtle.importKey(
      'pkcs8',
      base64ToBytes(sigs.signingKey.pkcs8B64),
      { name: 'Ed25519' },
      false,
      ['sign'],
    );
    const fields = {
      linkId: v.linkId,
      ownerEmail: 'alice@example.com',
      items: [{ fileId: v.fileId, wrappedKeyB64: bytesToBase64(hexToBytes(v.wrap.wrappedKeyHex)) }],
      expiresAt: v.linkRecord.expiresAt,
      maxDownloads: v.linkRecord.maxDownloads,
    };
    const json = await signLinkRecord(fields, signingKey, new Date(v.linkRecord.signedAt));
    expect(json).toBe(v.linkRecord.json);
    const record = parseLinkRecord(json);
    expect(record).not.toBeNull();
    if (record === null) return;
    expect(bytesToHex(linkRecordMessage(record))).toBe(v.linkRecord.messageHex);
    expect(bytesToHex(base64ToBytes(record.signatureB64))).toBe(v.linkRecord.signatureHex);
    expect(await verifyLinkRecord(json, fields, sigs.signingKey.signingPublicKeyB64)).toEqual({
      status: 'valid',
    });
  });
});
