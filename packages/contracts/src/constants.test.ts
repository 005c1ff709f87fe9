import { describe, expect, it } from 'vitest';
import {
  accountTierOf,
  CHUNK_OVERHEAD_BYTES,
  CHUNK_SIZE,
  DIRECT_UPLOAD_THRESHOLD,
  isLandingReason,
  landingReasons,
  NAV_ABORT_WAITS_MS,
  sessionStorageKeys,
  tierLabels,
} from './constants.js';
import { landingPath } from './app-routes.js';
import { chunkCountFor, encryptedPartSizeFor, encryptedSizeFor } from './sizes.js';

describe('constants', () => {
  it('match the spec', () => {
    expect(CHUNK_SIZE).toBe(95 * 1024 * 1024);
    expect(CHUNK_OVERHEAD_BYTES).toBe(28);
    expect(DIRECT_UPLOAD_THRESHOLD).toBe(100 * 1024 * 1024);
    expect(NAV_ABORT_WAITS_MS).toEqual([200, 300]);
    expect(Object.values(sessionStorageKeys)).toEqual([
      'redirectAfterUnlock',
      'needsNewEncryption',
      'encryptionInitialized',
      'encryptionDerivedKey',
    ]);
    expect(tierLabels).toEqual({ Free: 'Free Tier', Personal: 'Personal Tier' });
    expect(landingReasons).toEqual(['file-share', 'email-notification', 'invite-email', 'other']);
  });

  it('treats loading stats as the free tier', () => {
    expect(accountTierOf(undefined)).toBe('FREE');
    expect(accountTierOf(null)).toBe('FREE');
    expect(accountTierOf('Free')).toBe('FREE');
    expect(accountTierOf('Personal')).toBe('PAID');
  });

  it('recognises landing reasons and builds landing paths', () => {
    expect(isLandingReason('invite-email')).toBe(true);
    expect(isLandingReason('nope')).toBe(false);
    expect(isLandingReason(3)).toBe(false);
    expect(landingPath('file-share', 'abc')).toBe('/landing?reason=file-share&fileId=abc');
    expect(landingPath('invite-email', 'a+b@x.io')).toBe('/landing?reason=invite-email&fileId=a%2Bb%40x.io');
    expect(landingPath('other')).toBe('/landing?reason=other');
  });
});

describe('coffer-v1 sizes', () => {
  it('counts one chunk for an empty file', () => {
    expect(chunkCountFor(0)).toBe(1);
    expect(encryptedSizeFor(0)).toBe(28);
    expect(encryptedPartSizeFor(0, 1)).toBe(28);
  });

  it('splits at the chunk size', () => {
    expect(chunkCountFor(CHUNK_SIZE)).toBe(1);
    expect(chunkCountFor(CHUNK_SIZE + 1)).toBe(2);
    expect(encryptedSizeFor(CHUNK_SIZE + 1)).toBe(CHUNK_SIZE + 1 + 56);
    expect(encryptedPartSizeFor(CHUNK_SIZE + 1, 1)).toBe(CHUNK_SIZE + 28);
    expect(encryptedPartSizeFor(CHUNK_SIZE + 1, 2)).toBe(29);
    expect(encryptedPartSizeFor(CHUNK_SIZE + 1, 3)).toBeNull();
    expect(encryptedPartSizeFor(CHUNK_SIZE + 1, 0)).toBeNull();
  });
});
