export {
  CHUNK_OVERHEAD,
  CHUNK_SIZE,
  FILE_KEY_LENGTH,
  FORMAT,
  IV_LENGTH,
  LEGACY_PBKDF2_ITERATIONS,
  PBKDF2_ITERATIONS,
  PBKDF2_SALT_LENGTH,
  TAG_LENGTH,
} from './format.constants.js';
export {
  CofferCryptoError,
  FileKeyUnwrapError,
  IntegrityError,
  InvalidArgumentError,
  InvalidKeyError,
  InvalidKeyRecordError,
  WrongPasswordError,
  type CryptoErrorCode,
} from './crypto.errors.js';
export { base64ToBytes, bytesToBase64 } from './base64.codec.js';
export {
  exportPrivateKeyPkcs8,
  exportPublicKeyB64,
  exportPublicKeySpki,
  generateUserKeyPair,
  importPrivateKeyPkcs8,
  importPublicKeyB64,
  importPublicKeySpki,
} from './key-pair.rsa.js';
export {
  encryptPrivateKey,
  MAX_PBKDF2_ITERATIONS,
  parsePrivateKeyRecord,
  rewrapPrivateKey,
  unlockPrivateKey,
  type EncryptPrivateKeyOptions,
  type KdfParams,
  type PrivateKeyRecord,
} from './private-key.record.js';
export { createUserKeys, type NewUserKeys } from './user-keys.setup.js';
export { generateFileKey, rewrapFileKey, unwrapFileKey, wrapFileKey } from './file-key.wrap.js';
export {
  buildOwnerEncryptionInfo,
  buildShareKeyCopy,
  type OwnerEncryptionInfo,
  type ShareKeyCopy,
} from './encryption-info.builder.js';
export { chunkAad, decryptChunk, encryptChunk, sealChunk, type SealedChunk } from './chunk.cipher.js';
export {
  decryptStream,
  encryptStream,
  type DecryptStreamOptions,
  type EncryptStreamOptions,
} from './content.streams.js';
export {
  chunkCount,
  encryptedPartLength,
  encryptedSize,
  plainChunkLength,
  plainSizeFromEncrypted,
} from './content-size.math.js';
export { fingerprintSpki, publicKeyFingerprint } from './key.fingerprint.js';
