import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import {
  encryptedFileKeyB64,
  encryptedPrivateKeyJson,
  isoDate,
  newEncryptionInfo,
  publicKeyB64,
} from './fixtures.test-helpers.js';
import { SharedFileMetadataSchema } from './files.js';
import {
  CreateKeyRequestSchema,
  KeyRecordSchema,
  PublicKeyResponseSchema,
  RewrapKeyRequestSchema,
} from './keys.js';
import { ShareFileRequestSchema } from './shares.js';
import {
  AddSigningKeyRequestSchema,
  EncryptedSigningKeyEnvelopeSchema,
  FileManifestSchema,
  KeyBindingSchema,
  PinSetEnvelopeSchema,
  PinSetResponseSchema,
  PutPinSetRequestSchema,
  ShareGrantSchema,
  SigningPublicKeySchema,
} from './signatures.js';
import {
  encryptedSigningKeyJson,
  fileManifestJson,
  keyBindingJson,
  pinSetJson,
  shareGrantJson,
  signingPublicKeyB64,
} from './signatures.fixtures.test-helpers.js';
import { CreateMultipartUploadRequestSchema, DirectUploadFieldsSchema } from './uploads.js';

const parse = (json: string): Record<string, unknown> => JSON.parse(json) as Record<string, unknown>;

describe('signed record schemas', () => {
  it('accept the records @coffer/crypto writes', () => {
    expect(Value.Check(SigningPublicKeySchema, signingPublicKeyB64)).toBe(true);
    expect(Value.Check(KeyBindingSchema, parse(keyBindingJson))).toBe(true);
    expect(Value.Check(FileManifestSchema, parse(fileManifestJson))).toBe(true);
    expect(Value.Check(ShareGrantSchema, parse(shareGrantJson))).toBe(true);
    expect(Value.Check(PinSetEnvelopeSchema, parse(pinSetJson))).toBe(true);
    expect(Value.Check(EncryptedSigningKeyEnvelopeSchema, parse(encryptedSigningKeyJson))).toBe(true);
  });

  it('reject extra members, upper-case emails, bad hashes and weak KDFs', () => {
    expect(Value.Check(KeyBindingSchema, { ...parse(keyBindingJson), extra: 1 })).toBe(false);
    expect(
      Value.Check(ShareGrantSchema, { ...parse(shareGrantJson), recipientEmail: 'Bob@example.com' }),
    ).toBe(false);
    expect(
      Value.Check(FileManifestSchema, { ...parse(fileManifestJson), ownerWrappedKeySha256Hex: 'ABC' }),
    ).toBe(false);
    expect(Value.Check(ShareGrantSchema, { ...parse(shareGrantJson), manifestSha256Hex: '' })).toBe(true);
    expect(
      Value.Check(EncryptedSigningKeyEnvelopeSchema, {
        ...parse(encryptedSigningKeyJson),
        kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: 99_999 },
      }),
    ).toBe(false);
    expect(
      Value.Check(EncryptedSigningKeyEnvelopeSchema, { ...parse(encryptedSigningKeyJson), alg: 'RSA' }),
    ).toBe(false);
  });

  it('travel as optional fields of the spec’s calls', () => {
    const signing = {
      signingPublicKey: signingPublicKeyB64,
      encryptedSigningKey: encryptedSigningKeyJson,
      keyBinding: keyBindingJson,
    };
    const create = { publicKey: publicKeyB64, encryptedPrivateKey: encryptedPrivateKeyJson };
    expect(Value.Check(CreateKeyRequestSchema, create)).toBe(true);
    expect(Value.Check(CreateKeyRequestSchema, { ...create, ...signing })).toBe(true);
    expect(Value.Check(KeyRecordSchema, { ...create, ...signing, keyId: 'k1', createdAt: isoDate })).toBe(
      true,
    );
    expect(
      Value.Check(RewrapKeyRequestSchema, {
        encryptedPrivateKey: encryptedPrivateKeyJson,
        encryptedSigningKey: encryptedSigningKeyJson,
      }),
    ).toBe(true);
    expect(
      Value.Check(PublicKeyResponseSchema, {
        publicKey: publicKeyB64,
        keyId: 'k1',
        signingPublicKey: signingPublicKeyB64,
        keyBinding: keyBindingJson,
      }),
    ).toBe(true);
    expect(
      Value.Check(ShareFileRequestSchema, {
        email: 'bob@example.com',
        encryptedFileKey: encryptedFileKeyB64,
        keyVersion: 'k7',
        shareGrant: shareGrantJson,
      }),
    ).toBe(true);
    expect(
      Value.Check(CreateMultipartUploadRequestSchema, {
        name: 'a.pdf',
        contentType: 'application/pdf',
        size: 200_000_000,
        parts: 3,
        isEncrypted: true,
        encryptionInfo: newEncryptionInfo,
        manifest: fileManifestJson,
      }),
    ).toBe(true);
    expect(
      Value.Check(DirectUploadFieldsSchema, {
        name: 'a.pdf',
        contentType: 'application/pdf',
        size: '10',
        isEncrypted: 'true',
        encryptionInfo: JSON.stringify(newEncryptionInfo),
        manifest: fileManifestJson,
      }),
    ).toBe(true);
    const file = {
      fileId: 'f1',
      name: 'a.pdf',
      originalFilename: 'a.pdf',
      contentType: 'application/pdf',
      size: 10,
      isEncrypted: true,
      encryptionInfo: newEncryptionInfo,
      uploadedAt: isoDate,
      manifest: fileManifestJson,
    };
    expect(
      Value.Check(SharedFileMetadataSchema, {
        file,
        owner: 'alice@example.com',
        encryptedFileKey: encryptedFileKeyB64,
        shareGrant: shareGrantJson,
      }),
    ).toBe(true);
    expect(
      Value.Check(ShareFileRequestSchema, {
        email: 'bob@example.com',
        encryptedFileKey: encryptedFileKeyB64,
        keyVersion: 'k7',
        shareGrant: 'not json',
      }),
    ).toBe(false);
  });

  it('describe the proposed pin and signing-key calls', () => {
    expect(Value.Check(PinSetResponseSchema, { pinSet: null })).toBe(true);
    expect(Value.Check(PinSetResponseSchema, { pinSet: pinSetJson })).toBe(true);
    expect(Value.Check(PutPinSetRequestSchema, { pinSet: pinSetJson, previousVersion: null })).toBe(true);
    expect(Value.Check(PutPinSetRequestSchema, { pinSet: pinSetJson })).toBe(false);
    expect(
      Value.Check(AddSigningKeyRequestSchema, {
        signingPublicKey: signingPublicKeyB64,
        encryptedSigningKey: encryptedSigningKeyJson,
        keyBinding: keyBindingJson,
      }),
    ).toBe(true);
  });
});
