import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_LOAD_TIMEOUT_MS, ChunkLoadTimeoutError, isChunkLoadError, withTimeout } from './lazy-page';

describe('withTimeout', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is 120 seconds by default (spec)', () => {
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
  });

  it('rejects a load that takes longer than the time-out', async () => {
    vi.useFakeTimers();
    const pending = withTimeout(() => new Promise<never>(() => undefined));
    const assertion = expect(pending).rejects.toBeInstanceOf(ChunkLoadTimeoutError);
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS);
    await assertion;
  });

  it('passes a fast load through', async () => {
    await expect(withTimeout(() => Promise.resolve('page'), 1000)).resolves.toBe('page');
  });

  it('passes a failed load through', async () => {
    await expect(withTimeout(() => Promise.reject(new Error('boom')), 1000)).rejects.toThrow('boom');
  });
});

describe('isChunkLoadError', () => {
  it('recognises time-outs and failed dynamic imports', () => {
    expect(isChunkLoadError(new ChunkLoadTimeoutError(1))).toBe(true);
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /x.js'))).toBe(true);
    expect(isChunkLoadError(new Error('something else'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });
});
