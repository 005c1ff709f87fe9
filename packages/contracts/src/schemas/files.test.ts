import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import {
  completeEncryptionInfo,
  EncryptionInfoSchema,
  FileListItemSchema,
  FileListResponseSchema,
  FileMetadataSchema,
  NewEncryptionInfoSchema,
  SharedFileItemSchema,
  SharedFileMetadataSchema,
} from './files.js';
import { encryptedFileKeyB64, fileListItem, isoDate, newEncryptionInfo } from './fixtures.test-helpers.js';
import type { NewEncryptionInfo } from './files.js';

describe('encryption info', () => {
  it('accepts coffer-v1 and legacy records in answers', () => {
    expect(Value.Check(EncryptionInfoSchema, newEncryptionInfo)).toBe(true);
    const legacy = { version: '3', algorithm: 'AES-GCM', iv: '', encryptedFileKey: encryptedFileKeyB64 };
    expect(Value.Check(EncryptionInfoSchema, legacy)).toBe(true);
  });

  it('pins every field of a new upload', () => {
    expect(Value.Check(NewEncryptionInfoSchema, newEncryptionInfo)).toBe(true);
    expect(Value.Check(NewEncryptionInfoSchema, { ...newEncryptionInfo, format: 'coffer-v2' })).toBe(false);
    expect(Value.Check(NewEncryptionInfoSchema, { ...newEncryptionInfo, chunkSize: 1024 })).toBe(false);
    expect(Value.Check(NewEncryptionInfoSchema, { ...newEncryptionInfo, iv: 'AAAAAAAAAAAAAAAA' })).toBe(
      false,
    );
    expect(Value.Check(NewEncryptionInfoSchema, { ...newEncryptionInfo, algorithm: 'AES-CBC' })).toBe(false);
    expect(Value.Check(NewEncryptionInfoSchema, { ...newEncryptionInfo, extra: 1 })).toBe(false);
  });

  it("accepts the spec's shape (no format, no chunkSize) and completes it with their one value", () => {
    const specShape: Record<string, unknown> = { ...newEncryptionInfo };
    delete specShape.format;
    delete specShape.chunkSize;
    expect(Value.Check(NewEncryptionInfoSchema, specShape)).toBe(true);
    expect(completeEncryptionInfo(specShape as NewEncryptionInfo)).toEqual({
      ...specShape,
      format: 'coffer-v1',
      chunkSize: 99614720,
    });
  });

  it('rejects a file key that is not base64', () => {
    for (const key of ['', 'not base64!', 'AAA', 'AA=A', `${encryptedFileKeyB64}\n`]) {
      expect(Value.Check(NewEncryptionInfoSchema, { ...newEncryptionInfo, encryptedFileKey: key }), key).toBe(
        false,
      );
    }
  });
});

describe('file list', () => {
  it('accepts a good item and list', () => {
    expect(Value.Check(FileListItemSchema, fileListItem)).toBe(true);
    expect(Value.Check(FileListResponseSchema, { files: [fileListItem], count: 1 })).toBe(true);
  });

  it('rejects extra properties, negative sizes, fractional sizes and bad dates', () => {
    expect(Value.Check(FileListItemSchema, { ...fileListItem, secret: 'x' })).toBe(false);
    expect(Value.Check(FileListItemSchema, { ...fileListItem, size: -1 })).toBe(false);
    expect(Value.Check(FileListItemSchema, { ...fileListItem, size: 1.5 })).toBe(false);
    expect(Value.Check(FileListItemSchema, { ...fileListItem, uploadedAt: 'yesterday' })).toBe(false);
  });

  it('accepts ordinary names and rejects path-like ones', () => {
    for (const name of ['a', 'résumé 2024.docx', '.bashrc', 'a..b', '日本語.txt']) {
      expect(Value.Check(FileListItemSchema, { ...fileListItem, name }), name).toBe(true);
    }
    for (const name of [
      '',
      '.',
      '..',
      '../etc/passwd',
      'a/b',
      'a\\b',
      'line\nbreak',
      'nul\u0000',
      'x'.repeat(256),
    ]) {
      expect(Value.Check(FileListItemSchema, { ...fileListItem, name }), JSON.stringify(name)).toBe(false);
    }
  });

  it('checks content types', () => {
    for (const contentType of ['application/octet-stream', 'text/plain;charset=utf-8', 'image/svg+xml']) {
      expect(Value.Check(FileListItemSchema, { ...fileListItem, contentType }), contentType).toBe(true);
    }
    for (const contentType of ['', 'text', 'text/', '/plain', 'text/plain\r\nX: y']) {
      expect(Value.Check(FileListItemSchema, { ...fileListItem, contentType }), contentType).toBe(false);
    }
  });
});

describe('file metadata', () => {
  const metadata = {
    fileId: 'abc',
    name: 'a.pdf',
    originalFilename: 'a.pdf',
    contentType: 'application/pdf',
    size: 10,
    isEncrypted: true,
    encryptionInfo: newEncryptionInfo,
    uploadedAt: isoDate,
  };

  it('accepts own and shared metadata', () => {
    expect(Value.Check(FileMetadataSchema, metadata)).toBe(true);
    expect(Value.Check(FileMetadataSchema, { ...metadata, isEncrypted: false, encryptionInfo: null })).toBe(
      true,
    );
    expect(
      Value.Check(SharedFileMetadataSchema, {
        file: metadata,
        owner: 'ada@example.com',
        encryptedFileKey: encryptedFileKeyB64,
      }),
    ).toBe(true);
  });

  it('rejects a shared answer without a key', () => {
    expect(Value.Check(SharedFileMetadataSchema, { file: metadata, owner: 'ada@example.com' })).toBe(false);
  });

  it('checks shared list items', () => {
    const item = {
      fileId: 'abc',
      owner: 'ada@example.com',
      file: {
        name: 'a.pdf',
        contentType: 'application/pdf',
        size: 1,
        uploadedAt: isoDate,
        isEncrypted: true,
      },
    };
    expect(Value.Check(SharedFileItemSchema, item)).toBe(true);
    expect(Value.Check(SharedFileItemSchema, { ...item, owner: 'not-an-email' })).toBe(false);
    expect(Value.Check(SharedFileItemSchema, { ...item, file: { ...item.file, ownerId: 'x' } })).toBe(false);
  });
});
