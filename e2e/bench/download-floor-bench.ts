/**
 * `npm run bench:floor -w @coffer/e2e [-- --floor-sizes-gib=1,4 --floor-rounds=3 --no-docs]`: how fast
 * Chromium on this machine can save a download whose bytes a service worker streams, measured stage
 * by stage against an ordinary download of the same bytes from the same server, in one browser
 * session (a profile on disk). The stages are the app's encrypted download taken apart
 * (docs/transfers.md, "Two threads"), without the app: see `floor/floor-fixture.ts`.
 *
 * It answers whether a target set as "× the plain download" is reachable here: the app's download
 * does every one of these stages and more (decryption, the server reading its store), so no stage's
 * own ratio can be beaten by the whole. Rewrites its section of docs/benchmarks.md unless `--no-docs`.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../helpers/browser.js';
import { GIB, MB } from './bench-units.js';
import { measuredCommit } from './driver/bench-stack.js';
import { ChromiumProcesses } from './measure/chromium-processes.js';
import { machineDuring } from './measure/machine-busy.js';
import { writeSection } from './report/markdown-section.js';

const SECTION_TITLE = 'Browser download floor (Chromium)';

/** The stages, in the order each round runs them. */
const STAGES = [
  {
    id: 'plain',
    what: 'ordinary download (`Content-Disposition: attachment`): the network service writes it to disk',
  },
  {
    id: 'constant',
    what: 'service worker streams one constant 1 MiB buffer: the service-worker save path alone',
  },
  {
    id: 'readback',
    what:
      'service worker reads a 95 MiB file of the origin private file system back (one BYOB reader, pooled ' +
      "1 MiB buffers, as the app's service worker reads each verified chunk) and streams it: the save " +
      'path and the read-back, no network, no cryptography',
  },
  {
    id: 'slices8',
    what: 'the same, the file read as `slice().arrayBuffer()` of 8 MiB (another way for a service worker to read a file)',
  },
  {
    id: 'refetch',
    what: 'service worker fetches the bytes from the server and passes each piece through JavaScript: the decrypt pass of a design that fetches each chunk twice (by `Range`) instead of keeping it on disk',
  },
  {
    id: 'store',
    what: "dedicated worker fetches the bytes and writes them to a 95 MiB file with a synchronous access handle, a GMAC per 256 KiB (the app's crypto worker: fetch, store, verify; nothing saved)",
  },
] as const;
type StageId = (typeof STAGES)[number]['id'];

interface StageRun {
  seconds: number;
  chromiumCpu: number;
  serverCpu: number;
  /** Share of both cores busy (user + kernel), and in the kernel, over the stage. */
  busy: number;
  kernel: number;
}

/** `--<name>=a,b,…`: positive numbers. */
function option(name: string, fallback: string): number[] {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  const values = (found === undefined ? fallback : found.slice(name.length + 3)).split(',').map(Number);
  if (values.length === 0 || values.some((v) => !Number.isFinite(v) || v <= 0))
    throw new Error(`--${name}: positive numbers, comma-separated`);
  return values;
}

/** The fixture's server as a process of its own (its CPU apart from the browser's). */
async function startFloorServer(): Promise<{ base: string; child: ChildProcess }> {
  const script = fileURLToPath(new URL('floor/floor-server.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (data: Buffer) => {
      text += data.toString();
      const found = /LISTENING (\d+)/.exec(text);
      if (found?.[1] !== undefined) resolve(Number(found[1]));
    });
    child.once('exit', (code) => {
      reject(new Error(`the floor server exited with ${String(code)}`));
    });
  });
  return { base: `http://127.0.0.1:${String(port)}`, child };
}

/** Saves `href` (a download the page starts by navigating an iframe, or a link) and checks its size. */
async function save(page: Page, href: string, size: number): Promise<void> {
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 30 * 60_000 }),
    page.evaluate((url) => {
      (globalThis as unknown as { saveFrom: (url: string) => void }).saveFrom(url);
    }, href),
  ]);
  const path = await download.path();
  const { size: saved } = await stat(path);
  if (saved !== size) throw new Error(`${href}: ${String(saved)} bytes saved, expected ${String(size)}`);
  await download.delete();
}

