/**
 * `npm run bench:floor -w @coffer/e2e [-- --floor-sizes-gib=1,4 --floor-rounds=3 --floor-stages=a,b
 * --no-docs]`: the app's encrypted download taken apart (docs/transfers.md, "Two threads"), in one
 * Chromium this script starts and drives over CDP (`floor/floor-browser.ts`): each stage of the
 * download's design alone and the design's two threads written plainly (`floor/floor-fixture.ts`,
 * served by `floor/floor-server.ts` from a file on disk), the app's own plain and encrypted downloads
 * of the same number of bytes (the built server), some stages also with no DevTools client. What each
 * costs the machine and how fast it runs beside the plain downloads. Rewrites its section of
 * docs/benchmarks.md unless `--no-docs` or `--floor-stages`.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { CHROMIUM_PATH } from '../helpers/browser.js';
import { GIB, MB } from './bench-units.js';
import { newPerson, signUpReady } from '../helpers/auth.js';
import { forceServiceWorkerSave } from '../helpers/files.js';
import { measuredCommit, startServer } from './driver/bench-stack.js';
import { fileComplete, withBase } from './driver/own-chromium.js';
import {
  appEncrypted,
  appPlain,
  downloadButton,
  sendBearer,
  storedIn,
  storeInApp,
  type App,
} from './floor/floor-app.js';
import { FloorBrowser, type FloorPages } from './floor/floor-browser.js';
import { save, type Check } from './floor/floor-save.js';
import { transferTimeoutMs } from './driver/measured-run.js';
import { deleteAllFiles, NAME_SHIM } from './driver/session.js';
import { spawnReady, stopped } from './driver/spawn-ready.js';
import { ChromiumProcesses } from './measure/chromium-processes.js';
import { describeBusy, machineDuring, type MachineBusy } from './measure/machine-busy.js';
import { median } from './report/report-rows.js';
import { writeSection } from './report/markdown-section.js';

const SECTION_TITLE = 'Browser download floor (Chromium)';

/** The stages, in the order each round runs them. */
const STAGES = [
  {
    id: 'plain',
    what: 'ordinary download (`Content-Disposition: attachment`): the network service writes it to disk',
  },
  {
    id: 'app-plain',
    what: "the app's plain download, the denominator of `bench:transfer`'s target: the same number of bytes stored through the app (a plain upload, built server, fs store, SQLite) and downloaded from its download route as an ordinary download",
  },
  {
    id: 'app-encrypted',
    what: "the app's encrypted download of the same bytes (an encrypted upload of them): My Files, the service-worker save path, as `bench:transfer` measures it",
  },
  {
    id: 'constant',
    what: 'service worker streams one constant 1 MiB buffer: the service-worker save path alone',
  },
  {
    id: 'readback',
    what: "service worker reads a 95 MiB file of the origin private file system back (one BYOB reader, each 1 MiB slice filled whole, up to four queued in pooled buffers, as the app's service worker reads each verified chunk) and streams it: the save path and the read-back, no network, no cryptography",
  },
  {
    id: 'slices8',
    what: 'the same, the file read as `slice().arrayBuffer()` of 8 MiB (another way for a service worker to read a file)',
  },
  {
    id: 'refetch',
    what: 'service worker fetches the bytes from the server again and copies each piece into the slices: the second pass of a design that fetches each chunk twice (by `Range`) instead of keeping it on disk, without its decryption',
  },
  {
    id: 'pipeline',
    what: "the two threads of the app's download without cryptography: a dedicated worker fetches the bytes and stores each 95 MiB chunk in a file of its own (synchronous access handle; chunk i only once the service worker took chunk i − 2, as the app's crypto worker), posts it to the service worker, which reads each back (as `readback`) into the save",
  },
  {
    id: 'pipeline-crypto',
    what: "the same with the app's cryptographic work: a GMAC per 256 KiB as each chunk is stored, an AES-GCM call per 256 KiB of what the service worker read back (counter mode and GHASH, as the app's decrypt pass), its output copied into the slice",
  },
  {
    id: 'pipeline-slices8',
    what: 'as `pipeline`, the service worker reading each chunk file as `slice().arrayBuffer()` of 8 MiB, each enqueued as it is (as `slices8`)',
  },
  {
    id: 'posted',
    what: 'a dedicated worker reads the 95 MiB file with a synchronous access handle, 1 MiB at a time, and posts each piece (a transferred `ArrayBuffer`, ≤ 8 ahead) to the service worker, which enqueues it into the save: plaintext handed from the worker that can read a file cheaply to the one that saves, no network, no cryptography',
  },
  {
    id: 'plain-unobserved',
    what: "as `plain`, with no DevTools client: the page's timer starts it 3 s after it was scheduled (the driver lets go of the browser in between), timed from that start to the file arriving whole in the download folder",
  },
  {
    id: 'app-encrypted-unobserved',
    what: 'as `app-encrypted`, with no DevTools client (the Download click scheduled in the page, as `bench:unobserved`)',
  },
  {
    id: 'pipeline-unobserved',
    what: 'as `pipeline`, with no DevTools client',
  },
  {
    id: 'pipeline-crypto-unobserved',
    what: 'as `pipeline-crypto`, with no DevTools client',
  },
  {
    id: 'pipeline-slices8-unobserved',
    what: 'as `pipeline-slices8`, with no DevTools client',
  },
  {
    id: 'fetch',
    what: 'dedicated worker fetches the bytes into one reused 1 MiB buffer (BYOB reader) and keeps nothing: the least any design does to bring the bytes into a page, where they can be decrypted',
  },
  {
    id: 'store',
    what: "dedicated worker fetches the bytes and writes them to a 95 MiB file with a synchronous access handle, a GMAC per 256 KiB (the app's crypto worker: fetch, store, verify; nothing saved)",
  },
] as const;
type StageId = (typeof STAGES)[number]['id'];

