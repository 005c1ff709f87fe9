/**
 * The encrypted download as a user's browser runs it: with no DevTools client attached.
 *
 * Playwright keeps DevTools' network instrumentation on for every worker it sees, and the crypto
 * worker's fetch then costs the page's main thread ~1.5 CPU-seconds per GiB that a user's browser
 * does not spend (docs/benchmarks.md, session 24). This script starts Chromium itself (a profile on
 * disk, as `--persistent`), drives the set-up over `connectOverCDP` (sign-up, one encrypted upload,
 * the plain download, one observed encrypted download), then schedules the Download click in the
 * page, disconnects, and times the download by the file in the profile's download folder, with
 * Chromium's CPU by thread (the benchmark's `ChromiumProcesses`), the server's, and how busy the machine was.
 * Prints its rows; does not write the docs.
 *
 * `npx tsx bench/unobserved-download-bench.ts --size-gib=1 --runs=2` from e2e/, after `npm run build`.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { newPerson, signUpReady } from '../helpers/auth.js';
import { fileCard, forceServiceWorkerSave, writeTestFile, type TestFile } from '../helpers/files.js';
import { CHUNK_OVERHEAD_BYTES, CHUNK_SIZE } from '@coffer/contracts';
import { elapsed, GIB } from './bench-units.js';
import { startServer } from './driver/bench-stack.js';
import { encryptedUpload, downloadFromCard } from './driver/encrypted-transfers.js';
import { fileComplete, launchOwnChromium, withBase, type OwnChromium } from './driver/own-chromium.js';
import { plainDownload } from './driver/plain-transfers.js';
import type { Harness } from './driver/session.js';
import { NAME_SHIM } from './driver/session.js';
import { ChromiumProcesses } from './measure/chromium-processes.js';
import { describeBusy, machineDuring } from './measure/machine-busy.js';

function arg(name: string, fallback: number): number {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found === undefined ? fallback : Number(found.slice(name.length + 3));
}

async function main(): Promise<void> {
  const size = Math.round(arg('size-gib', 1) * GIB);
  const runs = arg('runs', 2);
  const dir = await mkdtemp(join(tmpdir(), 'coffer-unobserved-'));
  const downloads = join(dir, 'downloads');
  await mkdir(downloads);
  const server = await startServer(join(dir, 'data'));
  let own: OwnChromium | undefined;
  try {
    const file: TestFile = await writeTestFile(dir, `unobserved-${size}.bin`, size, 'UNOBSERVED');
    const rows: string[] = [];
    /** Where the unobserved download's CPU went, per run. */
    const notes: string[] = [];
    for (let run = 1; run <= runs; run += 1) {
      own = await launchOwnChromium(dir, downloads);
      const browser: Browser = await chromium.connectOverCDP(own.ws, { isLocal: true });
      const context = browser.contexts()[0];
      if (context === undefined) throw new Error('no default context');
      const page = withBase(await context.newPage(), server.base);
      // As the benchmark's contexts (Playwright's default viewport): a desktop layout.
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.addInitScript(NAME_SHIM);
      await forceServiceWorkerSave(page);
      const person = newPerson('unobserved');
      await signUpReady(page, person);
      const h = { page, browser, base: server.base, dir } as unknown as Harness;
      const upload = await encryptedUpload(h, file);
      await page.getByRole('link', { name: 'My Files' }).first().click();
      await fileCard(page, file.name).waitFor();
      const id = await fileCard(page, file.name).evaluate((card) => card.getAttribute('data-file-id') ?? '');
      // The stored object, as an ordinary browser download: the same bytes and the chunks' IV and tag.
      const stored = size + Math.ceil(size / CHUNK_SIZE) * CHUNK_OVERHEAD_BYTES;
      const { value: plain, machine: plainBusy } = await machineDuring(() => plainDownload(h, id, stored));
      const { value: observed, machine: observedBusy } = await machineDuring(() =>
        downloadFromCard(page, file, false, 'observed download', downloads),
      );
      await rm(join(downloads, file.name), { force: true });

      // The unobserved download: the click scheduled in the page, then Playwright lets go.
      const delayMs = 3000;
      await page.evaluate(
        ({ name, delay }) => {
          setTimeout(() => {
            document.querySelector<HTMLButtonElement>(`button[aria-label="Download ${name}"]`)?.click();
          }, delay);
        },
        { name: file.name, delay: delayMs },
      );
      const scheduledAt = process.hrtime.bigint();
      await browser.close();
      await new Promise((resolve) => setTimeout(resolve, delayMs - 500));
      // Chromium (started here) and the server are this script's children: the benchmark's own reader.
      const processes = new ChromiumProcesses(server.child.pid ?? -1);
      processes.identifyPage();
      processes.start();
      const { machine: busy } = await machineDuring(() =>
        fileComplete(downloads, size, 30 * 60_000, file.name),
      );
      const unobserved = elapsed(scheduledAt) - delayMs / 1000;
      const { cpu: use } = processes.stop();
      const cpu = Object.values(use.chromium).reduce((a, b) => a + b, 0);
      const busiest = Object.entries(use.threads)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([label, seconds]) => `${label} ${seconds.toFixed(1)}`);
      notes.push(
        `run ${run}: the machine (of both cores) during the plain download ${describeBusy(plainBusy)}, the observed ` +
          `${describeBusy(observedBusy)}, the unobserved ${describeBusy(busy)}; the server ${use.server.toFixed(1)} CPU-s; ` +
          `the busiest threads, Chromium's and the server's (CPU-s): ${busiest.join('; ')}; ` +
          `minor page faults (thousands): ${Object.entries(use.faults)
            .filter(([, faults]) => faults >= 500)
            .map(([role, faults]) => `${role} ${(faults / 1000).toFixed(1)}`)
            .join('; ')}.`,
      );
      await own.kill();
      own = undefined;
      const mbps = (seconds: number): string => (size / 1e6 / seconds).toFixed(0);
      rows.push(
        `| ${run} | ${mbps(upload)} | ${mbps(plain)} | ${mbps(observed)} (${(plain / observed).toFixed(2)} ×) | ` +
          `${mbps(unobserved)} (${(plain / unobserved).toFixed(2)} ×) | ${cpu.toFixed(1)} |`,
      );
      console.log(rows.at(-1));
      await rm(join(downloads, file.name), { force: true });
    }
    console.log(
      `\n${(size / GIB).toFixed(2)} GiB, ${new Date().toISOString()}\n\n` +
        '| run | encrypted upload MB/s | plain download MB/s | encrypted download, observed MB/s (× plain) | ' +
        'encrypted download, no DevTools client MB/s (× plain) | Chromium CPU s, unobserved |\n' +
        '| --- | ---: | ---: | ---: | ---: | ---: |\n' +
        rows.join('\n') +
        '\n\n' +
        notes.join('\n'),
    );
  } finally {
    await own?.kill();
    server.child.kill('SIGTERM');
    // Chromium may still be writing its profile as it dies.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await rm(dir, { recursive: true, force: true, maxRetries: 5 }).catch((error: unknown) => {
      console.warn('could not remove', dir, error);
    });
  }
}

await main();
