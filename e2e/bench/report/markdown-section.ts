import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CHUNK_MB } from '../bench-units.js';
import { REPO_ROOT } from '../driver/bench-stack.js';
import type { SizeResult } from '../driver/run-size.js';
import {
  cpuTables,
  faultsTable,
  memoryByKind,
  memoryTable,
  roundsTable,
  runNotes,
  throughputTable,
} from './tables.js';
import { verdicts } from './verdicts.js';

const SECTION_TITLE = 'Browser transfers (Chromium)';

/** The options of the run that the section describes. */
export interface SectionOptions {
  sizesGib: number[];
  hashMaxGib: number;
  persistent: boolean;
  rounds: number;
}

/** The "Browser transfers (Chromium)" section of docs/benchmarks.md, from a run's results. */
export function markdownSection(
  results: SizeResult[],
  machine: string,
  ranAt: string,
  options: SectionOptions,
): string {
  const out: string[] = [];
  out.push(`## ${SECTION_TITLE}`, '');
  out.push(
    'Encrypted upload (New Upload screen) and download (My Files, service-worker save path) in',
    'headless Chromium against the built server (fs store, SQLite), beside two limits for the same',
    'bytes in the same run: **plain** = the same file through the same server and route without',
    'encryption (XHR PUT of each 95 MiB slice + 28 padding bytes to the multipart part endpoint, one',
    'part at a time; download = an ordinary browser download of the stored object to disk), run twice,',
    'before the encrypted transfers and after them: its rate is over the mean of the two times (each',
    "run's own rate beside it: how far the machine moved during the run),",
    '**bare AES-GCM** = `crypto.subtle` in the page over the same 95 MiB chunks (1 and 2 in flight),',
    'and the **floor** = the plain transfer and bare AES-GCM over the same chunks (in a worker, one at a',
    'time) started together, timed to the end of the later: what an encrypted transfer costs when each',
    'chunk is one whole-chunk WebCrypto call (a streaming design can do better: "× floor" above 1).',
    options.persistent
      ? "Each size runs in a fresh browser on a profile on disk (`--persistent`, as a user's browser; the other person's and the plain download's contexts are off the record), signed in through the UI: the first encrypted upload"
      : 'Each size runs in a fresh browser context (off the record; signed in through the UI): the first encrypted upload',
    "runs before any download, as on a first visit; the download then registers the app's download",
    'service worker (scope `/__coffer_download__/` only: it must never control the page, and the run',
    'checks that), and the same upload runs again in that state, as for anyone who has downloaded once.',
    `Each size runs ${options.rounds} round${options.rounds === 1 ? '' : 's'} of these transfers (\`--rounds\`), each in a fresh session with`,
    "its own plain twins; the speed and memory targets are judged on the median of the rounds' figures,",
    'the main thread on the longest task of any round (the bare AES-GCM, floors and exchange run in round 1 only,',
    'after its transfers: their gigabytes of fresh memory would leave round 1 a state the others do not start from).',
    '',
    'Reproduce: `npm run build && npm run bench:transfer -w @coffer/e2e` (options: `-- --sizes-gib=1,4',
    '--hash-max-gib=1 --exchange-gib=0 --exchange-runs=1 --rounds=3 --no-docs --trace --profile --task-cpu --persistent`;',
    '`npm run bench -w @coffer/e2e -- <options>` runs it with the Firefox and 10k-list benchmarks, each given every option).',
    'Source: `e2e/bench/browser-transfer-bench.ts`. Rerunning replaces this section.',
    '',
    `- Machine: ${machine}. Date: ${ranAt}. Sizes run: ${options.sizesGib.map((s) => `${s} GiB`).join(', ')}.`,
    "- AES-GCM in: how the engine computed each transfer, as it answers itself: the crypto worker's",
    "  `status` request (uploads) and the download service worker's `coffer-download:status` (downloads):",
    '  **slices** (streaming self-test passed: uploads read 4 MiB and downloads 1 MiB at a time, WebCrypto calls of 256 KiB) or **whole chunks** (the fallback).',
    '- Times: upload from the Upload Files click to the success snackbar; download from the click to',
    '  the browser reporting the file complete on disk (size checked' +
      (results.some((r) => r.hashed) ? `; SHA-256 checked up to ${options.hashMaxGib} GiB).` : ').'),
    '- Memory: sum of PSS (`/proc/<pid>/smaps_rollup`) of every Chromium process (browser, renderers,',
    '  GPU, utilities), sampled every 200 ms; idle = just before the transfer (after a page GC),',
    `  peak = highest sample during it. 1 chunk = ${CHUNK_MB.toFixed(1)} MB.`,
    "- Main thread: the app page's longest Long Task overlapping the transfer, and the largest",
    '  lateness of a 10 ms timer (includes time the OS gave the CPU to other processes); with `--task-cpu`,',
    "  the longest task's time on a core from a trace of the main thread (what the target counts).",
    '- CPU: utime + stime from `/proc/<pid>/task/<tid>/stat` of every Chromium thread and of the server.',
    '- Load = 1-minute load average when the transfer started (2 cores: above 2 means waiting).',
    '- MB = 10^6 bytes of the file.',
    '',
  );
  out.push(...throughputTable(results), ...runNotes(results));
  out.push('', ...roundsTable(results));
  out.push('', ...memoryTable(results));
  out.push('', ...cpuTables(results));
  out.push('', ...faultsTable(results));
  out.push('', ...memoryByKind(results));
  out.push('', '**Targets, as measured in this run:**', '', ...verdicts(results), '');
  return out.join('\n');
}

/** Replaces the section `## <title>` in docs/benchmarks.md (or appends it); `section` starts with that heading. */
export async function writeSection(section: string, title = SECTION_TITLE): Promise<void> {
  const path = join(REPO_ROOT, 'docs/benchmarks.md');
  const current = await readFile(path, 'utf8');
  const lines = current.split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${title}`);
  let next: string;
  if (start === -1) {
    next = `${current.trimEnd()}\n\n${section}`;
  } else {
    const after = lines.findIndex((l, i) => i > start && l.startsWith('## '));
    const before = lines.slice(0, start).join('\n').trimEnd();
    const rest = after === -1 ? '' : `\n\n${lines.slice(after).join('\n').trimEnd()}`;
    next = `${before}\n\n${section.trimEnd()}${rest}`;
  }
  await writeFile(path, `${next.trimEnd()}\n`);
}
