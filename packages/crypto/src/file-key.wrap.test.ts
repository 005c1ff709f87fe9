import { beforeAll, describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from './base64.codec.js';
import { decryptChunk, encryptChunk } from './chunk.cipher.js';
import { FileKeyUnwrapError, InvalidArgumentError } from './crypto.errors.js';
import { buildOwnerEncryptionInfo, buildShareKeyCopy } from './encryption-info.builder.js';
import {
  generateFileKey,
  importFileKeyBytes,
  rewrapFileKey,
  unwrapFileKey,
  wrapFileKey,
} from './file-key.wrap.js';
import { exportPrivateKeyPkcs8, generateUserKeyPair, importPrivateKeyPkcs8 } from './key-pair.rsa.js';

interface User {
  publicKey: CryptoKey;
  /** Non-extractable, as after unlock. */
  privateKey: CryptoKey;
}

async function makeUser(): Promise<User> {
  const pair = await generateUserKeyPair();
  return {
    publicKey: pair.publicKey,
    privateKey: await importPrivateKeyPkcs8(await exportPrivateKeyPkcs8(pair.privateKey)),
  };
}

let owner: User;
let recipient: User;

beforeAll(async () => {
  [owner, recipient] = await Promise.all([makeUser(), makeUser()]);
});

const message = new TextEncoder().encode('file content');

describe('file key', () => {
  it('is a 256-bit AES-GCM key', async () => {
    const fileKey = await generateFileKey();
    expect(fileKey.algorithm).toEqual({ name: 'AES-GCM', length: 256 });
    expect([...fileKey.usages].sort()).toEqual(['decrypt', 'encrypt']);
  });

  it('wraps to a public key and unwraps to a non-extractable key that decrypts the content', async () => {
    const fileKey = await generateFileKey();
    const encryptedFileKeyB64 = await wrapFileKey(fileKey, owner.publicKey);
    expect(base64ToBytes(encryptedFileKeyB64).length).toBe(256);

    const unwrapped = await unwrapFileKey(encryptedFileKeyB64, owner.privateKey);
    expect(unwrapped.extractable).toBe(false);
    expect(unwrapped.algorithm).toEqual({ name: 'AES-GCM', length: 256 });
    const chunk = await encryptChunk(fileKey, 0, true, message);
    expect(await decryptChunk(unwrapped, 0, true, chunk)).toEqual(message);
  });

  it('re-wraps for a second user who can then decrypt the content', async () => {
    const fileKey = await generateFileKey();
    const ownerCopyB64 = await wrapFileKey(fileKey, owner.publicKey);
    const chunk = await encryptChunk(fileKey, 0, true, message);

    const recipientCopyB64 = await rewrapFileKey(ownerCopyB64, owner.privateKey, recipient.publicKey);
    const recipientKey = await unwrapFileKey(recipientCopyB64, recipient.privateKey);
    expect(recipientKey.extractable).toBe(false);
    expect(await decryptChunk(recipientKey, 0, true, chunk)).toEqual(message);
    // The copy is for the recipient only.
    await expect(unwrapFileKey(recipientCopyB64, owner.privateKey)).rejects.toThrow(FileKeyUnwrapError);
  });

  it('fails with FileKeyUnwrapError for the wrong private key, bad base64 or altered bytes', async () => {
    const encryptedFileKeyB64 = await wrapFileKey(await generateFileKey(), owner.publicKey);
    const error = await unwrapFileKey(encryptedFileKeyB64, recipient.privateKey).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileKeyUnwrapError);
    expect((error as FileKeyUnwrapError).code).toBe('FILE_KEY_UNWRAP_FAILED');
    await expect(unwrapFileKey('%%%', owner.privateKey)).rejects.toThrow(FileKeyUnwrapError);
    const altered = base64ToBytes(encryptedFileKeyB64);
    altered[100] = (altered[100] ?? 0) ^ 1;
    await expect(unwrapFileKey(bytesToBase64(altered), owner.privateKey)).rejects.toThrow(FileKeyUnwrapError);
    await expect(
      rewrapFileKey(encryptedFileKeyB64, recipient.privateKey, recipient.publicKey),
    ).rejects.toThrow(FileKeyUnwrapError);
  });

  it('refuses a wrapped key that is not 256 bits', async () => {
    const shortKey = crypto.getRandomValues(new Uint8Array(16));
    const wrapped = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, owner.publicKey, shortKey);
    await expect(unwrapFileKey(bytesToBase64(new Uint8Array(wrapped)), owner.privateKey)).rejects.toThrow(
      FileKeyUnwrapError,
    );
  });

  it('refuses to wrap or use a key that is not AES-GCM 256', async () => {
    const aes128 = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 128 }, true, [
      'encrypt',
      'decrypt',
    ]);
    await expect(wrapFileKey(aes128, owner.publicKey)).rejects.toThrow(InvalidArgumentError);
    await expect(encryptChunk(aes128, 0, true, message)).rejects.toThrow(InvalidArgumentError);
    await expect(importFileKeyBytes(new Uint8Array(16))).rejects.toThrow(InvalidArgumentError);
  });
});

describe('encryptionInfo', () => {
  it('builds the owner copy with the coffer-v1 fields', () => {
    expect(buildOwnerEncryptionInfo('key-1', 'QUJD')).toEqual({
      version: 'key-1',
      algorithm: 'AES-GCM',
      iv: '',
      encryptedFileKey: 'QUJD',
      format: 'coffer-v1',
      chunkSize: 99614720,
    });
  });

  it('builds a share copy', () => {
    expect(buildShareKeyCopy('key-2', 'QUJD')).toEqual({ encryptedFileKey: 'QUJD', keyVersion: 'key-2' });
  });
});
