import { describe, expect, it } from 'vitest';
import { fileTypeGroupOf, sizeBucketOf } from './analytics-events';
import {
  looksLikeEmail,
  looksLikeJwt,
  looksLikeKeyMaterial,
  looksLikePathOrFileName,
  normalizeAppPath,
  safeUrl,
  sanitizeProductProps,
} from './sanitize';

const JWT =
  'eyJhbGciOiJSUzI1NiIsImtpZCI6InRlc3QifQ.eyJzdWIiOiJhbGljZSIsImVtYWlsIjoiYUBiLmMifQ.c2lnbmF0dXJlLWJ5dGVzLWhlcmU';
const PUBLIC_KEY_B64 =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw';
const WRAPPED_KEY = 'q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQ+80=';

describe('analytics sanitiser', () => {
  it('recognises emails, tokens, key material and paths or file names', () => {
    for (const email of ['alice@example.com', 'Alice.Smith+tag@mail.example.org', 'to=alice%40example.com']) {
      expect(looksLikeEmail(email), email).toBe(true);
    }
    expect(looksLikeJwt(JWT)).toBe(true);
    expect(looksLikeJwt('aaaaaaaaaa.bbbbbbbbbb.cccccccc')).toBe(true);
    for (const key of [
      PUBLIC_KEY_B64,
      WRAPPED_KEY,
      'a3f1c9e0b2d4f6a8c0e2b4d6f8a0c2e4',
      'Zm9vYmFyYmF6cXV4cXV1eGNvcmdl_-',
    ]) {
      expect(looksLikeKeyMaterial(key), key).toBe(true);
    }
    for (const name of [
      'report.pdf',
      'Tax Return 2024.xlsx',
      'photos/holiday',
      'C:\\Users\\me',
      '/home/me/notes',
      'archive.tar.gz',
    ]) {
      expect(looksLikePathOrFileName(name), name).toBe(true);
    }
    for (const word of ['<1MB', '100MB-1GB', 'image', 'multipart', 'shared']) {
      expect(
        looksLikeEmail(word) ||
          looksLikeJwt(word) ||
          looksLikeKeyMaterial(word) ||
          looksLikePathOrFileName(word),
        word,
      ).toBe(false);
    }
  });

  it('keeps only size buckets, type groups, fixed words, counts and flags', () => {
    expect(
      sanitizeProductProps({
        sizeBucket: '10-100MB',
        fileType: 'spreadsheet',
        method: 'direct',
        fileCount: 3,
        verified: true,
        // Everything below must go.
        fileName: 'Salaries 2024.xlsx',
        email: 'bob@example.com',
        recipient: 'Bob Example',
        publicKey: PUBLIC_KEY_B64,
        encryptedFileKey: WRAPPED_KEY,
        accessToken: JWT,
        path: '/share/3f2a9c1e',
        bytes: 52_428_800,
        negative: -1,
        fraction: 0.5,
        nested: { name: 'x.pdf' },
        list: ['image'],
        nothing: null,
        'alice@example.com': 1,
        'bad key': 'image',
      }),
    ).toEqual({
      sizeBucket: '10-100MB',
      fileType: 'spreadsheet',
      method: 'direct',
      fileCount: 3,
      verified: true,
    });
  });

  it('drops a free-text value even when it looks harmless', () => {
    expect(
      sanitizeProductProps({ fileType: 'taxes2024', reason: 'Error: /api/users/files/abc failed' }),
    ).toEqual({});
  });

  it('reduces app paths to route patterns', () => {
    expect(normalizeAppPath('/share/0b7c2f8e-1111-2222-3333-444455556666?x=1#k')).toBe('/share/:id');
    expect(normalizeAppPath('/invite/abc?reason=invited')).toBe('/invite/:id');
    expect(normalizeAppPath('/myfiles')).toBe('/myfiles');
    expect(normalizeAppPath('/')).toBe('/');
    expect(normalizeAppPath('/unlock?code=abc&state=def')).toBe('/unlock');
    expect(normalizeAppPath('/alice@example.com/secret.pdf')).toBe('/other');
    expect(safeUrl('http://localhost:3000/share/abc?code=1', 'http://localhost:3000')).toBe(
      'http://localhost:3000/share/:id',
    );
    expect(safeUrl('https://accounts.google.com/o/oauth2?login_hint=a%40b.c', 'http://localhost:3000')).toBe(
      'https://accounts.google.com',
    );
    expect(safeUrl('javascript:alert(1)', 'http://localhost:3000')).toBeUndefined();
  });

  it('buckets sizes and names only the type group of a file', () => {
    expect(sizeBucketOf(0)).toBe('<1MB');
    expect(sizeBucketOf(1024 * 1024 - 1)).toBe('<1MB');
    expect(sizeBucketOf(1024 * 1024)).toBe('1-10MB');
    expect(sizeBucketOf(99 * 1024 * 1024)).toBe('10-100MB');
    expect(sizeBucketOf(100 * 1024 * 1024)).toBe('100MB-1GB');
    expect(sizeBucketOf(5 * 1024 ** 3)).toBe('>1GB');
    expect(fileTypeGroupOf('Salaries 2024.XLSX')).toBe('spreadsheet');
    expect(fileTypeGroupOf('no-extension')).toBe('other');
  });
});
