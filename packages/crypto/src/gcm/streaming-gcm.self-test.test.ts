import { afterEach, describe, expect, it, vi } from 'vitest';
import * as api from '../index.js';
import { selfTestStreamingGcm } from './streaming-gcm.self-test.js';

describe('selfTestStreamingGcm', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('is exported from the package with the sealer and the opener', () => {
    expect(api.selfTestStreamingGcm).toBe(selfTestStreamingGcm);
    expect(typeof api.createChunkSealer).toBe('function');
    expect(typeof api.createChunkOpener).toBe('function');
  });

  it('passes in this engine', async () => {
    expect(await selfTestStreamingGcm()).toBe(true);
  });

  it('fails (so callers fall back to whole chunks) where the engine refuses 16-byte IVs', async () => {
    const encrypt = crypto.subtle.encrypt.bind(crypto.subtle);
    vi.spyOn(crypto.subtle, 'encrypt').mockImplementation((algorithm, key, data) => {
      const iv = (algorithm as AesGcmParams).iv as Uint8Array;
      if (iv.byteLength === 16) return Promise.reject(new DOMException('no', 'OperationError'));
      return encrypt(algorithm, key, data);
    });
    expect(await selfTestStreamingGcm()).toBe(false);
  });

  it('fails where the engine computes GCM tags differently', async () => {
    const encrypt = crypto.subtle.encrypt.bind(crypto.subtle);
    vi.spyOn(crypto.subtle, 'encrypt').mockImplementation(async (algorithm, key, data) => {
      const output = new Uint8Array(await encrypt(algorithm, key, data));
      const iv = (algorithm as AesGcmParams).iv as Uint8Array;
      if (iv.byteLength === 16) output[output.length - 1] = (output.at(-1) ?? 0) ^ 1;
      return output.buffer;
    });
    expect(await selfTestStreamingGcm()).toBe(false);
  });
});
