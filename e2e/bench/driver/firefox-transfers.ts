// Browser globals for the functions that run in the page (`page.evaluate`).
/// <reference lib="dom" />
import { rm, stat } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHUNK_OVERHEAD_BYTES, CHUNK_SIZE, encryptedSizeFor } from '@coffer/contracts';
import type { Browser, Page } from 'puppeteer-core';
import { createConfirmedAccount } from '../../helpers/accounts.js';
import type { TestPerson } from '../../helpers/auth.js';
import { sha256OfFile, writeTestFile, type TestFile } from '../../helpers/files.js';
import { downloadOwn, setUpEncryption, signIn } from '../../firefox/coffer-flows.js';
import { emptyFolder, entries } from '../../firefox/download-folder.js';
import { openWindow, type FirefoxWindow } from '../../firefox/firefox-browser.js';
import { byRole, clickRole, navigate, waitForText } from '../../firefox/page-actions.js';
import { GIB, elapsed } from '../bench-units.js';
import {
  computedAs,
  cryptoWorkerStatusInPage,
  serviceWorkerChunksInPage,
  serviceWorkerStatusInPage,
  type EngineStatus,
} from '../measure/engine-status.js';
import type { MemorySnapshot } from '../measure/chromium-processes.js';
import type { FirefoxProcesses } from '../measure/firefox-processes.js';
import { installBlockRecorder } from '../measure/main-thread-blocking.js';
import { cryptoWorkerPath } from './bench-stack.js';
import { transferTimeoutMs } from './measured-run.js';
import {
  accessSessionInPage,
  addBenchFileInput,
  plainUploadInPage,
  PLAIN_INPUT_ID,
} from './plain-transfers.js';
import { NAME_SHIM } from './session.js';

/**
 * The browser transfer benchmark's Firefox driver (issue 32): Debian's firefox-esr, driven by
 * puppeteer-core over WebDriver BiDi as the Firefox journey is (`e2e/firefox`; Playwright drives only
 * its own patched Firefox). For one person signed in through the app, per size: the plain upload
 * and download of the file's bytes (the same route and in-page code as the Chromium benchmark's
 * plain figures; the download a browser download with the bearer header), then the encrypted upload
 * (New Upload screen) and download (My Files; Firefox has no save picker, so the app's download
 * service worker), each with the memory of the firefox-esr process tree above idle.
 */

/** One transfer in Firefox: its time, memory, main-thread timer lateness and CPU. */
export interface FirefoxMeasured {
  seconds: number;
  idle: MemorySnapshot;
  peak: MemorySnapshot;
  /** The largest lateness of the page's 10 ms timer (Firefox has no Long Tasks API); null: not the app's page. */
  lateTickMs: number | null;
  cpuSeconds: number;
  /** Of those, seconds by Firefox thread name. */
  threads: Record<string, number>;
  load: number;
}

export interface FirefoxSizeResult {
  gib: number;
  size: number;
  hashed: boolean;
  plainUp: FirefoxMeasured;
  plainDown: FirefoxMeasured;
  encUp: FirefoxMeasured;
  encDown: FirefoxMeasured;
  engine: EngineStatus;
}

export interface FirefoxHarness {
  browser: Browser;
  base: string;
  dir: string;
  memory: FirefoxProcesses;
  trace: boolean;
  window: FirefoxWindow;
}

/** A new window signed in as a new person (account made over HTTP; sign-in and key set-up in Firefox). */
export async function openFirefoxSession(
  browser: Browser,
  base: string,
  dir: string,
  person: TestPerson,
): Promise<FirefoxWindow> {
  const window = await openWindow(browser, dir, 'bench');
  // Ceilings, not waits: at load 25–30 on 2 cores, opening My Files' key before Upload Files is enabled took over a minute.
  window.page.setDefaultTimeout(300_000);
  await window.page.evaluateOnNewDocument(NAME_SHIM.content);
  await window.page.evaluateOnNewDocument(installBlockRecorder);
  await createConfirmedAccount(person, base);
  await signIn(window.page, base, person);
  await setUpEncryption(window.page, person.masterKey);
  return window;
}

/** Idle: 1.5 s to settle (no garbage collection can be asked of Firefox here), then the median of three samples. */
async function idleMemory(memory: FirefoxProcesses): Promise<MemorySnapshot> {
  await new Promise((r) => setTimeout(r, 1500));
  const samples: MemorySnapshot[] = [];
  for (let i = 0; i < 3; i++) {
    samples.push(memory.snapshot());
    await new Promise((r) => setTimeout(r, 200));
  }
  return samples.sort((a, b) => a.total - b.total)[1] ?? memory.snapshot();
}

/** The page's largest timer lateness since `from` (`performance.now()`). */
function lateTicksSince(from: number): number {
  const recorder = (window as unknown as { __benchBlocks?: { lateTicks: [number, number][] } }).__benchBlocks;
  return Math.max(0, ...(recorder?.lateTicks ?? []).filter(([at]) => at >= from).map(([, late]) => late));
}

