// Browser globals for the functions that run in the page (`page.evaluate`).
/// <reference lib="dom" />
// Listing 10,000 files with encrypted names in headless Chromium (issue 31): "listing 10,000 files,
// decrypting their names and rendering the first screen ≤ 1 s". One user gets `--files` files
// uploaded as the app uploads them (sealed name, node under the drive key, signed node record); then
// My Files is opened again and again (a full navigation: the app loads, restores its unlocked keys,
// lists GET /users/files and GET /users/folders, opens the nodes in WebCrypto and renders) and the
// time from navigation start to the first card showing a decrypted name is taken, with where it went
// (the app's `coffer:drive:*` User Timing measures) and when every name was open and every node
// record checked. Then each step is timed alone in the page (`list/phases-in-page.ts`).
// Run: `npm run build`, then `cd e2e && npx tsx bench/list-10k-bench.ts [--files=10000] [--runs=5]
// [--first-card-only]`; --first-card-only times a build without the app's measures (the first card only).
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { chromium, type Page } from 'playwright-core';
import { newPerson, signUpReady, type TestPerson } from '../helpers/auth.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../helpers/browser.js';
import { startServer } from './driver/bench-stack.js';
import { PHASES_IN_PAGE } from './list/phases-in-page.js';
import { FIRST_CARD_PROBE, hasMeasure, READ_RUN, type RunTimes } from './list/probe.js';
import { SEED_IN_PAGE } from './list/seed-in-page.js';

const option = (name: string): string | undefined =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const FILES = Number(option('files') ?? 10_000);
const RUNS = Number(option('runs') ?? 5);
const FIRST_CARD_ONLY = process.argv.includes('--first-card-only');
/** Files seeded per page load. */
const SEED_BATCH = 1000;
const require = createRequire(import.meta.url);

const loadText = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const ms = (value: number | undefined): string => (value === undefined ? '–' : value.toFixed(0));
const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? -1;

/** Puts @coffer/crypto in the page as `CofferCrypto` (evaluated: the app's CSP refuses inline scripts). */
async function addCryptoBundle(page: Page): Promise<void> {
  const bundle = await build({
    entryPoints: [require.resolve('@coffer/crypto')],
    bundle: true,
    format: 'iife',
    globalName: 'CofferCrypto',
    platform: 'browser',
    write: false,
  });
  await page.evaluate(`${bundle.outputFiles[0]?.text ?? ''}; globalThis.CofferCrypto = CofferCrypto; 0`);
}

/** A new user with `FILES` files. */
async function seededUser(page: Page): Promise<TestPerson> {
  const person = newPerson('list-bench');
  await signUpReady(page, person);
  const seedStarted = performance.now();
  // In batches, each on a freshly loaded page: the app renews its access token as it loads, and a
  // seed of 10,000 files on a busy machine outlives one.
  for (let from = 0; from < FILES; from += SEED_BATCH) {
    await page.goto('/new');
    await page.waitForLoadState('networkidle');
    await addCryptoBundle(page);
    const count = Math.min(SEED_BATCH, FILES - from);
    const seeded = await page.evaluate<{ failures: number; refusals: string[] }>(
      `(${SEED_IN_PAGE})(${JSON.stringify({ from, count, concurrency: 8, email: person.email })})`,
    );
    if (seeded.failures > 0)
      throw new Error(`${seeded.failures} seed uploads were refused: ${seeded.refusals.join('; ')}`);
  }
  console.log(`seeded ${FILES} files in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);
  return person;
}

const dataDir = await mkdtemp(join(tmpdir(), 'coffer-list-bench-'));
const { base, child } = await startServer(dataDir);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
try {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const person = await seededUser(page);

  await page.addInitScript(FIRST_CARD_PROBE);
  const runs: RunTimes[] = [];
  const loads: string[] = [];
  // One warm-up (caches, the service worker), then the measured runs.
  for (let run = 0; run <= RUNS; run++) {
    await page.goto('/myfiles');
    const options = { timeout: 180_000, polling: 50 };
    await page.waitForFunction(
      () => (globalThis as { __firstCardMs?: number }).__firstCardMs !== undefined,
      null,
      options,
    );
    // Where the names are all open and every node record checked (after the first screen); a build
    // from before these measures (--first-card-only) is timed to its first card only.
    if (!FIRST_CARD_ONLY) {
      await page.waitForFunction(hasMeasure, { name: 'names', count: 0 }, options);
      await page.waitForFunction(hasMeasure, { name: 'records', count: FILES }, options);
    }
    const times = await page.evaluate<RunTimes>(READ_RUN);
    const m = times.measures;
    console.log(
      `${run === 0 ? 'warm-up' : `run ${run}`}: first decrypted card at ${ms(times.firstCard)} ms ` +
        `(app listing from ${ms(times.listStart)} ms; ${times.listCalls} list calls until ${ms(times.listEnd)} ms; ` +
        `first page open at ${ms(m['first-page']?.end)}; ${times.cards} cards drawn); ` +
        `all names open at ${ms(m.names?.end)} ms, records checked at ${ms(m.records?.end)} ms ` +
        `(checking took ${ms(m.records?.duration)} ms); load ${loadText()}`,
    );
    if (run > 0) {
      runs.push(times);
      loads.push(loadText());
    }
  }

  // Each step alone, in the page, with the app's keys (after the runs: nothing else is running).
  await addCryptoBundle(page);
  const phases = await page.evaluate<Record<string, number>>(
    `(${PHASES_IN_PAGE})(${JSON.stringify({ email: person.email, concurrency: 64 })})`,
  );

  const pick = (f: (t: RunTimes) => number | undefined): number =>
    median(runs.map(f).filter((v): v is number => v !== undefined));
  const first = runs.map((t) => t.firstCard);
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  console.log('');
  console.log('| files | runs | first screen (ms): median | min | max | verdict (≤ 1000 ms) |');
  console.log('| ---: | ---: | ---: | ---: | ---: | --- |');
  console.log(
    `| ${FILES} | ${RUNS} | ${ms(median(first))} | ${ms(Math.min(...first))} | ${ms(Math.max(...first))} | ${median(first) <= 1000 ? 'pass' : 'FAIL'} |`,
  );
  console.log('');
  console.log('Medians (ms from navigation start) of the measured runs:');
  console.log(
    '| app starts listing | first page open | first card | list calls end | all names open | records checked |',
  );
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: |');
  console.log(
    `| ${ms(pick((t) => t.listStart))} | ${ms(pick((t) => t.measures['first-page']?.end))} | ${ms(median(first))} | ${ms(pick((t) => t.listEnd))} | ${ms(pick((t) => t.measures.names?.end))} | ${ms(pick((t) => t.measures.records?.end))} |`,
  );
  console.log('');
  console.log(
    `Each step alone in the page (64 in flight): ${phases.files} files; GET /users/files in ${phases.pages} pages ` +
      `${ms(phases.fetchPagesMs)} ms, in one call ${ms(phases.fetchOneCallMs)} ms (fetch + JSON); ` +
      `key unwraps ${ms(phases.unwrapMs)} ms; metadata decrypts ${ms(phases.decryptMs)} ms; ` +
      `node record verifies ${ms(phases.verifyMs)} ms (${phases.valid} valid)`,
  );
  console.log(
    `Chromium ${browser.version()}, ${cpus().length} × ${cpu}, load average per run: ${loads.join(' | ')}; ` +
      new Date().toISOString(),
  );
} finally {
  await browser.close();
  child.kill('SIGTERM');
  await rm(dataDir, { recursive: true, force: true });
}
