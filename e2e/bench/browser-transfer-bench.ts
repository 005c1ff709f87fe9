/**
 * Browser transfer benchmark (issue 7, "Benchmark"): in headless Chromium against the built server,
 * for each size, the encrypted upload through the real New Upload screen and the encrypted download
 * through My Files (service-worker save path), beside the two limits of the same bytes measured in
 * the same run:
 *
 * - plain: the same file uploaded WITHOUT encryption through the same server and the same route
 *   (XHR PUTs of the file's 95 MiB slices, each padded with the 28 bytes a chunk's IV and tag add,
 *   to the multipart part endpoint, one part at a time), then downloaded as an ordinary browser
 *   download of `/api/users/files/{id}/download` (bearer header via `extraHTTPHeaders`), which
 *   Chromium writes to disk as it writes the encrypted one;
 * - bare AES-GCM: `crypto.subtle.encrypt` / `decrypt` in the page over the same chunks (95 MiB, the
 *   format's chunk size, the same count), one and two chunks in flight.
 *
 * Each size runs in a fresh browser context: the encrypted upload first runs before any download, then
 * again after the download has registered the app's download service worker (which must never
 * control the page: its scope is /__coffer_download__/ only), as for anyone who has downloaded once.
 *
 * Measured alongside: the memory of ALL Chromium processes (sum of PSS from /proc/<pid>/smaps_rollup,
 * every 200 ms: proportional, so shared pages are not counted twice), idle just before a transfer vs
 * peak during it; and the longest main-thread block of the app's page during a transfer (Long Tasks
 * API, plus a 10 ms timer whose lateness is recorded); the CPU time of every Chromium thread and of
 * the server (/proc/<pid>/task/<tid>/stat); the minor page faults of every Chromium process
 * (/proc/<pid>/stat `minflt`: each is a page touched for the first time, ~17 µs apiece on the
 * 2-core benchmark machine, so fresh chunk-sized buffers show up here).
 *
 *   npm run build && npm run bench:transfer -w @coffer/e2e [-- --sizes-gib=1,4 --hash-max-gib=1 --exchange-gib=0 --exchange-runs=1 --rounds=3 --no-docs --trace --profile --task-cpu --persistent]
 *
 * Each size's transfers run in `--rounds` rounds (default 3), each in a fresh session with the plain
 * twins before and after the encrypted ones; the speed verdicts take the median of the rounds' ratios
 * (on the 2-core VMs the same build's ratios move ±0.1 within minutes: one sample settles nothing).
 *
 * Writes (replaces) the "Browser transfers (Chromium)" section of docs/benchmarks.md unless --no-docs.
 * The server runs as a child process, as in packages/server/src/bench/transfer-bench.ts.
 *
 * Layout: `driver/` starts the stack, the browsers and the accounts and runs the transfers;
 * `measure/` samples memory, CPU and page faults from /proc, main-thread blocking, the floor's bare
 * AES-GCM and WebCrypto's footprint; `report/` turns the results into the docs section.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { newPerson } from '../helpers/auth.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../helpers/browser.js';
import { measuredCommit, startServer } from './driver/bench-stack.js';
import { runSize, type SizeResult } from './driver/run-size.js';
import { openSession, type Harness } from './driver/session.js';
import { ChromiumProcesses } from './measure/chromium-processes.js';
import { markdownSection, writeSection } from './report/markdown-section.js';

interface Args {
  sizesGib: number[];
  /** Downloads of files up to this size are checked by SHA-256 (larger ones by size only). */
  hashMaxGib: number;
  docs: boolean;
  /** Print the memory of the Chromium processes once a second during transfers. */
  trace: boolean;
  /** Print where the page's main thread spends its time during each encrypted transfer. */
  profile: boolean;
  /**
   * Run the measured person's browser on a profile on disk (`launchPersistentContext`), as a user's
   * browser is, instead of an off-the-record context: there the origin private file system (where
   * the crypto worker keeps upload parts) lives in memory, and counts as the browser's memory.
   */
  persistent: boolean;
  /**
   * At this size (default: the largest), the owner also shares the file with a second person, who
   * downloads it (0: never).
   */
  exchangeGib: number;
  /**
   * Trace the page's main thread during encrypted transfers and print, for each long task, how much
   * of it the thread spent on a core (the rest it waited for one): tells the app's own work from the
   * machine's contention. Tracing costs CPU itself: not for the figures of a docs run.
   */
  taskCpu: boolean;
  /** How many times the exchange runs (each with a new second person): a download that does not start shows. */
  exchangeRuns: number;
  /**
   * How many rounds of each size's transfers run (each in a fresh session, plain twins before and after
   * the encrypted ones): the speed verdicts take the median of the rounds' ratios.
   */
  rounds: number;
}

function parseArgs(argv: string[]): Args {
  const get = (name: string): string | undefined =>
    argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const sizesGib = (get('sizes-gib') ?? '1,4').split(',').map(Number);
  if (sizesGib.some((s) => !Number.isFinite(s) || s <= 0)) throw new Error('--sizes-gib: positive numbers');
  return {
    sizesGib,
    hashMaxGib: Number(get('hash-max-gib') ?? 1),
    docs: !argv.includes('--no-docs'),
    trace: argv.includes('--trace'),
    profile: argv.includes('--profile'),
    persistent: argv.includes('--persistent'),
    taskCpu: argv.includes('--task-cpu'),
    // By default the largest size is also shared with a second person.
    exchangeGib: Number(get('exchange-gib') ?? Math.max(...sizesGib)),
    exchangeRuns: Math.max(1, Math.floor(Number(get('exchange-runs') ?? 1))),
    rounds: Math.max(1, Math.floor(Number(get('rounds') ?? 3))),
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const dir = await mkdtemp(join(tmpdir(), 'coffer-browser-bench-'));
  const loadAtStart = loadavg()[0]?.toFixed(1) ?? '?';
  const { base, child } = await startServer(join(dir, 'data'));
  let browser: Browser | null = null;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS],
      downloadsPath: join(dir, 'downloads'),
    });
    // The context, page and CDP session are set by openSession.
    const h = {
      browser,
      base,
      dir,
      memory: new ChromiumProcesses(child.pid ?? 0, args.trace),
      profile: args.profile,
      persistent: args.persistent,
      taskCpu: args.taskCpu,
    } as Harness;
    const person = newPerson('bench');
    console.log(`Signing up through the UI at ${base} (load ${loadavg()[0]?.toFixed(1) ?? '?'})`);
    await openSession(h, person, true);
    await h.context.close();

    const results: SizeResult[] = [];
    for (const gib of args.sizesGib) {
      results.push(
        await runSize(h, person, gib, args.hashMaxGib, args.exchangeGib, args.exchangeRuns, args.rounds),
      );
    }

    const cpu = cpus()[0]?.model ?? 'unknown CPU';
    const machine =
      `${cpus().length} cores (\`nproc\` = ${cpus().length}), ${cpu}; Node ${process.version}; ` +
      `Chromium ${browser.version()}; 1-minute load average ${loadAtStart} at the start, ` +
      `${loadavg()[0]?.toFixed(1) ?? '?'} at the end; commit measured ${measuredCommit()}`;
    const ranAt = `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    const section = markdownSection(results, machine, ranAt, args);
    console.log(`\n${section}`);
    if (args.docs) {
      await writeSection(section);
      console.log('Written to docs/benchmarks.md.');
    }
  } finally {
    await browser?.close().catch(() => undefined);
    child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
