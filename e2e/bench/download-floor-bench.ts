/**
 * `npm run bench:floor -w @coffer/e2e [-- --floor-sizes-gib=1,4 --floor-rounds=3 --no-docs]`: the
 * app's encrypted download taken apart (docs/transfers.md, "Two threads"): each of its stages alone,
 * in one browser session (a profile on disk), against an ordinary download of the same bytes from the
 * same server (a file on disk read in 1 MiB pieces, as the app's fs store serves a stored object),
 * measured before and after each round's stages. What each stage costs the machine and how fast it
 * runs beside the plain download; it does not run the app (see `floor/floor-fixture.ts`).
 * Rewrites its section of docs/benchmarks.md unless `--no-docs`.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { link, mkdir, mkdtemp, open, rm, stat } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { CHROMIUM_PATH } from '../helpers/browser.js';
import { GIB, MB } from './bench-units.js';
import { CHUNK_OVERHEAD_BYTES, CHUNK_SIZE } from '@coffer/contracts';
import { newPerson, signUpReady } from '../helpers/auth.js';
import { fileCard, forceServiceWorkerSave, writeTestFile, type TestFile } from '../helpers/files.js';
import { measuredCommit, startServer } from './driver/bench-stack.js';
import { downloadFromCard, encryptedUpload } from './driver/encrypted-transfers.js';
import { fileComplete, withBase } from './driver/own-chromium.js';
import { FloorBrowser, type FloorPages } from './floor/floor-browser.js';
import { accessTokenInPage, plainUpload } from './driver/plain-transfers.js';
import { NAME_SHIM, type Harness } from './driver/session.js';
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
    what: "the two threads of the app's download without cryptography: a dedicated worker fetches the bytes and stores each 95 MiB chunk in a file of its own (synchronous access handle), posts it to the service worker once chunk i − 2 was taken, and the service worker reads each back (as `readback`) into the save",
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
    id: 'plain-unobserved',
    what: 'as `plain`, with no DevTools client: the page starts it 3 s after the driver let go of the browser, timed to the file arriving whole in the download folder',
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
  const child = spawn(process.execPath, ['--import', 'tsx', script, source], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the floor server did not start within 60 s'));
    }, 60_000);
    child.once('error', reject);
    let text = '';
    child.stdout.on('data', (data: Buffer) => {
      text += data.toString();
      const found = /LISTENING (\d+)/.exec(text);
      if (found?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(Number(found[1]));
      }
    });
    child.once('exit', (code) => {
      reject(new Error(`the floor server exited with ${String(code)}`));
    });
  });
  return { base: `http://127.0.0.1:${String(port)}`, child };
}

/** Answers, once the stage's work is done, what checks and cleans up after it (outside the clock). */
type Check = () => Promise<void>;

/** What the fixture's page offers (floor-fixture.ts). */
interface FloorPage {
  swReady: Promise<void>;
  saveFrom(url: string): void;
  startPipeline(size: number, crypto: boolean, read?: 'byob' | 'slices8'): Promise<void>;
  pipelineDone: Promise<{ received: number }>;
  runWorker(kind: string, size: number): Promise<{ received: number }>;
}

/** Saves what `start` begins in the page (a download it starts by navigating a hidden iframe); the check compares its size. */
async function save(page: Page, start: () => Promise<void>, what: string, size: number): Promise<Check> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30 * 60_000 }), start()]);
  const path = await download.path();
  return async () => {
    const { size: saved } = await stat(path);
    await download.delete();
    if (saved !== size) throw new Error(`${what}: ${String(saved)} bytes saved, expected ${String(size)}`);
  };
}

/** Saves `href` through the page's hidden iframe. */
function saveHref(page: Page, href: string, size: number): Promise<Check> {
  const start = (): Promise<void> =>
    page.evaluate((url) => {
      (globalThis as unknown as FloorPage).saveFrom(url);
    }, href);
  return save(page, start, href, size);
}

/** The two-thread stages: the save, then the dedicated worker's count of what it fetched. */
/** How a pipeline stage computes and reads back: its cryptographic work, and the service worker's read method. */
function pipelineOf(stage: StageId): { crypto: boolean; read: 'byob' | 'slices8' } {
  return {
    crypto: stage.startsWith('pipeline-crypto'),
    read: stage.startsWith('pipeline-slices8') ? 'slices8' : 'byob',
  };
}

