/** Valid sample values for the schema tests. */
import { CHUNK_SIZE } from '../constants.js';

export const publicKeyB64 = `MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A${'A'.repeat(357)}QAB`;
export const encryptedFileKeyB64 = `${'Ab+/'.repeat(85)}AQ==`;
export const isoDate = '2024-05-06T07:08:09.000Z';

export const newEncryptionInfo = {
  version: 'key_1',
  algorithm: 'AES-GCM',
  iv: '',
  encryptedFileKey: encryptedFileKeyB64,
  format: 'coffer-v1',
  chunkSize: CHUNK_SIZE,
} as const;

export const fileListItem = {
  fileId: 'f0e1d2c3-b4a5-4678-9abc-def012345678',
  name: 'Quarterly report (final).pdf',
  contentType: 'application/pdf',
  isEncrypted: true,
  size: 123_456,
  uploadedAt: isoDate,
  ownerId: 'user-1',
};

export const encryptedPrivateKeyJson = JSON.stringify({
  iv: 'AAAAAAAAAAAAAAAA',
  salt: 'AAAAAAAAAAAAAAAAAAAAAA==',
  data: 'AAAA'.repeat(300),
  kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: 600_000 },
});
