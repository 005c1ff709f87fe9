import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { encryptedPrivateKeyJson, isoDate, publicKeyB64 } from './fixtures.test-helpers.js';
import {
  CreateKeyRequestSchema,
  EncryptedPrivateKeyEnvelopeSchema,
  KeyIdParamsSchema,
  KeyRecordSchema,
  KeysResponseSchema,
  PublicKeyResponseSchema,
  RewrapKeyRequestSchema,
} from './keys.js';

const record = {
  keyId: 'k1',
  publicKey: publicKeyB64,
  encryptedPrivateKey: encryptedPrivateKeyJson,
  createdAt: isoDate,
};

describe('key schemas', () => {
  it('accept good payloads', () => {
    expect(publicKeyB64).toHaveLength(392);
    expect(
      Value.Check(CreateKeyRequestSchema, {
        publicKey: publicKeyB64,
        encryptedPrivateKey: encryptedPrivateKeyJson,
      }),
    ).toBe(true);
    expect(Value.Check(KeyRecordSchema, record)).toBe(true);
    expect(Value.Check(KeysResponseSchema, { keys: [record] })).toBe(true);
    expect(Value.Check(RewrapKeyRequestSchema, { encryptedPrivateKey: encryptedPrivateKeyJson })).toBe(true);
    expect(Value.Check(PublicKeyResponseSchema, { publicKey: publicKeyB64, keyId: 'k1' })).toBe(true);
  });

  it('reject bad base64, non-JSON private keys and client-chosen ids', () => {
    const good = { publicKey: publicKeyB64, encryptedPrivateKey: encryptedPrivateKeyJson };
    expect(Value.Check(CreateKeyRequestSchema, { ...good, publicKey: 'not base64!' })).toBe(false);
    expect(Value.Check(CreateKeyRequestSchema, { ...good, publicKey: `${publicKeyB64}=` })).toBe(false);
    expect(Value.Check(CreateKeyRequestSchema, { ...good, publicKey: 'A'.repeat(4100) })).toBe(false);
    expect(Value.Check(CreateKeyRequestSchema, { ...good, encryptedPrivateKey: 'plain text' })).toBe(false);
    expect(Value.Check(CreateKeyRequestSchema, { ...good, encryptedPrivateKey: '{"a":"\n"}' })).toBe(false);
    expect(Value.Check(CreateKeyRequestSchema, { ...good, keyId: 'mine' })).toBe(false);
    expect(
      Value.Check(RewrapKeyRequestSchema, {
        encryptedPrivateKey: encryptedPrivateKeyJson,
        publicKey: publicKeyB64,
      }),
    ).toBe(false);
  });

  it('check key ids in the path', () => {
    expect(Value.Check(KeyIdParamsSchema, { keyId: 'a1_B-2' })).toBe(true);
    expect(Value.Check(KeyIdParamsSchema, { keyId: '' })).toBe(false);
    expect(Value.Check(KeyIdParamsSchema, { keyId: '../x' })).toBe(false);
  });

  it('describe the parsed private key envelope, legacy records included', () => {
    const envelope: unknown = JSON.parse(encryptedPrivateKeyJson);
    expect(Value.Check(EncryptedPrivateKeyEnvelopeSchema, envelope)).toBe(true);
    const legacy = { iv: 'AAAAAAAAAAAAAAAA', salt: 'AAAAAAAAAAAAAAAAAAAAAA==', data: 'AAAA' };
    expect(Value.Check(EncryptedPrivateKeyEnvelopeSchema, legacy)).toBe(true);
    expect(
      Value.Check(EncryptedPrivateKeyEnvelopeSchema, {
        ...legacy,
        kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: 1000 },
      }),
    ).toBe(false);
    expect(Value.Check(EncryptedPrivateKeyEnvelopeSchema, { ...legacy, password: 'x' })).toBe(false);
  });
});
