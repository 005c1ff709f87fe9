import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { DIRECT_UPLOAD_THRESHOLD, MAX_FILE_SIZE } from '../constants.js';
import { newEncryptionInfo, isoDate } from './fixtures.test-helpers.js';
import {
  CompleteMultipartUploadRequestSchema,
  CreateMultipartUploadRequestSchema,
  DirectUploadFieldsSchema,
  DirectUploadMetadataSchema,
  UploadItemSchema,
  UploadPartParamsSchema,
  UploadPartQuerySchema,
  UploadPartResponseSchema,
} from './uploads.js';
import { LimitQuerySchema } from './common.js';

const create = {
  name: 'movie.mkv',
  contentType: 'video/x-matroska',
  size: 300_000_000,
  parts: 4,
  isEncrypted: true,
  encryptionInfo: newEncryptionInfo,
};

describe('multipart create', () => {
  it('accepts a good request', () => {
    expect(Value.Check(CreateMultipartUploadRequestSchema, create)).toBe(true);
    expect(Value.Check(CreateMultipartUploadRequestSchema, { ...create, size: MAX_FILE_SIZE })).toBe(true);
  });

  it('rejects bad sizes, part counts, plaintext uploads and extras', () => {
    const bad = [
      { ...create, size: -1 },
      { ...create, size: MAX_FILE_SIZE + 1 },
      { ...create, size: '300' },
      { ...create, parts: 0 },
      { ...create, parts: 10_001 },
      { ...create, isEncrypted: false },
      { ...create, name: '../x' },
      { ...create, extra: true },
    ];
    for (const body of bad) expect(Value.Check(CreateMultipartUploadRequestSchema, body)).toBe(false);
  });
});

describe('multipart parts and completion', () => {
  it('checks part params and the object key', () => {
    expect(Value.Check(UploadPartParamsSchema, { uploadId: 'up_1', n: 1 })).toBe(true);
    expect(Value.Check(UploadPartParamsSchema, { uploadId: 'up_1', n: 10_000 })).toBe(true);
    expect(Value.Check(UploadPartParamsSchema, { uploadId: 'up_1', n: 0 })).toBe(false);
    expect(Value.Check(UploadPartParamsSchema, { uploadId: 'up_1', n: 10_001 })).toBe(false);
    expect(Value.Check(UploadPartParamsSchema, { uploadId: '..', n: 1 })).toBe(false);
    expect(Value.Check(UploadPartParamsSchema, { uploadId: 'a/b', n: 1 })).toBe(false);
    expect(Value.Check(UploadPartQuerySchema, { objectKey: 'users/u1/files/f1' })).toBe(true);
    for (const objectKey of ['', '/abs', 'a//b', 'a/../b', '..', 'a/./b', 'a/b/', 'a b']) {
      expect(Value.Check(UploadPartQuerySchema, { objectKey }), objectKey).toBe(false);
    }
  });

  it('checks etags', () => {
    for (const etag of ['"d41d8cd98f00b204e9800998ecf8427e"', 'abc-3', 'W/"x"']) {
      expect(Value.Check(UploadPartResponseSchema, { etag }), etag).toBe(true);
    }
    for (const etag of ['', 'a b', 'a\nb']) {
      expect(Value.Check(UploadPartResponseSchema, { etag }), etag).toBe(false);
    }
  });

  it('checks the complete request', () => {
    const body = {
      uploadId: 'up_1',
      objectKey: 'users/u1/f1',
      parts: [
        { partNumber: 1, etag: '"a"' },
        { partNumber: 2, etag: '"b"' },
      ],
    };
    expect(Value.Check(CompleteMultipartUploadRequestSchema, body)).toBe(true);
    expect(Value.Check(CompleteMultipartUploadRequestSchema, { ...body, parts: [] })).toBe(false);
    expect(
      Value.Check(CompleteMultipartUploadRequestSchema, {
        ...body,
        parts: [{ partNumber: 1, etag: '"a"', x: 1 }],
      }),
    ).toBe(false);
  });
});

describe('direct upload', () => {
  it('checks form fields as strings', () => {
    const fields = {
      name: 'a.txt',
      contentType: 'text/plain',
      size: '12',
      isEncrypted: 'true',
      encryptionInfo: JSON.stringify(newEncryptionInfo),
    };
    expect(Value.Check(DirectUploadFieldsSchema, fields)).toBe(true);
    expect(Value.Check(DirectUploadFieldsSchema, { ...fields, size: '-1' })).toBe(false);
    expect(Value.Check(DirectUploadFieldsSchema, { ...fields, size: '012' })).toBe(false);
    expect(Value.Check(DirectUploadFieldsSchema, { ...fields, isEncrypted: 'false' })).toBe(false);
  });

  it('limits parsed direct uploads to the threshold', () => {
    const meta = {
      name: 'a.txt',
      contentType: 'text/plain',
      size: 12,
      isEncrypted: true,
      encryptionInfo: newEncryptionInfo,
    };
    expect(Value.Check(DirectUploadMetadataSchema, meta)).toBe(true);
    expect(Value.Check(DirectUploadMetadataSchema, { ...meta, size: DIRECT_UPLOAD_THRESHOLD })).toBe(true);
    expect(Value.Check(DirectUploadMetadataSchema, { ...meta, size: DIRECT_UPLOAD_THRESHOLD + 1 })).toBe(
      false,
    );
  });
});

describe('upload list', () => {
  it('checks items and the limit query', () => {
    const item = {
      uploadId: 'up_1',
      fileName: 'a.txt',
      contentType: 'text/plain',
      isEncrypted: true,
      size: 1,
      createdAt: isoDate,
      userId: 'u1',
      status: 'pending',
      parts: 1,
      completedParts: 0,
      encryptionInfo: newEncryptionInfo,
      objectKey: 'users/u1/f1',
    };
    expect(Value.Check(UploadItemSchema, item)).toBe(true);
    expect(Value.Check(UploadItemSchema, { ...item, status: 'queued' })).toBe(false);
    expect(Value.Check(LimitQuerySchema, {})).toBe(true);
    expect(Value.Check(LimitQuerySchema, { limit: 20 })).toBe(true);
    expect(Value.Check(LimitQuerySchema, { limit: 0 })).toBe(false);
    expect(Value.Check(LimitQuerySchema, { limit: 101 })).toBe(false);
    expect(Value.Default(LimitQuerySchema, {})).toEqual({ limit: 20 });
  });
});