interface StageRun extends MachineBusy {
  seconds: number;
  chromiumCpu: number;
  serverCpu: number;
}

/** Each stage runs once unmeasured over this many bytes before the first size. */
const WARM_UP_BYTES = 64 * 1024 * 1024;

/** `--<name>=a,b,…`: positive numbers. */
function option(name: string, fallback: string): number[] {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  const values = (found === undefined ? fallback : found.slice(name.length + 3)).split(',').map(Number);
  if (values.some((v) => !Number.isFinite(v) || v <= 0))
    throw new Error(`--${name}: positive numbers, comma-separated`);
  return values;
}

/** `size` bytes on disk (a 1 MiB random block over and over), synced: what the server serves. */
async function writeSource(path: string, size: number): Promise<void> {
  const block = new Uint8Array(1024 * 1024);
  crypto.getRandomValues(block.subarray(0, 65536));
  for (let at = 65536; at < block.length; at *= 2) block.copyWithin(at, 0, at);
  const file = await open(path, 'w');
  try {
    for (let at = 0; at < size; at += block.length)
      await file.write(block, 0, Math.min(block.length, size - at));
  } finally {
    await file.close();
  }
  execFileSync('sync');
}

/** The fixture's server as a process of its own (its CPU apart from the browser's). */
async function startFloorServer(source: string): Promise<{ base: string; child: ChildProcess }> {
  const script = fileURLToPath(new URL('floor/floor-server.ts', import.meta.url));
  const { child, found } = await spawnReady(process.execPath, ['--import', 'tsx', script, source], {
    stream: 'stdout',
    ready: /LISTENING (\d+)/,
    timeoutMs: 60_000,
    what: 'the floor server',
  });
  return { base: `http://127.0.0.1:${found}`, child };
}

/** What the fixture's page offers (floor-fixture.ts). */
interface FloorPage {
  swReady: Promise<void>;
  saveFrom(url: string): void;
  startPipeline(size: number, crypto: boolean, read?: 'byob' | 'slices8' | 'posted'): Promise<void>;
  pipelineDone: Promise<{ received: number }> | null;
  runWorker(kind: string, size: number): Promise<{ received: number }>;
}

/** What an unobserved stage leaves in its page: when its timer started it, or why it could not start. */
interface StartedInPage {
  floorStartedAt?: number;
  floorStartError?: string;
}

/** Saves `href` through the page's hidden iframe. */
function saveHref(page: Page, href: string, size: number): Promise<Check> {
  const start = (): Promise<void> =>
    page.evaluate((url) => {
      (globalThis as unknown as FloorPage).saveFrom(url);
    }, href);
  return save(page, start, href, size);
}

