// Browser globals for the functions that run in the page (`page.evaluate`).
/// <reference lib="dom" />
import { CHUNK_SIZE } from '@coffer/contracts';
import type { Page } from 'playwright-core';
import { elapsed } from '../bench-units.js';
import { BARE_WORKER_SOURCE } from './aes-gcm-workers.js';

export interface BareCrypto {
  encryptMs: number;
  decryptMs: number;
}

/** `crypto.subtle` AES-GCM in the page over the file's chunks (same count and sizes), `inFlight` at once. */
export async function bareAesGcm(page: Page, size: number, inFlight: number): Promise<BareCrypto> {
  return page.evaluate(
    async ({ size, chunkSize, inFlight }) => {
      const subtle = crypto.subtle;
      const key = await subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const count = Math.max(1, Math.ceil(size / chunkSize));
      const lastLength = size - chunkSize * (count - 1);
      const full = new Uint8Array(chunkSize);
      for (let at = 0; at < chunkSize; at += 65536) {
        crypto.getRandomValues(full.subarray(at, Math.min(chunkSize, at + 65536)));
      }
      const last = full.subarray(0, lastLength);
      // The same ciphertext decrypted again and again (one IV: acceptable in a benchmark only).
      const fullCt = await subtle.encrypt({ name: 'AES-GCM', iv }, key, full);
      const lastCt = await subtle.encrypt({ name: 'AES-GCM', iv }, key, last);
      const run = async (op: 'encrypt' | 'decrypt'): Promise<number> => {
        let next = 0;
        const started = performance.now();
        const lane = async (): Promise<void> => {
          while (next < count) {
            const isLast = next === count - 1;
            next++;
            if (op === 'encrypt') await subtle.encrypt({ name: 'AES-GCM', iv }, key, isLast ? last : full);
            else await subtle.decrypt({ name: 'AES-GCM', iv }, key, isLast ? lastCt : fullCt);
          }
        };
        await Promise.all(Array.from({ length: inFlight }, lane));
        return performance.now() - started;
      };
      return { encryptMs: await run('encrypt'), decryptMs: await run('decrypt') };
    },
    { size, chunkSize: CHUNK_SIZE, inFlight },
  );
}

/**
 * Prepares bare AES-GCM (`op`) over the file's chunks in a worker of the page (as the app's cipher
 * runs in workers) and answers the function that runs it, settling when it is done.
 */
export async function bareCipherInWorker(
  page: Page,
  size: number,
  op: 'encrypt' | 'decrypt',
): Promise<() => Promise<void>> {
  await page.evaluate(
    async ({ source, size, chunkSize, op }) => {
      const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
      await new Promise<void>((resolve) => {
        worker.onmessage = () => {
          resolve();
        };
        worker.postMessage({ size, chunkSize, op });
      });
      (globalThis as { cofferBareRun?: () => Promise<void> }).cofferBareRun = () =>
        new Promise<void>((resolve) => {
          worker.onmessage = () => {
            worker.terminate();
            resolve();
          };
          worker.postMessage('go');
        });
    },
    { source: BARE_WORKER_SOURCE, size, chunkSize: CHUNK_SIZE, op },
  );
  return () =>
    page.evaluate(async () => {
      await (globalThis as { cofferBareRun?: () => Promise<void> }).cofferBareRun?.();
    });
}

/**
 * The floor of an encrypted transfer on this machine: the plain transfer of the same bytes and
 * bare AES-GCM over the same chunks (in a worker, one chunk at a time), started together; timed
 * to the end of the later one. An encrypted transfer does at least both on the same cores. Its
 * memory is not a floor: the cipher's tight loop leaves WebCrypto's per-call buffers to the
 * garbage collector, so the report leaves it out.
 */
export async function plainWithBareCipher(
  runCipher: () => Promise<void>,
  plain: () => Promise<unknown>,
): Promise<number> {
  const start = process.hrtime.bigint();
  await Promise.all([runCipher(), plain()]);
  return elapsed(start);
}
