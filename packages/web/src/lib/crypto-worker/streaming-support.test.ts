import { afterEach, describe, expect, it, vi } from 'vitest';
import { processCryptoRequest } from './process-request';
import { checkStreamingGcm, resetStreamingGcmCheck } from './streaming-support';

afterEach(() => {
  resetStreamingGcmCheck();
});

describe('checkStreamingGcm', () => {
  it('passes in this engine (Node WebCrypto) and says so once', async () => {
    const log = vi.fn();
    expect(await checkStreamingGcm(undefined, log)).toBe(true);
    expect(await checkStreamingGcm(undefined, log)).toBe(true);
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]?.[0]).toMatch(/self-test passed/);
  });

  it('falls back, and says so, where the self-test fails or throws', async () => {
    const log = vi.fn();
    expect(await checkStreamingGcm(() => Promise.resolve(false), log)).toBe(false);
    expect(log.mock.calls[0]?.[0]).toMatch(/FAILED: falling back to one WebCrypto call per whole chunk/);
    resetStreamingGcmCheck();
    expect(await checkStreamingGcm(() => Promise.reject(new Error('no 16-byte IVs')), log)).toBe(false);
  });

  it('is what the crypto worker answers to a status request', async () => {
    expect(await processCryptoRequest({ id: 7, op: 'status' })).toMatchObject({
      id: 7,
      ok: true,
      streaming: true,
    });
  });
});