/** How a pipeline stage computes and reads back: its cryptographic work, and the service worker's read method. */
function pipelineOf(stage: StageId): { crypto: boolean; read: 'byob' | 'slices8' | 'posted' } {
  return {
    crypto: stage.startsWith('pipeline-crypto'),
    read: stage.startsWith('pipeline-slices8') ? 'slices8' : stage === 'posted' ? 'posted' : 'byob',
  };
}

/** After a pipeline stage (outside the clock): the dedicated worker fetched every byte. */
async function checkFeed(page: Page, size: number): Promise<void> {
  const received = await page.evaluate(async () => {
    const done = (globalThis as unknown as FloorPage).pipelineDone;
    return done === null ? -1 : (await done).received;
  });
  if (received !== size) throw new Error(`the feed received ${String(received)} bytes`);
}

/** The two-thread stages: the save; its check also asks the dedicated worker what it fetched. */
async function savePipeline(page: Page, size: number, stage: StageId): Promise<Check> {
  const { crypto, read } = pipelineOf(stage);
  const start = (): Promise<void> =>
    page.evaluate(
      ([bytes, withCrypto, method]) =>
        (globalThis as unknown as FloorPage).startPipeline(bytes, withCrypto, method),
      [size, crypto, read] as const,
    );
  const saved = await save(page, start, `${stage} (the service worker's save)`, size);
  return async () => {
    await saved();
    await checkFeed(page, size);
  };
}

async function runStage(pages: FloorPages, app: App, stage: ObservedStage, size: number): Promise<Check> {
  const page = pages.floor;
  if (stage === 'plain') return saveHref(page, `/bytes?size=${String(size)}`, size);
  if (stage === 'app-plain') return appPlain(app, pages, size);
  if (stage === 'app-encrypted') return appEncrypted(app, pages.app, size);
  if (stage.startsWith('pipeline') || stage === 'posted') return savePipeline(page, size, stage);
  if (stage !== 'store' && stage !== 'fetch')
    return saveHref(page, `/sw/save?mode=${stage}&size=${String(size)}`, size);
  const received = await page.evaluate(
    async ([kind, bytes]) => (await (globalThis as unknown as FloorPage).runWorker(kind, bytes)).received,
    [stage, size] as const,
  );
  return () =>
    received === size
      ? Promise.resolve()
      : Promise.reject(new Error(`the worker received ${String(received)} bytes`));
}

type UnobservedStage = Extract<StageId, `${string}-unobserved`>;
type ObservedStage = Exclude<StageId, UnobservedStage>;

const isUnobserved = (stage: StageId): stage is UnobservedStage => stage.endsWith('-unobserved');

/** How long after it was scheduled (before the driver lets go of the browser) an unobserved stage starts. */
const UNOBSERVED_DELAY_MS = 3000;

/** An unobserved stage scheduled in its page: the file it saves, and what checks it once connected again. */
interface Scheduled {
  readonly page: 'floor' | 'app';
  readonly fileName: string;
  readonly check: (pages: FloorPages) => Promise<void>;
}

/**
 * Schedules an unobserved stage in its page: its timer starts the stage {@link UNOBSERVED_DELAY_MS}
 * from now and notes when (`floorStartedAt`), or why it could not (`floorStartError`).
 */
async function scheduleUnobserved(
  pages: FloorPages,
  app: App,
  stage: UnobservedStage,
  size: number,
): Promise<Scheduled> {
  const delay = UNOBSERVED_DELAY_MS;
  if (stage === 'app-encrypted-unobserved') {
    const { name } = storedIn(app, size).file;
    await downloadButton(pages.app, name).waitFor();
    await pages.app.evaluate(
      ([file, ms]) => {
        const scope = globalThis as StartedInPage;
        delete scope.floorStartedAt;
        delete scope.floorStartError;
        setTimeout(() => {
          const button = document.querySelector<HTMLButtonElement>(`button[aria-label="Download ${file}"]`);
          if (button === null) {
            scope.floorStartError = 'no Download button';
            return;
          }
          scope.floorStartedAt = Date.now();
          button.click();
        }, ms);
      },
      [name, delay] as const,
    );
    return {
      page: 'app',
      fileName: name,
      // The app's own end of the download: its Download button comes back once the worker sent its result.
      check: ({ app: page }) => downloadButton(page, name).waitFor({ timeout: 60_000 }),
    };
  }
  const plain = stage === 'plain-unobserved';
  const { crypto, read } = pipelineOf(stage);
  await pages.floor.evaluate(
    ([bytes, isPlain, withCrypto, method, ms]) => {
      const scope = globalThis as unknown as FloorPage & StartedInPage;
      delete scope.floorStartedAt;
      delete scope.floorStartError;
      scope.pipelineDone = null;
      setTimeout(() => {
        scope.floorStartedAt = Date.now();
        if (isPlain) scope.saveFrom(`/bytes?size=${String(bytes)}`);
        else
          scope.startPipeline(bytes, withCrypto, method).catch((error: unknown) => {
            scope.floorStartError = String(error);
          });
      }, ms);
    },
    [size, plain, crypto, read, delay] as const,
  );
  return {
    page: 'floor',
    fileName: plain ? 'plain.bin' : 'pipeline.bin',
    check: plain ? () => Promise.resolve() : ({ floor }) => checkFeed(floor, size),
  };
}

