import { afterEach, describe, expect, it } from 'vitest';
import {
  BLOB_SAVE_LIMIT,
  CANNOT_SAVE_LARGE_TEXT,
  SAVE_METHOD_STORAGE_KEY,
  preferredSaveMethod,
  resolveSaveMethod,
} from './save-method';

const all = { fsAccess: true, serviceWorker: true };
const swOnly = { fsAccess: false, serviceWorker: true };
const none = { fsAccess: false, serviceWorker: false };

describe('save method', () => {
  afterEach(() => {
    localStorage.clear();
  });

  it('auto prefers the service worker (an ordinary download), then the File System Access API, then a Blob for small files', () => {
    expect(resolveSaveMethod('auto', 10, all)).toBe('service-worker');
    expect(resolveSaveMethod('auto', 10, swOnly)).toBe('service-worker');
    expect(resolveSaveMethod('auto', 10, { fsAccess: true, serviceWorker: false })).toBe('fs-access');
    expect(resolveSaveMethod('auto', BLOB_SAVE_LIMIT, none)).toBe('blob');
    expect(() => resolveSaveMethod('auto', BLOB_SAVE_LIMIT + 1, none)).toThrow(CANNOT_SAVE_LARGE_TEXT);
  });

  it('takes an explicit method when the browser has it', () => {
    expect(resolveSaveMethod('service-worker', 5e9, all)).toBe('service-worker');
    expect(resolveSaveMethod('blob', 10, all)).toBe('blob');
    expect(() => resolveSaveMethod('blob', BLOB_SAVE_LIMIT + 1, all)).toThrow(CANNOT_SAVE_LARGE_TEXT);
    expect(() => resolveSaveMethod('fs-access', 10, swOnly)).toThrow();
    expect(() => resolveSaveMethod('service-worker', 10, none)).toThrow();
  });

  it('reads the preference from localStorage (browser tests force the service worker this way)', () => {
    expect(preferredSaveMethod()).toBe('auto');
    localStorage.setItem(SAVE_METHOD_STORAGE_KEY, 'service-worker');
    expect(preferredSaveMethod()).toBe('service-worker');
    localStorage.setItem(SAVE_METHOD_STORAGE_KEY, 'nonsense');
    expect(preferredSaveMethod()).toBe('auto');
  });
});
