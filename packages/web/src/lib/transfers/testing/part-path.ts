import { afterEach, beforeEach, expect } from 'vitest';
import { createInProcessChunkCipher, createWorkerChunkCipher, type ChunkCipher } from '../../crypto-worker';
import { LoopbackCryptoWorker } from '../../crypto-worker/testing/loopback-worker';
import type { TestFormatOverrides } from '../format-overrides';
import type { UploadRunOptions } from '../upload-options';
import type { FakeCofferServer } from './fake-coffer-server';

/**
 * Where an upload's parts are sealed (and the chunk hashes computed) and sent: on the page (the
 * cipher runs on this thread, as where module workers are missing) or in the crypto worker
 * (`sealPart`: the worker's own code, answering on this thread, sends each part through the fake
 * server's XHR).
 */
export type PartPath = 'page' | 'crypto worker';

let current: PartPath = 'page';
let workers: LoopbackCryptoWorker[] = [];

/** A cipher on the part path of the running test (the page outside a {@link usePartPath} block). */
export function cipherFor(server: FakeCofferServer): ChunkCipher {
  if (current === 'page') return createInProcessChunkCipher();
  const worker = new LoopbackCryptoWorker(server.createXhr);
  workers.push(worker);
  return createWorkerChunkCipher(() => worker);
}

/**
 * The tests of this block build and send parts on `path`; after each, `check` (if given) gets the
 * crypto workers the test used.
 */
export function usePartPath(
  path: PartPath,
  check?: (used: readonly LoopbackCryptoWorker[]) => Promise<void>,
): void {
  beforeEach(() => {
    current = path;
  });
  afterEach(async () => {
    current = 'page';
    const used = workers;
    workers = [];
    await check?.(used);
  });
}

/** Whatever the upload's end (complete, cancelled, failed), no worker holds any of its parts. */
export async function expectNoPartHeld(used: readonly LoopbackCryptoWorker[]): Promise<void> {
  for (const worker of used) await worker.idle();
  expect(used.map((worker) => worker.heldParts)).toEqual(used.map(() => 0));
}

/**
 * The run options an upload test takes unless it says otherwise: the fake server's API and XHR, a
 * cipher on this test's part path, no waits before retries.
 */
export function testRunOptions(server: FakeCofferServer, testFormat: TestFormatOverrides) {
  return {
    api: server.api,
    cipher: cipherFor(server),
    signal: new AbortController().signal,
    onProgress: () => undefined,
    createXhr: server.createXhr,
    retryDelaysMs: [],
    testFormat,
  } satisfies Partial<UploadRunOptions>;
}