/** What the page noted of an unobserved stage's start (once connected again). */
async function startedAt(page: Page): Promise<number> {
  const { floorStartedAt, floorStartError } = await page.evaluate(() => {
    const scope = globalThis as StartedInPage;
    return { floorStartedAt: scope.floorStartedAt, floorStartError: scope.floorStartError };
  });
  if (floorStartError !== undefined)
    throw new Error(`the unobserved stage did not start: ${floorStartError}`);
  if (floorStartedAt === undefined) throw new Error('the unobserved stage did not start');
  return floorStartedAt;
}

/**
 * An unobserved stage: scheduled, the driver lets go of the browser, the machine and Chromium are
 * sampled from the scheduled start to the file arriving whole in the download folder; timed from the
 * start the page noted to that moment (both wall-clock times of this machine).
 */
async function measureUnobserved(
  browser: FloorBrowser,
  pages: FloorPages,
  app: App,
  stage: UnobservedStage,
  size: number,
  processes: ChromiumProcesses,
): Promise<StageRun> {
  const scheduled = await scheduleUnobserved(pages, app, stage, size);
  const startsAt = Date.now() + UNOBSERVED_DELAY_MS;
  await browser.letGo();
  const spare = startsAt - Date.now();
  if (spare < 100)
    throw new Error(`the driver let go of the browser only ${String(-spare)} ms after the stage started`);
  await new Promise((resolve) => setTimeout(resolve, spare));
  processes.start();
  const { value: endedAt, machine } = await machineDuring(async () => {
    await fileComplete(app.downloads, size, transferTimeoutMs(size), scheduled.fileName);
    return Date.now();
  });
  const cpu = processes.stop();
  await browser.connect();
  const connected = browser.pages();
  const seconds = (endedAt - (await startedAt(connected[scheduled.page]))) / 1000;
  await scheduled.check(connected);
  await rm(join(app.downloads, scheduled.fileName), { force: true });
  return stageRun(seconds, cpu, machine);
}

function stageRun(
  seconds: number,
  { cpu }: ReturnType<ChromiumProcesses['stop']>,
  machine: MachineBusy,
): StageRun {
  return {
    seconds,
    chromiumCpu: Object.values(cpu.chromium).reduce((a, b) => a + b, 0),
    serverCpu: cpu.server,
    ...machine,
  };
}

/**
 * One stage, timed from its start to the browser calling the download complete (or the worker done),
 * its preparation and checks outside the clock; an unobserved one as {@link measureUnobserved} says.
 */
async function measureStage(
  browser: FloorBrowser,
  app: App,
  stage: StageId,
  size: number,
  floorServerPid: number,
): Promise<StageRun> {
  // The page the stage runs in is the browser's front tab, as a user's would be (a background tab's
  // timers are throttled, and Playwright cannot click in it).
  const pages = browser.pages();
  if (stage === 'app-plain') await sendBearer(pages);
  await pages[
    stage.startsWith('app-encrypted') ? 'app' : stage === 'app-plain' ? 'save' : 'floor'
  ].bringToFront();
  // No stage pays for the kernel writing back an earlier one's files.
  execFileSync('sync');
  const processes = new ChromiumProcesses(stage.startsWith('app-') ? (app.child.pid ?? -1) : floorServerPid);
  if (isUnobserved(stage)) return measureUnobserved(browser, pages, app, stage, size, processes);
  processes.start();
  const start = process.hrtime.bigint();
  const { value: check, machine } = await machineDuring(() => runStage(pages, app, stage, size));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = processes.stop();
  await check();
  return stageRun(seconds, cpu, machine);
}