async function savePipeline(page: Page, size: number, stage: StageId): Promise<Check> {
  const { crypto, read } = pipelineOf(stage);
  const start = (): Promise<void> =>
    page.evaluate(
      ([bytes, withCrypto, method]) =>
        (globalThis as unknown as FloorPage).startPipeline(bytes, withCrypto, method),
      [size, crypto, read] as const,
    );
  const saved = await save(page, start, `pipeline (crypto: ${String(crypto)})`, size);
  const received = await page.evaluate(
    async () => (await (globalThis as unknown as FloorPage).pipelineDone).received,
  );
  return async () => {
    await saved();
    if (received !== size) throw new Error(`the feed received ${String(received)} bytes`);
  };
}

/** The app's server, a person signed in there, and the file stored for each size (its plain download). */
interface App {
  readonly base: string;
  readonly child: ChildProcess;
  /** Per size: the plain upload's stored file id, and the file uploaded encrypted. */
  readonly stored: Map<number, { readonly plainId: string; readonly file: TestFile }>;
  readonly downloads: string;
}

/** Stores `size` bytes through the app twice: a plain upload (no encryption) and an encrypted one. */
async function storeInApp(app: App, page: Page, dir: string, size: number): Promise<void> {
  await page.bringToFront();
  const plain = await writeTestFile(dir, `floor-${String(size)}.bin`, size, 'FLOOR');
  // The same bytes under a name the plain upload's ("plain-…") does not contain: the card is found by name.
  const file: TestFile = {
    ...plain,
    name: `sealed-${String(size)}.bin`,
    path: join(dir, `sealed-${String(size)}.bin`),
  };
  await link(plain.path, file.path);
  try {
    const { fileId } = await plainUpload({ page }, plain);
    await encryptedUpload({ page } as unknown as Harness, file);
    await page.getByRole('link', { name: 'My Files' }).first().click();
    await fileCard(page, file.name).waitFor();
    app.stored.set(size, { plainId: fileId, file });
  } finally {
    await rm(plain.path, { force: true });
    await rm(file.path, { force: true });
  }
}

/** The app's encrypted download of what was stored for `size`, from My Files. */
async function appEncrypted(app: App, page: Page, size: number): Promise<Check> {
  // Sized and removed by the driver once the browser called it complete.
  await downloadFromCard(page, storedIn(app, size).file, false, 'app-encrypted', app.downloads);
  return () => Promise.resolve();
}

/** The app's plain download of the file stored for `size`, with a fresh bearer header. */
async function appPlain(app: App, pages: FloorPages, size: number): Promise<Check> {
  const token = await pages.app.evaluate(accessTokenInPage);
  await pages.save.setExtraHTTPHeaders({ Authorization: `Bearer ${token}` });
  const href = `/api/users/files/${encodeURIComponent(storedIn(app, size).plainId)}/download`;
  const start = (): Promise<void> =>
    pages.save.evaluate((url) => {
      location.href = url;
    }, href);
  // What the plain upload stored: each 95 MiB slice with the 28 bytes an encrypted chunk adds.
  const stored = size + Math.ceil(size / CHUNK_SIZE) * CHUNK_OVERHEAD_BYTES;
  return save(pages.save, start, href, stored);
}

function storedIn(app: App, size: number): { readonly plainId: string; readonly file: TestFile } {
  const stored = app.stored.get(size);
  if (stored === undefined) throw new Error(`nothing of ${String(size)} bytes is stored in the app`);
  return stored;
}

async function runStage(pages: FloorPages, app: App, stage: ObservedStage, size: number): Promise<Check> {
  const page = pages.floor;
  if (stage === 'plain') return saveHref(page, `/bytes?size=${String(size)}`, size);
  if (stage === 'app-plain') return appPlain(app, pages, size);
  if (stage === 'app-encrypted') return appEncrypted(app, pages.app, size);
  if (stage.startsWith('pipeline')) return savePipeline(page, size, stage);
  if (stage !== 'store') return saveHref(page, `/sw/save?mode=${stage}&size=${String(size)}`, size);
  const received = await page.evaluate(
    async (bytes) => (await (globalThis as unknown as FloorPage).runWorker('store', bytes)).received,
    size,
  );
  return () =>
    received === size
      ? Promise.resolve()
      : Promise.reject(new Error(`the worker received ${String(received)} bytes`));
}

type UnobservedStage = Extract<StageId, `${string}-unobserved`>;
type ObservedStage = Exclude<StageId, UnobservedStage>;

const isUnobserved = (stage: StageId): stage is UnobservedStage => stage.endsWith('-unobserved');