async function measure(
  h: FirefoxHarness,
  run: () => Promise<number>,
  appPage: boolean,
): Promise<FirefoxMeasured> {
  const { memory } = h;
  const { page } = h.window;
  const idle = await idleMemory(memory);
  const load = loadavg()[0] ?? 0;
  const from = appPage ? await page.evaluate(() => performance.now()) : 0;
  memory.start(h.trace);
  let sampled: ReturnType<FirefoxProcesses['stop']>;
  let seconds: number;
  try {
    seconds = await run();
  } finally {
    sampled = memory.stop();
  }
  const lateTickMs = appPage ? await page.evaluate(lateTicksSince, from) : null;
  return {
    seconds,
    idle,
    peak: sampled.peak,
    lateTickMs,
    cpuSeconds: sampled.cpuSeconds,
    threads: sampled.threads,
    load,
  };
}

/**
 * Waits (polling every 100 ms, a state, not a time) until `dir/name` (any name when null) is `size`
 * bytes with no `.part` left.
 */
async function savedWhole(dir: string, name: string | null, size: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = await entries(dir);
    const whole = now.some((e) => (name === null || e.name === name) && e.size === size);
    if (whole && !now.some((e) => e.name.endsWith('.part'))) return;
    if (Date.now() > deadline) throw new Error(`${name} not saved whole in ${dir}: ${JSON.stringify(now)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function plainUpload(page: Page, file: TestFile): Promise<{ fileId: string; ms: number }> {
  await page.evaluate(addBenchFileInput, PLAIN_INPUT_ID);
  const input = await page.waitForSelector(`#${PLAIN_INPUT_ID}`);
  if (input === null) throw new Error('no bench file input');
  await (input as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(file.path);
  try {
    return await page.evaluate(plainUploadInPage, {
      chunkSize: CHUNK_SIZE,
      overhead: CHUNK_OVERHEAD_BYTES,
      inputId: PLAIN_INPUT_ID,
    });
  } finally {
    await page.evaluate((id) => document.getElementById(id)?.remove(), PLAIN_INPUT_ID);
  }
}

/**
 * The stored object as an ordinary Firefox download to disk, in a user context of its own. Firefox
 * asks a local relay (`bearerRelay`), which asks the server's download route with the bearer header.
 * Not WebDriver BiDi's `network.setExtraHeaders`: once a Firefox has been asked for that, its parent
 * process watches every request of every window for good (measured on a scratch page, 256 MiB: a
 * plain download 303 -> 110 MB/s and 5.3 -> 13.0 CPU-s per GiB, the header removed and its window
 * closed or not), and every later figure of the run would include it. Timed to the file saved whole.
 */
async function plainDownload(h: FirefoxHarness, fileId: string, expected: number): Promise<number> {
  const { token } = await h.window.page.evaluate(accessSessionInPage);
  const relay = await bearerRelay(`${h.base}/api/users/files/${encodeURIComponent(fileId)}/download`, token);
  try {
    const other = await openWindow(h.browser, h.dir, 'plain');
    try {
      await other.page.goto(`${h.base}/api/health`);
      const start = process.hrtime.bigint();
      await other.page.evaluate((target) => {
        location.href = target;
      }, relay.url);
      // The server names the file; this context downloads nothing else.
      await savedWhole(other.downloads, null, expected, transferTimeoutMs(expected));
      return elapsed(start);
    } finally {
      await other.context.close();
      await rm(other.downloads, { recursive: true, force: true });
    }
  } finally {
    // Also when the window could not be opened: a relay left running would keep the run alive.
    relay.close();
  }
}

/**
 * The relay's program: a server on 127.0.0.1 that answers a GET with what `TARGET` answers to a GET
 * with the bearer `TOKEN` (status, headers, the body streamed), and prints its port.
 */
const RELAY = `
const { createServer, get } = require('node:http');
const server = createServer((request, response) => {
  request.resume();
  get(process.env.TARGET, { headers: { Authorization: 'Bearer ' + process.env.TOKEN } }, (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(response);
  }).on('error', () => response.destroy());
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

/**
 * Starts the relay in a process of its own (not on this one's event loop, which samples memory
 * meanwhile) and answers its URL and how to stop it.
 */
async function bearerRelay(target: string, token: string): Promise<{ url: string; close: () => void }> {
  const child = spawn(process.execPath, ['-e', RELAY], {
    env: { ...process.env, TARGET: target, TOKEN: token },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      reject(new Error(`the download relay exited with code ${String(code)}`));
    });
    child.stdout.once('data', (line: Buffer) => {
      resolve(Number(line.toString().trim()));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/download`,
    close: () => child.kill('SIGTERM'),
  };
}