/** One size's runs: each stage's, and the plain download's again after each round's other stages. */
interface SizeRuns {
  size: number;
  stages: Map<StageId, StageRun[]>;
  plainAfter: StageRun[];
}

/** The table and the floor sentences of one size. */
function sizeTable({ size, stages, plainAfter }: SizeRuns): string[] {
  const plainBefore = stages.get('plain') ?? [];
  // Each round's plain time: the mean of its two plain downloads, so drift within the round counts half.
  const plainSeconds = plainBefore.map(
    (run, i) => (run.seconds + (plainAfter[i]?.seconds ?? run.seconds)) / 2,
  );
  const appSeconds = (stages.get('app-plain') ?? []).map((run) => run.seconds);
  const rate = (seconds: number): number => size / MB / seconds;
  const ratios = (stage: StageId, against: number[]): number[] =>
    (stages.get(stage) ?? []).map((run, i) => (against[i] ?? Number.NaN) / run.seconds);
  const list = (values: number[], digits: number): string =>
    `${values.map((v) => v.toFixed(digits)).join(' / ')} (**${median(values).toFixed(digits)}**)`;
  const row = (id: string, what: string, runs: StageRun[], ofPlain: string, ofApp: string): string => {
    const perGib = runs.map((run) => (run.chromiumCpu / size) * GIB);
    const busy = runs.map((run) => `${(100 * run.busy).toFixed(0)} % (${(100 * run.kernel).toFixed(0)} %)`);
    return `| ${id} | ${what} | ${list(
      runs.map((run) => rate(run.seconds)),
      0,
    )} | ${ofPlain} | ${ofApp} | ${median(perGib).toFixed(1)} | ${busy.join(' / ')} |`;
  };
  const plainUnobserved = (stages.get('plain-unobserved') ?? []).map((run) => run.seconds);
  const rows = STAGES.filter(({ id }) => stages.has(id)).map(({ id, what }) =>
    row(
      id,
      what,
      stages.get(id) ?? [],
      id === 'plain' || id === 'plain-unobserved'
        ? '1'
        : list(ratios(id, isUnobserved(id) ? plainUnobserved : plainSeconds), 2),
      id === 'app-plain' ? '1' : list(ratios(id, appSeconds), 2),
    ),
  );
  rows.splice(1, 0, row('plain, again', "the same, after the round's other stages", plainAfter, '1', '—'));
  const floorOf = (stage: StageId): string =>
    `${list(
      (stages.get(stage) ?? []).map((run) => rate(run.seconds)),
      0,
    )} MB/s, ${list(ratios(stage, plainSeconds), 2)} × the floor server's plain download and ` +
    `${list(ratios(stage, appSeconds), 2)} × the app's plain download`;
  const unobservedOf = (stage: StageId): string =>
    `${list(
      (stages.get(stage) ?? []).map((run) => rate(run.seconds)),
      0,
    )} MB/s, ${list(ratios(stage, plainUnobserved), 2)} × the floor server's unobserved plain download and ` +
    `${list(ratios(stage, appSeconds), 2)} × the app's plain download`;
  // A stage's sentence only where it ran (`--floor-stages` runs a few).
  const bullet = (stage: StageId, what: string, figures: (stage: StageId) => string): string[] =>
    stages.has(stage) ? [`- ${what}: ${figures(stage)}.`] : [];
  return [
    `**${String(Number((size / GIB).toFixed(2)))} GiB per stage:**`,
    '',
    "| stage | what it does | MB/s, each round (**median**) | × the floor server's plain download, each round (**median**): against the mean of the round's first and last, or for an unobserved stage against the round's unobserved one | × the app's plain download, each round (**median**) | Chromium CPU-s per GiB (median) | machine busy (kernel), each round |",
    '| --- | --- | ---: | ---: | ---: | ---: | --- |',
    ...rows,
    '',
    ...bullet('app-encrypted', "The app's encrypted download (`app-encrypted`)", floorOf),
    ...bullet('pipeline', "The two threads of the app's download without cryptography (`pipeline`)", floorOf),
    ...bullet('pipeline-crypto', 'With the cryptographic work (`pipeline-crypto`)', floorOf),
    ...bullet(
      'pipeline-slices8',
      'Without cryptography, read back as 8 MiB `slice().arrayBuffer()` (`pipeline-slices8`)',
      floorOf,
    ),
    ...bullet('readback', 'The read-back alone (`readback`: no network, no cryptography)', floorOf),
    ...bullet(
      'posted',
      'Handed over by a dedicated worker instead (`posted`: no network, no cryptography)',
      floorOf,
    ),
    '',
    ...arithmetic(size, stages),
    '',
    "With no DevTools client (each against the floor server's unobserved plain download of the same round, and the app's plain download, observed: it needs the bearer header only a connected driver can add):",
    '',
    ...bullet('app-encrypted-unobserved', "The app's encrypted download", unobservedOf),
    ...bullet('pipeline-unobserved', 'The two threads without cryptography', unobservedOf),
    ...bullet('pipeline-crypto-unobserved', 'With the cryptographic work', unobservedOf),
    ...bullet('pipeline-slices8-unobserved', 'Without cryptography, read back as 8 MiB slices', unobservedOf),
    '',
  ];
}