/** How long after the driver let go of the browser the page starts an unobserved stage. */
const UNOBSERVED_DELAY_MS = 3000;

/**
 * Schedules an unobserved stage in its page (it starts {@link UNOBSERVED_DELAY_MS} from now) and
 * answers what checks it once the browser is connected again, if anything.
 */
async function scheduleUnobserved(
  pages: FloorPages,
  app: App,
  stage: UnobservedStage,
  size: number,
): Promise<(pages: FloorPages) => Promise<void>> {
  const delay = UNOBSERVED_DELAY_MS;
  if (stage === 'app-encrypted-unobserved') {
    const { name } = storedIn(app, size).file;
    await pages.app.evaluate(
      ([file, ms]) => {
        setTimeout(() => {
          document.querySelector<HTMLButtonElement>(`button[aria-label="Download ${file}"]`)?.click();
        }, ms);
      },
      [name, delay] as const,
    );
    return async ({ app: page }) => {
      // The app's own end of the download: its Download button comes back once the worker sent its result.
      await fileCard(page, name)
        .getByRole('button', { name: `Download ${name}` })
        .waitFor();
    };
  }
  if (stage === 'plain-unobserved') {
    await pages.floor.evaluate(
      ([bytes, ms]) => {
        setTimeout(() => {
          (globalThis as unknown as FloorPage).saveFrom(`/bytes?size=${String(bytes)}`);
        }, ms);
      },
      [size, delay] as const,
    );
    return () => Promise.resolve();
  }
  await pages.floor.evaluate(
    ([bytes, crypto, read, ms]) => {
      setTimeout(() => {
        void (globalThis as unknown as FloorPage).startPipeline(bytes, crypto, read);
      }, ms);
    },
    [size, pipelineOf(stage).crypto, pipelineOf(stage).read, delay] as const,
  );
  return async ({ floor }) => {
    const received = await floor.evaluate(
      async () => (await (globalThis as unknown as FloorPage).pipelineDone).received,
    );
    if (received !== size) throw new Error(`the feed received ${String(received)} bytes`);
  };
}

/**
 * One stage, timed from its start to the browser calling the download complete (or the worker done);
 * an unobserved one from its scheduled start to its file whole in the download folder, while the
 * driver is not connected.
 */
