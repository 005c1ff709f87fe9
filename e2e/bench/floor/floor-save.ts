/**
 * How the download floor benchmark saves a download and bounds a step that may hang
 * (`download-floor-bench.ts`, `floor-app.ts`).
 */
import { stat } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { transferTimeoutMs } from '../driver/measured-run.js';

/** Answers, once the stage's work is done, what checks and cleans up after it (outside the clock). */
export type Check = () => Promise<void>;

/** Rejects after `ms` with `what`: a ceiling for a step that may hang. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const ceiling = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what} did not end within ${String(Math.round(ms / 1000))} s`));
    }, ms);
  });
  return Promise.race([promise, ceiling]).finally(() => {
    clearTimeout(timer);
  });
}

/**
 * Saves what `start` begins in `page` (a download): timed to the browser calling it complete; the
 * check (after the clock) compares its size and deletes it.
 */
export async function save(
  page: Page,
  start: () => Promise<unknown>,
  what: string,
  size: number,
): Promise<Check> {
  const timeout = transferTimeoutMs(size);
  const [download] = await Promise.all([page.waitForEvent('download', { timeout }), start()]);
  const path = await within(download.path(), timeout, what);
  return async () => {
    const { size: saved } = await stat(path);
    await download.delete();
    if (saved !== size) throw new Error(`${what}: ${String(saved)} bytes saved, expected ${String(size)}`);
  };
}