/**
 * Whether the machine's cores can carry the download target at all, from the run's own medians per GiB,
 * against the CPU a GiB may take at 0.6 × the app's plain download: first the least any streaming
 * download spends (bring the bytes into a page: `fetch`; hand them to the browser's download from a
 * service worker: `constant`; the server's sending: `app-encrypted`'s server), then the least a
 * download spends that releases no unverified plaintext with chunks larger than its memory: it reads
 * each chunk twice (its tag first, then the release), so `fetch`, the cheapest measured second read
 * with the save (`posted`, `readback`, `slices8`, `refetch`), the cryptographic work
 * (`pipeline-crypto` less `pipeline`) and the server.
 */
function arithmetic(size: number, stages: Map<StageId, StageRun[]>): string[] {
  const perGib = (stage: StageId, of: (run: StageRun) => number): number =>
    median((stages.get(stage) ?? []).map((run) => (of(run) / size) * GIB));
  const chromium = (stage: StageId): number => perGib(stage, (run) => run.chromiumCpu);
  const appPlain = median((stages.get('app-plain') ?? []).map((run) => size / MB / run.seconds));
  const fetchCpu = chromium('fetch');
  const saveCpu = chromium('constant');
  const serverCpu = perGib('app-encrypted', (run) => run.serverCpu);
  const secondReads = (['posted', 'readback', 'slices8', 'refetch'] as const)
    .map((stage) => ({ stage, cpu: chromium(stage) }))
    .filter(({ cpu }) => Number.isFinite(cpu))
    .sort((x, y) => x.cpu - y.cpu);
  const second = secondReads[0];
  const cryptoCpu = Math.max(0, chromium('pipeline-crypto') - chromium('pipeline'));
  const cores = cpus().length;
  const target = 0.6 * appPlain;
  const budget = (cores * GIB) / MB / target;
  const ceilingOf = (cpu: number): number => (cores * GIB) / MB / cpu;
  const streaming = fetchCpu + saveCpu + serverCpu;
  const figures = [streaming, budget, cryptoCpu, second?.cpu ?? Number.NaN];
  if (!figures.every(Number.isFinite))
    return [
      '(The arithmetic needs `fetch`, `constant`, `posted` or another second read, `pipeline`, `pipeline-crypto`, `app-encrypted` and `app-plain`.)',
    ];
  const verified = fetchCpu + (second?.cpu ?? 0) + cryptoCpu + serverCpu;
  const ceiling = (cpu: number): string =>
    `at most ${ceilingOf(cpu).toFixed(0)} MB/s, ${(ceilingOf(cpu) / appPlain).toFixed(2)} × the app's plain download`;
  return [
    `**The arithmetic (medians of this size).** At 0.6 × the app's plain download (${appPlain.toFixed(0)} MB/s) a GiB may take ${(GIB / MB / target).toFixed(2)} s: ${budget.toFixed(1)} CPU-seconds of ${String(cores)} cores, if every one is busy and nothing else runs. The least any streaming download spends per GiB, with no storage, no second read and no cryptography: bringing the bytes into a page (\`fetch\`) ${fetchCpu.toFixed(1)} CPU-s in Chromium, handing them to the browser's download from a service worker (\`constant\`) ${saveCpu.toFixed(1)}, the server sending them ${serverCpu.toFixed(1)}: ${streaming.toFixed(1)} CPU-s, so ${ceiling(streaming)}. A download that releases no unverified plaintext, with chunks (95 MiB) larger than its memory (64 MiB), reads each chunk twice, its tag first: the fetch, the cheapest second read measured here with the save (\`${second?.stage ?? '?'}\`) ${(second?.cpu ?? Number.NaN).toFixed(1)}, the cryptographic work (\`pipeline-crypto\` less \`pipeline\`) ${cryptoCpu.toFixed(1)} and the server: ${verified.toFixed(1)} CPU-s, so ${ceiling(verified)}. ${
      verified > budget
        ? 'The target is out of reach on this machine for any design that keeps the format, the memory target and the rule that no unverified plaintext is released.'
        : 'The cores alone do not rule the target out.'
    }`,
  ];
}

