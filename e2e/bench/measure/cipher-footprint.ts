// Browser globals for the functions that run in the page (`page.evaluate`).
/// <reference lib="dom" />
import { CHUNK_SIZE } from '@coffer/contracts';
import type { CDPSession, Page } from 'playwright-core';
import { CHUNK_MB, MB } from '../bench-units.js';
import { FOOTPRINT_WORKER_SOURCE } from './aes-gcm-workers.js';
import type { ChromiumProcesses } from './chromium-processes.js';
import { readKb } from './proc-table.js';

/** What one chunk-sized WebCrypto call holds at once, above what its caller holds. */
export interface CipherFootprint {
  /** Peak growth of the page's process during one call (median of three), in chunks. */
  decryptPeak: number;
  encryptPeak: number;
  /** Growth once the decryption settled, its output still alive (median of three), in chunks. */
  decryptAfter: number;
}

/** The page's handle on the footprint worker (`cipherFootprint`). */
interface FootprintPage {
  cofferFootprint?: (message: number | string) => Promise<string>;
}

/** A call of the footprint worker that has not answered in this long failed (a ceiling, not a wait). */
const FOOTPRINT_CALL_CEILING_MS = 120_000;

/**
 * WebCrypto's own memory per chunk-sized call, in a dedicated worker of the app's page (where
 * uploads encrypt; downloads decrypt in the service worker's process, with the same WebCrypto):
 * the page process's anonymous resident memory (`RssAnon`), sampled about every millisecond
 * during one call over a whole 95 MiB chunk, against just before it (after a collection of the
 * page's heap). The report's memory verdicts build what a whole-chunk design holds at a call's
 * peak from it.
 */
export async function cipherFootprint(h: {
  page: Page;
  cdp: CDPSession;
  memory: Pick<ChromiumProcesses, 'pageProcess'>;
}): Promise<CipherFootprint> {
  const pid = h.memory.pageProcess;
  const anon = (): number => readKb(`/proc/${pid}/status`, 'RssAnon') ?? 0;
  await h.page.evaluate((source) => {
    const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
    (globalThis as FootprintPage).cofferFootprint = (message) =>
      new Promise((resolve, reject) => {
        worker.onmessage = (event: MessageEvent<string>) => {
          if (event.data === 'freed' && message === 'end') worker.terminate();
          resolve(event.data);
        };
        worker.onerror = (event) => {
          reject(new Error(`footprint worker: ${event.message}`));
        };
        worker.postMessage(message === 'end' ? 'free' : message);
      });
  }, FOOTPRINT_WORKER_SOURCE);
  const send = async (message: number | string, expected: string): Promise<void> => {
    const answer = await h.page.evaluate(async (m) => {
      const call = (globalThis as FootprintPage).cofferFootprint;
      if (call === undefined) return 'failed: the page lost the footprint worker';
      return call(m);
    }, message);
    if (answer !== expected) throw new Error(`WebCrypto footprint: ${String(message)} answered ${answer}`);
  };
  await send(CHUNK_SIZE, 'ready');
  const chunks = (bytes: number): number => bytes / MB / CHUNK_MB;
  const once = async (op: 'encrypt' | 'decrypt'): Promise<{ peak: number; after: number }> => {
    // The benchmark's earlier work in this page leaves garbage a collection mid-call would free.
    await h.cdp.send('HeapProfiler.collectGarbage');
    await new Promise((r) => setTimeout(r, 300));
    const before = anon();
    let peak = before;
    const call = { settled: false };
    const calling = send(op, 'done').finally(() => {
      call.settled = true;
    });
    const started = Date.now();
    while (!call.settled) {
      if (Date.now() - started > FOOTPRINT_CALL_CEILING_MS)
        throw new Error(`WebCrypto footprint: ${op} hung`);
      peak = Math.max(peak, anon());
      await new Promise((r) => setTimeout(r, 1));
    }
    await calling;
    const after = anon();
    await send('free', 'freed');
    return { peak: chunks(Math.max(peak, after) - before), after: chunks(after - before) };
  };
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[1] ?? 0;
  const decrypts = [await once('decrypt'), await once('decrypt'), await once('decrypt')];
  const encrypts = [await once('encrypt'), await once('encrypt'), await once('encrypt')];
  await send('end', 'freed');
  return {
    decryptPeak: median(decrypts.map((x) => x.peak)),
    encryptPeak: median(encrypts.map((x) => x.peak)),
    decryptAfter: median(decrypts.map((x) => x.after)),
  };
}