function runStage(page: Page, stage: StageId, size: number): Promise<void> {
  if (stage === 'plain') return save(page, `/bytes?size=${String(size)}`, size);
  if (stage === 'store') {
    return page.evaluate(
      async ({ bytes }) => {
        const run = (
          globalThis as unknown as { runWorker: (k: string, n: number) => Promise<{ received: number }> }
        ).runWorker;
        const { received } = await run('store', bytes);
        if (received !== bytes) throw new Error(`the worker received ${String(received)} bytes`);
      },
      { bytes: size },
    );
  }
  return save(page, `/sw/save?mode=${stage}&size=${String(size)}`, size);
}

async function measureStage(page: Page, stage: StageId, size: number, serverPid: number): Promise<StageRun> {
  const processes = new ChromiumProcesses(serverPid);
  processes.start();
  const start = process.hrtime.bigint();
  const { machine } = await machineDuring(() => runStage(page, stage, size));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const { cpu } = processes.stop();
  return {
    seconds,
    chromiumCpu: Object.values(cpu.chromium).reduce((a, b) => a + b, 0),
    serverCpu: cpu.server,
    ...machine,
  };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/** The table and the read-back sentence of one size. */
function sizeTable(runs: Map<StageId, StageRun[]>, size: number): string[] {
  const plain = runs.get('plain') ?? [];
  const rate = (run: StageRun): number => size / MB / run.seconds;
  const ratios = (stage: StageId): number[] =>
    (runs.get(stage) ?? []).map((run, i) => (plain[i] === undefined ? NaN : plain[i].seconds / run.seconds));
  const list = (values: number[], digits: number): string =>
    `${values.map((v) => v.toFixed(digits)).join(' / ')} (**${median(values).toFixed(digits)}**)`;
  const rows = STAGES.map(({ id, what }) => {
    const stageRuns = runs.get(id) ?? [];
    const perGib = stageRuns.map((run) => (run.chromiumCpu / size) * GIB);
    const busy = stageRuns.map(
      (run) => `${(100 * run.busy).toFixed(0)} % (${(100 * run.kernel).toFixed(0)} %)`,
    );
    return (
      `| ${id} | ${what} | ${list(stageRuns.map(rate), 0)} | ${id === 'plain' ? '1' : list(ratios(id), 2)} | ` +
      `${median(perGib).toFixed(1)} | ${busy.join(' / ')} |`
    );
  });
  // The faster of the two ways to read the file back, round by round.
  const readBack = ratios('readback').map((r, i) => Math.max(r, ratios('slices8')[i] ?? 0));
  return [
    `**${String(Number((size / GIB).toFixed(2)))} GiB per stage:**`,
    '',
    '| stage | what it does | MB/s, each round (**median**) | × plain, each round (**median**) | Chromium CPU-s per GiB (median) | machine busy (kernel), each round |',
    '| --- | --- | ---: | ---: | ---: | --- |',
    ...rows,
    '',
    `A service worker that reads bytes already on disk back and streams them (the faster of the two ways, each`,
    `round), with no network, no cryptography and no file write, saves at **${median(readBack).toFixed(2)} × the plain`,
    `download** here (median; ${readBack.map((r) => r.toFixed(2)).join(' / ')}).`,
    '',
  ];
}

function section(
  results: [number, Map<StageId, StageRun[]>][],
  rounds: number,
  machine: string,
  ranAt: string,
): string {
  const sizes = results.map(([size]) => String(Number((size / GIB).toFixed(2)))).join(',');
  return [
    `## ${SECTION_TITLE}`,
    '',
    'The app\'s encrypted download taken apart (docs/transfers.md, "Two threads"): each stage alone, in one',
    'headless Chromium session on a profile on disk, against an ordinary download of the same bytes from the same',
    'server in the same round (a Node server of its own sending the bytes from memory: `e2e/bench/floor/`, none',
    "of the app's code). A save ends when the browser calls the download complete (size checked). Rounds run",
    'the stages in the order below, after each stage ran once unmeasured (64 MiB); ratios are per round, then the median.',
    "The app's download does the read-back stage for every chunk, after the crypto worker fetched, stored and",
    'verified it (the store stage, on the other core), and decrypts it too: on this machine its speed against the',
    'plain download cannot exceed the read-back ratio below.',
    '',
    `Reproduce: \`npm run bench:floor -w @coffer/e2e\` (options: \`-- --floor-sizes-gib=${sizes} --floor-rounds=${String(rounds)} --no-docs\`; also run by \`npm run bench -w @coffer/e2e\`). Rerunning replaces this section.`,
    '',
    `- Machine: ${machine}. Date: ${ranAt}.`,
    '- CPU: Chromium = utime + stime of every Chromium thread over the stage, per GiB; busy = both cores',
    '  over the stage (`/proc/stat`), in parentheses in the kernel.',
    '',
    ...results.flatMap(([size, runs]) => sizeTable(runs, size)),
  ].join('\n');
}

async function main(): Promise<void> {
  const sizes = option('floor-sizes-gib', '1').map((gib) => Math.round(gib * GIB));
  const rounds = Math.floor(option('floor-rounds', '3')[0] ?? 3);
  const docs = !process.argv.includes('--no-docs');
  const loadAtStart = loadavg()[0]?.toFixed(1) ?? '?';
  const dir = await mkdtemp(join(tmpdir(), 'coffer-floor-bench-'));
  const server = await startFloorServer();
  const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS],
    downloadsPath: join(dir, 'downloads'),
    acceptDownloads: true,
    baseURL: server.base,
  });
  try {
    const page = await context.newPage();
    await page.goto('/');
    await page.evaluate(async () => {
      const scope = globalThis as unknown as {
        swReady: Promise<void>;
        runWorker: (k: string, n: number) => Promise<unknown>;
      };
      await scope.swReady;
      await scope.runWorker('prepare', 0);
    });
    // Once each, unmeasured: a fresh profile's first download and the workers' first start cost more.
    for (const { id } of STAGES) await runStage(page, id, 64 * 1024 * 1024);
    const results: [number, Map<StageId, StageRun[]>][] = [];
    for (const size of sizes) {
      const runs = new Map<StageId, StageRun[]>(STAGES.map(({ id }) => [id, []]));
      for (let round = 1; round <= rounds; round++) {
        for (const { id } of STAGES) {
          const run = await measureStage(page, id, size, server.child.pid ?? -1);
          runs.get(id)?.push(run);
          console.log(
            `${(size / GIB).toFixed(2)} GiB, round ${String(round)} ${id}: ${run.seconds.toFixed(2)} s, ` +
              `${(size / MB / run.seconds).toFixed(0)} MB/s, Chromium ${run.chromiumCpu.toFixed(1)} CPU-s, ` +
              `server ${run.serverCpu.toFixed(1)}, ${(100 * run.busy).toFixed(0)} % busy (${(100 * run.kernel).toFixed(0)} % kernel)`,
          );
        }
      }
      results.push([size, runs]);
    }
    const machine =
      `${String(cpus().length)} cores, ${cpus()[0]?.model ?? 'unknown CPU'}; Node ${process.version}; ` +
      `${execFileSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8' }).trim()}; 1-minute load average ${loadAtStart} at the start, ` +
      `${loadavg()[0]?.toFixed(1) ?? '?'} at the end; commit measured ${measuredCommit()}`;
    const ranAt = `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    const text = section(results, rounds, machine, ranAt);
    console.log(`\n${text}`);
    if (docs) {
      await writeSection(text, SECTION_TITLE);
      console.log('Written to docs/benchmarks.md.');
    }
  } finally {
    await context.close().catch(() => undefined);
    server.child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true, maxRetries: 5 });
  }
}

await main();