function section(results: SizeRuns[], rounds: number, machine: string, ranAt: string): string {
  const sizes = results.map(({ size }) => String(Number((size / GIB).toFixed(2)))).join(',');
  return [
    `## ${SECTION_TITLE}`,
    '',
    'The app\'s encrypted download taken apart (docs/transfers.md, "Two threads"), and beside it the same',
    "design's data movement written plainly: each stage alone, then the two threads together without and",
    'with the cryptographic work (and without it, read back another way), in one headless Chromium (a profile',
    'on disk, a desktop window) that the benchmark starts itself and drives over CDP, against ordinary',
    'downloads of the same number of bytes: from a Node server of its own (`e2e/bench/floor/`, reading a file',
    "on disk in 1 MiB pieces as the app's fs store serves a stored object; none of the app's code runs there)",
    "and from the app's own server (the built server, fs store, SQLite: one test file stored by a plain upload",
    "and by an encrypted one, the denominator and the numerator of `bench:transfer`'s download target, measured",
    "here in the same session; a size's files are deleted after its rounds). The floor server's plain download",
    'runs first and last in each round, the other stages between, each after `sync` and after each stage ran',
    'once unmeasured (64 MiB); a save is timed to the browser calling the download complete, its preparation',
    "(the app's bearer header) and checks (size, the worker's byte count, the app's Download button back)",
    "outside the clock. Stages marked unobserved run with no DevTools client, as in a user's browser: the",
    "page's timer starts them 3 s after they were scheduled (the driver disconnects in between), timed from",
    'that start, as the page noted it, to the file arriving whole in the download folder (polled every 20 ms),',
    "CPU and busy sampled over the same span (Playwright's instrumentation of a worker's fetches costs CPU a",
    "user's browser does not spend); the app's plain download cannot run so (it needs the bearer header the",
    'connected driver adds). The machine has 24 GB of memory: every file read here is in the page cache.',
    '',
    `Reproduce: \`npm run bench:floor -w @coffer/e2e\` (options: \`-- --floor-sizes-gib=${sizes} --floor-rounds=${String(rounds)} --no-docs\`; also run by \`npm run bench -w @coffer/e2e\`). Rerunning replaces this section.`,
    '',
    `- Machine: ${machine}. Date: ${ranAt}.`,
    '- CPU: Chromium = utime + stime of every Chromium thread over the stage, per GiB; busy = both cores',
    '  over the stage (`/proc/stat`), in parentheses in the kernel.',
    '',
    ...results.flatMap(sizeTable),
  ].join('\n');
}