async function measureStage(
  browser: FloorBrowser,
  app: App,
  stage: StageId,
  size: number,
  floorPid: number,
): Promise<StageRun> {
  // The page the stage runs in is the browser's front tab, as a user's would be (a background tab's
  // timers are throttled, and Playwright cannot click in it).
  const pages = browser.pages();
  await pages[
    stage.startsWith('app-encrypted') ? 'app' : stage === 'app-plain' ? 'save' : 'floor'
  ].bringToFront();
  // No stage pays for the kernel writing back an earlier one's files.
  execFileSync('sync');
  const processes = new ChromiumProcesses(stage.startsWith('app-') ? (app.child.pid ?? -1) : floorPid);
  if (isUnobserved(stage)) {
    const check = await scheduleUnobserved(pages, app, stage, size);
    const scheduledAt = process.hrtime.bigint();
    await browser.letGo();
    await new Promise((resolve) => setTimeout(resolve, UNOBSERVED_DELAY_MS - 500));
    processes.start();
    const { value: name, machine } = await machineDuring(() =>
      fileComplete(app.downloads, size, 30 * 60_000),
    );
    const seconds = Number(process.hrtime.bigint() - scheduledAt) / 1e9 - UNOBSERVED_DELAY_MS / 1000;
    const { cpu } = processes.stop();
    await browser.connect();
    await check(browser.pages());
    await rm(join(app.downloads, name), { force: true });
    return {
      seconds,
      chromiumCpu: Object.values(cpu.chromium).reduce((a, b) => a + b, 0),
      serverCpu: cpu.server,
      ...machine,
    };
  }
  processes.start();
  const start = process.hrtime.bigint();
  const { value: check, machine } = await machineDuring(() => runStage(pages, app, stage, size));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const { cpu } = processes.stop();
  await check();
  return {
    seconds,
    chromiumCpu: Object.values(cpu.chromium).reduce((a, b) => a + b, 0),
    serverCpu: cpu.server,
    ...machine,
  };
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
  const rows = STAGES.filter(({ id }) => stages.has(id)).map(({ id, what }) =>
    row(
      id,
      what,
      stages.get(id) ?? [],
      id === 'plain' ? '1 (with the row below)' : list(ratios(id, plainSeconds), 2),
      id === 'app-plain' ? '1' : list(ratios(id, appSeconds), 2),
    ),
  );
  rows.splice(1, 0, row('plain, again', "the same, after the round's other stages", plainAfter, '1', '—'));
  const floorOf = (stage: StageId): string =>
    `${list(
      (stages.get(stage) ?? []).map((run) => rate(run.seconds)),
      0,
    )} MB/s, ${list(ratios(stage, plainSeconds), 2)} × the plain download from the same server and ` +
    `${list(ratios(stage, appSeconds), 2)} × the app's plain download`;
  const plainUnobserved = (stages.get('plain-unobserved') ?? []).map((run) => run.seconds);
  const unobservedOf = (stage: StageId): string =>
    `${list(
      (stages.get(stage) ?? []).map((run) => rate(run.seconds)),
      0,
    )} MB/s, ${list(ratios(stage, plainUnobserved), 2)} × the unobserved plain download and ` +
    `${list(ratios(stage, appSeconds), 2)} × the app's plain download`;
  return [
    `**${String(Number((size / GIB).toFixed(2)))} GiB per stage:**`,
    '',
    "| stage | what it does | MB/s, each round (**median**) | × plain, each round against the mean of its two plain downloads (**median**) | × the app's plain download, each round (**median**) | Chromium CPU-s per GiB (median) | machine busy (kernel), each round |",
    '| --- | --- | ---: | ---: | ---: | ---: | --- |',
    ...rows,
    '',
    `- The app's encrypted download (\`app-encrypted\`): ${floorOf('app-encrypted')}.`,
    `- The two threads of the app's download without cryptography (\`pipeline\`): ${floorOf('pipeline')}.`,
    `- With the cryptographic work (\`pipeline-crypto\`): ${floorOf('pipeline-crypto')}.`,
    `- Without cryptography, read back as 8 MiB \`slice().arrayBuffer()\` (\`pipeline-slices8\`): ${floorOf('pipeline-slices8')}.`,
    `- The read-back alone (\`readback\`: no network, no cryptography): ${floorOf('readback')}.`,
    '',
    "With no DevTools client (each against the unobserved plain download from the same server in the same round, and the app's plain download, which needs the bearer header only a connected driver can add):",
    '',
    `- The app's encrypted download: ${unobservedOf('app-encrypted-unobserved')}.`,
    `- The two threads without cryptography: ${unobservedOf('pipeline-unobserved')}.`,
    `- With the cryptographic work: ${unobservedOf('pipeline-crypto-unobserved')}.`,
    `- Without cryptography, read back as 8 MiB slices: ${unobservedOf('pipeline-slices8-unobserved')}.`,
    '',
  ];
}

function section(results: SizeRuns[], rounds: number, machine: string, ranAt: string): string {
  const sizes = results.map(({ size }) => String(Number((size / GIB).toFixed(2)))).join(',');
  return [
    `## ${SECTION_TITLE}`,
    '',
    'The app\'s encrypted download taken apart (docs/transfers.md, "Two threads"), and beside it the same',
    "design's data movement written as plainly as it can be: each stage alone, then the two threads together",
    'without and with the cryptographic work, in one headless Chromium (a profile on disk, a desktop window)',
    'that the benchmark starts itself and drives over CDP, against ordinary downloads of the same bytes: from',
    "a Node server of its own (`e2e/bench/floor/`, reading a file on disk in 1 MiB pieces as the app's fs store",
    "serves a stored object; none of the app's code runs there) and from the app's own server (the built server,",
    'fs store, SQLite: the same bytes stored by a plain upload and by an encrypted one, the denominator and the',
    "numerator of `bench:transfer`'s download target, measured here in the same session). The floor server's",
    'plain download runs first and last in each round, the other stages between, each after `sync` and after',
    'each stage ran once unmeasured (64 MiB); a save ends when the browser calls the download complete (its',
    "size checked after the clock). Stages marked unobserved run with no DevTools client, as in a user's",
    'browser: the page starts them 3 s after the driver disconnected, timed to the file arriving whole in the',
    "download folder (Playwright's instrumentation of a worker's fetches costs CPU a user's browser does not",
    "spend); the app's plain download cannot (it needs the bearer header the connected driver adds).",
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
    browser?.kill();
    server?.child.kill('SIGTERM');
    appServer?.child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true, maxRetries: 5 });
  }
}

await main();
