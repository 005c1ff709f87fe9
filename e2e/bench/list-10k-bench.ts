// Browser globals for the functions that run in the page (`page.evaluate`).
/// <reference lib="dom" />
// Listing 10,000 files with encrypted names in headless Chromium (issue 31): "listing 10,000 files,
// decrypting their names and rendering the first screen ≤ 1 s". One user gets `--files` files
// uploaded as the app uploads them (sealed name, node under the drive key, signed node record); then
// My Files is opened again and again (a full navigation: the app loads, restores its unlocked keys,
// lists GET /users/files page by page and GET /users/folders, opens every node in WebCrypto and
// renders) and the time from navigation start to the first card showing a decrypted name is taken.
// Run: `npm run build`, then `cd e2e && npx tsx bench/list-10k-bench.ts [--files=10000] [--runs=5]`.
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { newPerson, signUpReady } from '../helpers/auth.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../helpers/browser.js';
import { startServer } from './driver/bench-stack.js';
import { SEED_IN_PAGE } from './list/seed-in-page.js';

const arg = (name: string, fallback: number): number => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found === undefined ? fallback : Number(found.slice(name.length + 3));
};
const FILES = arg('files', 10_000);
const RUNS = arg('runs', 5);
const require = createRequire(import.meta.url);

// Records, in the page, when the first card with a decrypted name is in the DOM (performance.now()
// counts from the navigation's start), and when every name has been opened (the list's own count).
const FIRST_CARD_PROBE = `(() => {
  const seen = () => {
    const title = document.querySelector('[data-testid="file-title"]');
    if (title !== null && title.textContent.startsWith('bench-')) {
      globalThis.__firstCardMs = performance.now();
      return true;
    }
    return false;
  };
  const observer = new MutationObserver(() => { if (seen()) observer.disconnect(); });
  document.addEventListener('DOMContentLoaded', () => {
    if (!seen()) observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  });
})();`;

const dataDir = await mkdtemp(join(tmpdir(), 'coffer-list-bench-'));
const { base, child } = await startServer(dataDir);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
try {
  const bundle = await build({
    entryPoints: [require.resolve('@coffer/crypto')],
    bundle: true,
    format: 'iife',
    globalName: 'CofferCrypto',
    platform: 'browser',
    write: false,
  });
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const person = newPerson('list-bench');
  await signUpReady(page, person);

  const seedStarted = performance.now();
  // Evaluated (not a script tag): the app's CSP refuses inline scripts, DevTools' evaluation is not one.
  await page.evaluate(`${bundle.outputFiles[0]?.text ?? ''}; globalThis.CofferCrypto = CofferCrypto; 0`);
  const seeded = await page.evaluate<{ failures: number }>(
    `(${SEED_IN_PAGE})(${JSON.stringify({ count: FILES, concurrency: 8, email: person.email })})`,
  );
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  if (seeded.failures > 0) throw new Error(`${seeded.failures} seed uploads were refused`);
  console.log(`seeded ${FILES} files in ${seedSeconds.toFixed(0)} s`);

  await page.addInitScript(FIRST_CARD_PROBE);
  const times: number[] = [];
  // One warm-up (caches, the service worker), then the measured runs.
  for (let run = 0; run <= RUNS; run++) {
    await page.goto('/myfiles');
    await page.waitForFunction(
      () => (globalThis as { __firstCardMs?: number }).__firstCardMs !== undefined,
      null,
      {
        timeout: 120_000,
      },
    );
    const ms = await page.evaluate(() => (globalThis as { __firstCardMs?: number }).__firstCardMs ?? -1);
    // Where the time goes: the list calls' first start and last end (resource timing).
    const listed = await page.evaluate(() => {
      const calls = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
        (entry) => /\/api\/users\/(files|folders)/.test(entry.name),
      );
      const start = Math.min(...calls.map((entry) => entry.startTime));
      const end = Math.max(...calls.map((entry) => entry.responseEnd));
      const cards = document.querySelectorAll('[data-testid="file-title"]').length;
      return `list calls ${start.toFixed(0)}-${end.toFixed(0)} ms (${calls.length}), ${cards} cards drawn`;
    });
    if (run > 0) times.push(ms);
    console.log(
      `${run === 0 ? 'warm-up' : `run ${run}`}: first decrypted card at ${ms.toFixed(0)} ms (${listed})`,
    );
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? -1;
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  console.log('');
  console.log(`| files | runs | first screen (ms): median | min | max | verdict (≤ 1000 ms) |`);
  console.log('| ---: | ---: | ---: | ---: | ---: | --- |');
  console.log(
    `| ${FILES} | ${RUNS} | ${median.toFixed(0)} | ${(times[0] ?? -1).toFixed(0)} | ${(times.at(-1) ?? -1).toFixed(0)} | ${median <= 1000 ? 'pass' : 'FAIL'} |`,
  );
  console.log(
    `Chromium ${browser.version()}, ${cpus().length} × ${cpu}, load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}, ${new Date().toISOString()}`,
  );
} finally {
  await browser.close();
  child.kill('SIGTERM');
  await rm(dataDir, { recursive: true, force: true });
}