/** New Upload screen: timed from the Upload Files click to the success text. */
async function encryptedUpload(page: Page, file: TestFile): Promise<number> {
  await navigate(page, 'New Upload', /\/new$/);
  await waitForText(page, 'Drop files here or click to upload');
  const input = await page.waitForSelector('input[type="file"]:not([webkitdirectory])');
  if (input === null) throw new Error('no file input on /new');
  await (input as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(file.path);
  await byRole(page, 'listitem', file.name).wait();
  const start = process.hrtime.bigint();
  await clickRole(page, 'button', 'Upload Files');
  await waitForText(page, 'File uploaded successfully!', transferTimeoutMs(file.size));
  return elapsed(start);
}

/** My Files → Download (the service worker's save path): timed from the click to the file saved whole. */
async function encryptedDownload(h: FirefoxHarness, file: TestFile, hash: boolean): Promise<number> {
  const { page, downloads } = h.window;
  await emptyFolder(downloads);
  await navigate(page, 'My Files', /\/myfiles$/);
  await byRole(page, 'article', file.name).wait();
  const start = process.hrtime.bigint();
  await downloadOwn(page, file);
  await savedWhole(downloads, file.name, file.size, transferTimeoutMs(file.size));
  const seconds = elapsed(start);
  const { size } = await stat(`${downloads}/${file.name}`);
  if (size !== file.size) throw new Error(`encrypted download: ${size} bytes, expected ${file.size}`);
  if (hash && (await sha256OfFile(`${downloads}/${file.name}`)) !== file.sha256)
    throw new Error('encrypted download: wrong bytes');
  await emptyFolder(downloads);
  return seconds;
}

/** Runs `step`; when it fails, saves the page's screenshot to the temporary folder and says where. */
async function shotOnFailure<T>(page: Page, what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    const path = join(tmpdir(), `coffer-firefox-bench-${what}-${Date.now()}.png`);
    await page.screenshot({ path }).catch(() => undefined);
    console.log(`  ${what} failed; the page: ${path}`);
    throw error;
  }
}

async function deleteAll(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const key = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:')) ?? '';
    const token =
      (JSON.parse(localStorage.getItem(key) ?? '{}') as { access_token?: string }).access_token ?? '';
    const headers = { Authorization: `Bearer ${token}` };
    const listed = (await (await fetch('/api/users/files', { headers })).json()) as {
      files: { fileId: string }[];
    };
    for (const { fileId } of listed.files)
      await fetch(`/api/users/files/${encodeURIComponent(fileId)}`, { method: 'DELETE', headers });
  });
}

/** One size: plain upload and download, then the encrypted upload and download, all measured. */
export async function runFirefoxSize(
  h: FirefoxHarness,
  gib: number,
  hashMaxGib: number,
): Promise<FirefoxSizeResult> {
  const size = Math.round(gib * GIB);
  const log = (what: string): void => {
    console.log(`[Firefox ${gib} GiB] ${what} (load ${loadavg()[0]?.toFixed(1) ?? '?'})`);
  };
  const { page } = h.window;
  log('writing the test file');
  const file = await writeTestFile(h.dir, `ff-bench-${gib}gib.bin`, size, `COFFER-FF-BENCH-${Date.now()}`);
  try {
    const engine: EngineStatus = {
      cryptoWorker: await page.evaluate(cryptoWorkerStatusInPage, cryptoWorkerPath()),
      serviceWorker: null,
    };
    log(`the crypto worker seals in ${computedAs(engine.cryptoWorker)}`);

    log('plain upload');
    let plainId = '';
    const plainUp = await measure(
      h,
      async () => {
        const result = await plainUpload(page, file);
        plainId = result.fileId;
        return result.ms / 1000;
      },
      true,
    );
    log(`  ${plainUp.seconds.toFixed(1)} s`);
    log('plain download');
    const plainDown = await measure(h, () => plainDownload(h, plainId, encryptedSizeFor(size)), false);
    log(`  ${plainDown.seconds.toFixed(1)} s`);
    await deleteAll(page);

    log('encrypted upload');
    const encUp = await measure(
      h,
      () => shotOnFailure(page, 'encrypted-upload', () => encryptedUpload(page, file)),
      true,
    );
    log(`  ${encUp.seconds.toFixed(1)} s`);
    log('encrypted download');
    const hashed = gib <= hashMaxGib;
    const encDown = await measure(
      h,
      () => shotOnFailure(page, 'encrypted-download', () => encryptedDownload(h, file, hashed)),
      true,
    );
    log(`  ${encDown.seconds.toFixed(1)} s`);
    engine.serviceWorker = await page.evaluate(serviceWorkerStatusInPage);
    log(`the download service worker opens in ${computedAs(engine.serviceWorker)}`);
    log(
      `its downloads keep chunks in ${(await page.evaluate(serviceWorkerChunksInPage)) ?? 'an unknown store'}`,
    );
    await deleteAll(page);
    return { gib, size, hashed, plainUp, plainDown, encUp, encDown, engine };
  } finally {
    await rm(file.path, { force: true });
  }
}
