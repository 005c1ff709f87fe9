/**
 * The browser transfer benchmark in Firefox (issue 32): `driver/firefox-transfers.ts` per size, then a
 * table of each transfer's rate beside the plain transfer of the same bytes in the same run, and the
 * memory of the firefox-esr process tree above idle. Prints the table (paste it into
 * docs/benchmarks.md, "Browser transfers (Firefox)").
 *
 *   npm run build && npm run bench:firefox -w @coffer/e2e [-- --firefox-sizes-gib=1,4 --hash-max-gib=1 --trace]
 *
 * (`--sizes-gib` is the Chromium benchmark's: `npm run bench` gives both every option.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { newPerson } from '../helpers/auth.js';
import { launchFirefox } from '../firefox/firefox-browser.js';
import { MIB, f0 } from './bench-units.js';
import { measuredCommit, startServer } from './driver/bench-stack.js';
import {
  openFirefoxSession,
  runFirefoxSize,
  type FirefoxHarness,
  type FirefoxMeasured,
  type FirefoxSizeResult,
} from './driver/firefox-transfers.js';
import { computedAs } from './measure/engine-status.js';
import { FirefoxProcesses } from './measure/firefox-processes.js';

function parseArgs(argv: string[]): { sizesGib: number[]; hashMaxGib: number; trace: boolean } {
  const get = (name: string): string | undefined =>
    argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const sizesGib = (get('firefox-sizes-gib') ?? '1').split(',').map(Number);
  if (sizesGib.some((s) => !Number.isFinite(s) || s <= 0))
    throw new Error('--firefox-sizes-gib: positive numbers');
  return { sizesGib, hashMaxGib: Number(get('hash-max-gib') ?? 1), trace: argv.includes('--trace') };
}

function rows(r: FirefoxSizeResult): string[] {
  const rate = (m: FirefoxMeasured): number => r.size / 1e6 / m.seconds;
  const line = (
    what: string,
    computed: string,
    m: FirefoxMeasured,
    plain: FirefoxMeasured | null,
  ): string => {
    const above = (m.peak.total - m.idle.total) / MIB;
    const anonymousAbove = ((m.peak.anonymous ?? 0) - (m.idle.anonymous ?? 0)) / MIB;
    const ratio = plain === null ? '—' : (rate(m) / rate(plain)).toFixed(2);
    return (
      `| ${r.gib} GiB | ${what} | ${computed} | ${f0(rate(m))} | ${ratio} | ${f0(m.idle.total / MIB)} | ` +
      `${f0(m.peak.total / MIB)} | ${f0(above)} | ${f0(anonymousAbove)} | ${m.lateTickMs === null ? '—' : f0(m.lateTickMs)} | ` +
      `${m.cpuSeconds.toFixed(1)} | ${m.load.toFixed(1)} |`
    );
  };
  return [
    line('encrypted upload', computedAs(r.engine.cryptoWorker), r.encUp, r.plainUp),
    line('encrypted download', computedAs(r.engine.serviceWorker), r.encDown, r.plainDown),
    line('plain upload', '—', r.plainUp, null),
    line('plain download', '—', r.plainDown, null),
  ];
}

function peaksByKind(r: FirefoxSizeResult): string[] {
  return (
    [
      ['encrypted upload', r.encUp],
      ['encrypted download', r.encDown],
    ] as const
  ).map(([what, m]) => {
    const kinds = Object.entries(m.peak.byKind)
      .sort((x, y) => y[1] - x[1])
      .map(([kind, bytes]) => `${kind} ${f0(bytes / MIB)} (${f0((m.idle.byKind[kind] ?? 0) / MIB)})`);
    return `- ${r.gib} GiB ${what}: ${kinds.join(', ')}.`;
  });
}

/** The six threads that took most CPU in each transfer. */
function busiestThreads(r: FirefoxSizeResult): string[] {
  return (
    [
      ['encrypted upload', r.encUp],
      ['encrypted download', r.encDown],
      ['plain upload', r.plainUp],
      ['plain download', r.plainDown],
    ] as const
  ).map(([what, m]) => {
    const top = Object.entries(m.threads)
      .sort((x, y) => y[1] - x[1])
      .slice(0, 6)
      .map(([name, seconds]) => `${name} ${seconds.toFixed(1)}`);
    return `- ${r.gib} GiB ${what}: ${top.join('; ')}.`;
  });
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const dir = await mkdtemp(join(tmpdir(), 'coffer-firefox-bench-'));
  const loadAtStart = loadavg()[0]?.toFixed(1) ?? '?';
  const server = await startServer(join(dir, 'data')).catch(async (error: unknown) => {
    await rm(dir, { recursive: true, force: true });
    throw error;
  });
  const { base, child } = server;
  const browser = await launchFirefox();
  try {
    console.log(`Firefox ${await browser.version()}: signing in at ${base} (load ${loadAtStart})`);
    const window = await openFirefoxSession(browser, base, dir, newPerson('ffbench'));
    const h: FirefoxHarness = {
      browser,
      base,
      dir,
      memory: new FirefoxProcesses(browser.process()?.pid),
      trace: args.trace,
      window,
    };
    const results: FirefoxSizeResult[] = [];
    for (const gib of args.sizesGib) results.push(await runFirefoxSize(h, gib, args.hashMaxGib));

    const machine =
      `${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}; Node ${process.version}; ` +
      `${await browser.version()} (puppeteer-core, WebDriver BiDi, headless); 1-minute load average ` +
      `${loadAtStart} at the start, ${loadavg()[0]?.toFixed(1) ?? '?'} at the end; commit measured ${measuredCommit()}`;
    const out = [
      `- Machine: ${machine}. Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
      '',
      '| size | transfer | AES-GCM in | MB/s | × plain | idle MiB | peak MiB | peak − idle, MiB | anonymous peak − idle, MiB | timer lateness, ms | Firefox CPU s | load |',
      '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...results.flatMap(rows),
      '',
      'Memory by Firefox process kind at the highest sample (MiB; idle before):',
      '',
      ...results.flatMap(peaksByKind),
      '',
      'CPU seconds by Firefox thread, the six busiest of each transfer (threads of one name summed):',
      '',
      ...results.flatMap(busiestThreads),
      '',
      results.every((r) => r.hashed)
        ? 'Every encrypted download SHA-256 identical to the original.'
        : 'Downloads checked by size (SHA-256 up to --hash-max-gib).',
    ];
    console.log(`\n${out.join('\n')}`);
  } finally {
    await browser.close().catch(() => undefined);
    child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
