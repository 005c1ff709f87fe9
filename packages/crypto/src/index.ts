export {
  CHUNK_OVERHEAD,
  CHUNK_SIZE,
  FILE_KEY_LENGTH,
  FORMAT,
  IV_LENGTH,
  LEGACY_PBKDF2_ITERATIONS,
  MIN_PBKDF2_ITERATIONS,
  PBKDF2_ITERATIONS,
  PBKDF2_SALT_LENGTH,
  TAG_LENGTH,
} from './format.constants.js';
export { CodedError, withCode, type CodedErrorFamily } from './coded-error.base.js';
export {
  CofferCryptoError,
  FileKeyUnwrapError,
  IntegrityError,
  InvalidArgumentError,
  InvalidKeyError,
  InvalidKeyRecordError,
  KdfDowngradeError,
  KeyMismatchError,
  LinkFragmentError,
  LinkKeyUnwrapError,
  RequestKeyMismatchError,
  PinSetInvalidError,
  KeyRollbackError,
  MetadataInvalidError,
  NodeKeyUnwrapError,
  PinSetRollbackError,
  RecoveryKitMismatchError,
  RecoveryWordsError,
  WrongPasswordError,
  type CryptoErrorCode,
} from './crypto.errors.js';
export { base64ToBytes, bytesToBase64 } from './base64.codec.js';
export { bytesToHex } from './bytes.util.js';
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
  parsePrivateKeyRecord,
  rewrapPrivateKey,
  unlockPrivateKey,
  type EncryptPrivateKeyOptions,
} from './private-key.record.js';
export {
  MAX_PBKDF2_ITERATIONS,
  MAX_RECORD_REV,
  type KdfParams,
  type PrivateKeyRecord,
  type RecordKdf,
} from './wrapped-key.record.js';
export { ARGON2ID_PARAMS, MAX_ARGON2ID, MIN_ARGON2ID, type Argon2idParams } from './kdf.argon2.js';
export { keyRecordRev, recordNeedsUpgrade } from './key-record.upgrade.js';
export {
  createRecoveryKit,
  RECOVERY_SECRET_LENGTH,
  recoveryKitId,
  recoveryWordsToSecret,
  type NewRecoveryKit,
} from './recovery-kit.js';
export {
  createRecoveryWraps,
  recoverUserKeys,
  type RecoveryKitSecret,
  type RecoveryWrap,
  type RecoveryWraps,
  type WrappedKeyRecord,
} from './recovery-keys.js';
export {
  createSigningKeys,
  createUserKeys,
  rewrapUserKeys,
  unlockUserKeys,
  type CreateUserKeysOptions,
  type NewSigningKeys,
  type NewUserKeys,
  type RewrappedUserKeys,
  type UnlockedUserKeys,
  type UserKeyWrapOptions,
} from './user-keys.setup.js';
export {
  exportSigningPublicKeyB64,
  generateSigningKeyPair,
  importSigningPublicKeyB64,
  preferredSigningAlgorithm,
  SIGNING_ALGORITHMS,
  type SigningAlgorithm,
} from './signing-key.pair.js';
export {
  encryptSigningKey,
  parseSigningKeyRecord,
  unlockSigningKey,
  type EncryptSigningKeyOptions,
  type SigningKeyRecord,
} from './signing-key.record.js';
export {
  encodeSignedMessage,
  SIGNED_LABELS,
  type SignedField,
  type SignedLabel,
} from './signed-message.encoding.js';
export { canonicalEmail, sha256, type SignatureCheck } from './signed-record.util.js';
export {
  generateChunkIdentityKey,
  gmacPieceList,
  HASH_PIECE_BYTES,
  pieceIdentityBuilder,
  pieceIdentityOf,
  sha256PieceList,
  type PieceIdentity,
} from './chunk-identity.hash.js';
export {
  createKeyBinding,
  keyBindingMessage,
  keySha256Hex,
  parseKeyBinding,
  verifyKeyBinding,
  type KeyBinding,
  type KeyBindingFields,
} from './key-binding.record.js';
export {
  fileManifestMessage,
  fileManifestSha256Hex,
  parseFileManifest,
  signFileManifest,
  signFileManifestV2,
  verifyFileManifest,
  type FileManifest,
  type FileManifestFields,
  type FileManifestV1,
  type FileManifestV2,
  type FileManifestV2Fields,
  type ServedFileFields,
} from './file-manifest.record.js';
export {
  parseShareGrant,
  resignShareGrant,
  shareGrantMessage,
  signShareGrant,
  verifyReceivedShare,
  verifyShareGrant,
  type ReceivedShare,
  type ShareGrant,
  type ShareGrantFields,
} from './share-grant.record.js';
export {
  comparePin,
  emptyPinSet,
  findPin,
  openPinSet,
  PIN_STATES,
  pinContact,
  pinHighWaterId,
  sealPinSet,
  unpinContact,
  type ContactPin,
  type PinComparison,
  type PinSet,
  type PinSetOpenKeys,
  type PinSetSealKeys,
  type PinState,
} from './pin-set.record.js';
export { generateFileKey, rewrapFileKey, unwrapFileKey, wrapFileKey } from './file-key.wrap.js';
export {
  buildOwnerEncryptionInfo,
  buildShareKeyCopy,
  type OwnerEncryptionInfo,
  type ShareKeyCopy,
} from './encryption-info.builder.js';
export { chunkAad, decryptChunk, encryptChunk, sealChunk, type SealedChunk } from './chunk.cipher.js';
export { createChunkSealer, type ChunkSealer } from './gcm/chunk.sealer.js';
export {
  createChunkOpener,
  createVerifiedChunkOpener,
  type ChunkOpener,
  type ChunkOpenerOptions,
} from './gcm/chunk.opener.js';
export { selfTestStreamingGcm } from './gcm/streaming-gcm.self-test.js';
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
export { fingerprintFromSha256Hex, fingerprintSpki, publicKeyFingerprint } from './key.fingerprint.js';
export { assertOwnKeyPair, assertOwnKeys, assertOwnSigningKeyPair, type OwnKeys } from './own-key.check.js';
export {
  DRIVE_NODE_ID,
  isNodeId,
  isParentNodeId,
  NODE_KINDS,
  type NodeKind,
  type NodePlace,
} from './drive/node-place.js';
export { createDriveKey, rewrapDriveKey, unwrapDriveKey, type NewDriveKey } from './drive/drive-key.wrap.js';
export {
  driveKeyRecordMessage,
  parseDriveKeyRecord,
  signDriveKeyRecord,
  verifyDriveKeyRecord,
  type DriveKeyRecord,
  type DriveKeyRecordFields,
} from './drive/drive-key.record.js';
export {
  createFolderKey,
  rewrapNodeKey,
  unwrapNodeKey,
  wrapFileKeyForParent,
  wrapNodeKey,
  WRAPPED_NODE_KEY_LENGTH,
  type NodeKeyParent,
} from './drive/node-key.wrap.js';
export {
  MAX_CONTENT_TYPE_LENGTH,
  MAX_NODE_NAME_LENGTH,
  openMetadata,
  sealMetadata,
  type NodeMetadata,
} from './drive/node-metadata.seal.js';
export {
  MAX_DISPLAY_NAME_BYTES,
  sanitizeDisplayName,
  UNNAMED,
  zipEntryPath,
} from './drive/display-name.sanitize.js';
export {
  nodeRecordMessage,
  parseNodeRecord,
  signNodeRecord,
  verifyNodeRecord,
  type NodeRecord,
  type NodeRecordFields,
} from './drive/node.record.js';
export {
  folderGrantMessage,
  parseFolderGrant,
  signFolderGrant,
  verifyFolderGrant,
  type FolderGrant,
  type FolderGrantFields,
} from './drive/folder-grant.record.js';
export {
  unwrapFolderKeyFromGrant,
  wrapFolderKeyForRecipient,
  type OwnedFolderKey,
} from './drive/folder-key.share.js';
export {
  OPEN_NODES_CONCURRENCY,
  openNodesMetadata,
  type ListedNode,
  type OpenedNode,
  type UnopenedNode,
} from './drive/nodes-metadata.batch.js';

// Links and file requests (issue 30): docs/encryption.md section 18.
export * from './links/index.js';