async function main(): Promise<void> {
  const sizes = option('floor-sizes-gib', '1,4').map((gib) => Math.round(gib * GIB));
  const rounds = option('floor-rounds', '3')[0] ?? 3;
  if (!Number.isInteger(rounds)) throw new Error('--floor-rounds: a whole number');
  // `--floor-stages=a,b`: only these (and both plain downloads, the denominators), never into the docs.
  const only = process.argv
    .find((a) => a.startsWith('--floor-stages='))
    ?.slice('--floor-stages='.length)
    .split(',');
  const unknown = only?.filter((id) => !STAGES.some((stage) => stage.id === id)) ?? [];
  if (unknown.length > 0) throw new Error(`--floor-stages: no stage ${unknown.join(', ')}`);
  const chosen = STAGES.filter(
    ({ id }) => only === undefined || id === 'plain' || id === 'app-plain' || only.includes(id),
  );
  const docs = !process.argv.includes('--no-docs') && only === undefined;
  const loadAtStart = loadavg()[0]?.toFixed(1) ?? '?';
  const dir = await mkdtemp(join(tmpdir(), 'coffer-floor-bench-'));
  let server: { base: string; child: ChildProcess } | null = null;
  let appServer: { base: string; child: ChildProcess } | null = null;
  let browser: FloorBrowser | null = null;
  try {
    const source = join(dir, 'stored.bin');
    await writeSource(source, Math.max(...sizes, WARM_UP_BYTES));
    server = await startFloorServer(source);
    const serverPid = server.child.pid ?? -1;
    appServer = await startServer(join(dir, 'app-data'));
    const downloads = join(dir, 'downloads');
    await mkdir(downloads);
    browser = await FloorBrowser.start(dir, downloads, server.base, appServer.base);
    const page = await browser.newPage();
    await page.goto(`${server.base}/`);
    await page.evaluate(async () => {
      const scope = globalThis as unknown as FloorPage;
      await scope.swReady;
      await scope.runWorker('prepare', 0);
    });
    // The sign-up helper goes by paths of the app.
    const appPage = withBase(await browser.newPage(), appServer.base);
    await appPage.addInitScript(NAME_SHIM);
    await forceServiceWorkerSave(appPage);
    await signUpReady(appPage, newPerson('floor'));
    await (await browser.newPage()).goto(`${appServer.base}/api/health`);
    const app: App = { ...appServer, stored: new Map(), downloads };
    await storeInApp(app, appPage, dir, WARM_UP_BYTES);
    // Once each, unmeasured: a fresh profile's first download and the workers' first start cost more.
    for (const { id } of chosen) await measureStage(browser, app, id, WARM_UP_BYTES, serverPid);
    await deleteAllFiles(browser.pages().app);
    app.stored.delete(WARM_UP_BYTES);
    const results: SizeRuns[] = [];
    const log = (size: number, round: number, id: string, run: StageRun): void => {
      console.log(
        `${(size / GIB).toFixed(2)} GiB, round ${String(round)} ${id}: ${run.seconds.toFixed(2)} s, ` +
          `${(size / MB / run.seconds).toFixed(0)} MB/s, Chromium ${run.chromiumCpu.toFixed(1)} CPU-s, ` +
          `server ${run.serverCpu.toFixed(1)}, ${describeBusy(run)}`,
      );
    };
    for (const size of sizes) {
      const stages = new Map<StageId, StageRun[]>(chosen.map(({ id }) => [id, []]));
      const plainAfter: StageRun[] = [];
      await storeInApp(app, browser.pages().app, dir, size);
      for (let round = 1; round <= rounds; round++) {
        for (const { id } of chosen) {
          const run = await measureStage(browser, app, id, size, serverPid);
          stages.get(id)?.push(run);
          log(size, round, id, run);
        }
        const again = await measureStage(browser, app, 'plain', size, serverPid);
        plainAfter.push(again);
        log(size, round, 'plain again', again);
      }
      results.push({ size, stages, plainAfter });
      // The size's two stored files go (the next size's stages read theirs, not these, from the disk).
      await deleteAllFiles(browser.pages().app);
      app.stored.delete(size);
    }
    const chromiumVersion = execFileSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8' }).trim();
    const machine =
      `${String(cpus().length)} cores, ${cpus()[0]?.model ?? 'unknown CPU'}; Node ${process.version}; ` +
      `${chromiumVersion}; 1-minute load average ${loadAtStart} at the start, ` +
      `${loadavg()[0]?.toFixed(1) ?? '?'} at the end; commit measured ${measuredCommit()}`;
    const ranAt = `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    const text = section(results, rounds, machine, ranAt);
    console.log(`\n${text}`);
    if (docs) {
      await writeSection(text, SECTION_TITLE);
      console.log('Written to docs/benchmarks.md.');
    }
  } finally {
    await browser?.letGo().catch(() => undefined);
    await browser?.kill();
    await stopped(server?.child);
    await stopped(appServer?.child);
    await rm(dir, { recursive: true, force: true, maxRetries: 5 }).catch((error: unknown) => {
      console.warn('could not remove', dir, error);
    });
  }
}

await main();
