import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('public API', () => {
  it('exports the documented functions and constants', () => {
    const functions = [
      'bytesToBase64',
      'base64ToBytes',
      'generateUserKeyPair',
      'exportPublicKeyB64',
      'importPublicKeyB64',
      'importPrivateKeyPkcs8',
      'createUserKeys',
      'encryptPrivateKey',
      'unlockPrivateKey',
      'rewrapPrivateKey',
      'parsePrivateKeyRecord',
      'generateFileKey',
      'wrapFileKey',
      'unwrapFileKey',
      'rewrapFileKey',
      'buildOwnerEncryptionInfo',
      'buildShareKeyCopy',
      'encryptChunk',
      'sealChunk',
      'decryptChunk',
      'encryptStream',
      'decryptStream',
      'chunkCount',
      'encryptedSize',
      'plainChunkLength',
      'encryptedPartLength',
      'plainSizeFromEncrypted',
      'publicKeyFingerprint',
      'assertOwnKeyPair',
      'assertOwnKeys',
      'assertOwnSigningKeyPair',
      'unlockUserKeys',
      'rewrapUserKeys',
      'createSigningKeys',
      'generateSigningKeyPair',
      'exportSigningPublicKeyB64',
      'importSigningPublicKeyB64',
      'preferredSigningAlgorithm',
      'encryptSigningKey',
      'unlockSigningKey',
      'parseSigningKeyRecord',
      'encodeSignedMessage',
      'canonicalEmail',
      'createKeyBinding',
      'verifyKeyBinding',
      'signFileManifest',
      'verifyFileManifest',
      'signShareGrant',
      'verifyShareGrant',
      'verifyReceivedShare',
      'emptyPinSet',
      'pinContact',
      'unpinContact',
      'comparePin',
      'findPin',
      'sealPinSet',
      'openPinSet',
      'pinHighWaterId',
      'fingerprintFromSha256Hex',
      'recordNeedsUpgrade',
      'keyRecordRev',
      'createRecoveryKit',
      'recoveryWordsToSecret',
      'recoveryKitId',
      'createRecoveryWraps',
      'recoverUserKeys',
    ] as const;
    for (const name of functions) expect(typeof api[name]).toBe('function');
    expect([api.CHUNK_SIZE, api.IV_LENGTH, api.TAG_LENGTH, api.CHUNK_OVERHEAD, api.FORMAT]).toEqual([
      99_614_720,
      12,
      16,
      28,
      'coffer-v1',
    ]);
    expect(api.PBKDF2_ITERATIONS).toBe(600_000);
    expect(api.LEGACY_PBKDF2_ITERATIONS).toBe(100_000);
    expect(api.MIN_PBKDF2_ITERATIONS).toBe(100_000);
    expect(api.ARGON2ID_PARAMS).toEqual({
      name: 'Argon2id',
      version: 19,
      memoryKiB: 65_536,
      passes: 3,
      parallelism: 1,
    });
  });

  it('gives every error a code and a name', () => {
    const errors = [
      new api.IntegrityError(),
      new api.WrongPasswordError(),
      new api.InvalidKeyRecordError('x'),
      new api.InvalidKeyError('x'),
      new api.FileKeyUnwrapError(),
      new api.InvalidArgumentError('x'),
      new api.KdfDowngradeError('x'),
      new api.KeyMismatchError('x'),
      new api.PinSetInvalidError('x'),
      new api.PinSetRollbackError(1, 2),
      new api.KeyRollbackError(1, 2),
      new api.RecoveryWordsError('x'),
      new api.RecoveryKitMismatchError('x'),
    ];
    expect(errors.map((e) => [e.name, e.code])).toEqual([
      ['IntegrityError', 'INTEGRITY'],
      ['WrongPasswordError', 'WRONG_PASSWORD'],
      ['InvalidKeyRecordError', 'INVALID_KEY_RECORD'],
      ['InvalidKeyError', 'INVALID_KEY'],
      ['FileKeyUnwrapError', 'FILE_KEY_UNWRAP_FAILED'],
      ['InvalidArgumentError', 'INVALID_ARGUMENT'],
      ['KdfDowngradeError', 'KDF_DOWNGRADE'],
      ['KeyMismatchError', 'KEY_MISMATCH'],
      ['PinSetInvalidError', 'PIN_SET_INVALID'],
      ['PinSetRollbackError', 'PIN_SET_ROLLBACK'],
      ['KeyRollbackError', 'KEY_ROLLBACK'],
      ['RecoveryWordsError', 'RECOVERY_WORDS_INVALID'],
      ['RecoveryKitMismatchError', 'RECOVERY_KIT_MISMATCH'],
    ]);
    for (const error of errors) expect(error).toBeInstanceOf(api.CofferCryptoError);
  });
});
