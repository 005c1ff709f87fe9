import { CHUNK_MB, MB, MIB, f0 } from '../bench-units.js';
import type { Measured } from '../driver/measured-run.js';
import type { SizeResult } from '../driver/run-size.js';
import { computedAs } from '../measure/engine-status.js';
import {
  allRows,
  encryptedRows,
  inRound,
  labelled,
  mb,
  median,
  plainRunsOf,
  rate,
  roundRatios,
  roundsOf,
  throughputOf,
} from './report-rows.js';

/** Each encrypted transfer's rate beside the plain transfer's, bare AES-GCM's and the floor's. */
export function throughputTable(results: SizeResult[]): string[] {
  const out = [
    '| size | encrypted transfer | AES-GCM in | encrypted MB/s | plain MB/s (before / after) | bare AES-GCM MB/s (1 / 2 in flight) | floor MB/s | floor / plain | encrypted / plain | encrypted / floor | load | encrypted / plain, each round (**median**) |',
    '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results) {
    for (const row of encryptedRows(r)) {
      const { name, m } = row;
      const t = throughputOf(r, row);
      const failed = m.failure !== null;
      const encCell = failed ? `**failed** after ${m.seconds.toFixed(0)} s` : f0(t.encRate);
      out.push(
        `| ${r.gib} GiB | ${name} | ${computedAs(row.streaming)} | ${encCell} | ${f0(t.plainRate)} (${f0(t.plainRates[0])} / ${f0(t.plainRates[1])}) | ${f0(t.bare1Rate)} / ${f0(t.bare2Rate)} | ${f0(t.floorRate)} | ` +
          `${t.floorOfPlain.toFixed(2)} | ${failed ? '—' : t.ofPlain.toFixed(2)} | ${failed ? '—' : t.ofFloor.toFixed(2)} | ${m.load.toFixed(1)} | ${roundsCell(roundRatios(r, row))} |`,
      );
    }
  }
  return out;
}

/** Each round's ratio (— where it failed), then the median of those that ran. */
function roundsCell(ratios: (number | null)[]): string {
  const each = ratios.map((x) => (x === null ? '—' : x.toFixed(2))).join(' / ');
  const ran = ratios.filter((x): x is number => x !== null);
  return ran.length === 0 ? each : `${each} (**${median(ran).toFixed(2)}**)`;
}

/**
 * Every round's rates (MB/s) and the encrypted transfers' memory above idle: the first round is the
 * one the other tables show; the later ones ran each in a fresh session after it.
 */
export function roundsTable(results: SizeResult[]): string[] {
  const out = [
    'Every round (`--rounds`; each in a fresh browser session; round 1 is the one the tables above and below show). ' +
      'MB/s, and MiB above idle for the encrypted transfers:',
    '',
    '| size | round | plain upload (before / after) | encrypted upload, first | encrypted upload, after a download | plain download (before / after) | encrypted download | MiB above idle: first upload / download / upload after | controlled before the uploads |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const r of results) {
    roundsOf(r).forEach((round, i) => {
      const speed = (m: Measured | null): string =>
        m === null ? '—' : m.failure === null ? f0(rate(r.size, m.seconds)) : '**failed**';
      const pair = ([a, b]: [Measured, Measured]): string => `${speed(a)} / ${speed(b)}`;
      const above = (m: Measured | null): string =>
        m === null ? '—' : f0((m.peak.total - m.idle.total) / MIB);
      const encrypted = (['upload-first', 'download', 'upload-controlled'] as const).map((k) =>
        inRound(round, k),
      );
      out.push(
        `| ${r.gib} GiB | ${i + 1} | ${pair(plainRunsOf(round, 'upload'))} | ${speed(round.encUp)} | ${speed(round.encUpControlled)} | ` +
          `${pair(plainRunsOf(round, 'download'))} | ${speed(round.encDown)} | ${encrypted.map(above).join(' / ')} | ` +
          `${round.controlledBefore.map((c) => (c ? 'yes' : 'no')).join(' / ')} |`,
      );
    });
  }
  return out;
}

/** The failed transfers, whether a service worker controlled the page, and the two-person exchanges. */
export function runNotes(results: SizeResult[]): string[] {
  const out: string[] = [];
  const failures = results.flatMap((r) =>
    roundsOf(r).flatMap((round, i) =>
      encryptedRows(r).flatMap(({ name, key }) => {
        const failure = inRound(round, key)?.failure ?? null;
        return failure === null ? [] : [`${r.gib} GiB ${name} (round ${i + 1}): “${failure}”`];
      }),
    ),
  );
  if (failures.length > 0) out.push('', `Failed transfers (the app's message): ${failures.join('; ')}.`);
  out.push(
    '',
    `Page controlled by a service worker before the first / second upload (round 1; every round's in the rounds table): ${results
      .map(
        (r) =>
          `${r.gib} GiB ${r.controlledBefore[0] ? 'yes' : 'no'} / ${r.controlledBefore[1] ? 'yes' : 'no'}`,
      )
      .join(', ')}.`,
  );
  for (const r of results) {
    if (r.exchanges.length === 0) continue;
    const times = r.exchanges.map((e) =>
      e.failure === null
        ? `${e.seconds.toFixed(1)} s (${f0(rate(r.size, e.seconds))} MB/s)`
        : `**failed** (${e.failure})`,
    );
    out.push(
      '',
      `Two people: the owner shared the ${r.gib} GiB file with a second person (contact added and file ` +
        `shared through the Contacts screen), who downloaded it from Shared With Me in their own browser ` +
        `context in ${times.join(', ')}` +
        (r.exchanges.length > 1 ? ` (${r.exchanges.length} runs, each with a new person); ` : '; ') +
        (r.exchanges.some((e) => e.failure !== null)
          ? 'not every download completed'
          : r.exchanges.every((e) => e.hashed)
            ? 'SHA-256 identical to the original'
            : 'size identical to the original') +
        `; their download service worker opened the chunks in ${r.exchanges.map((e) => computedAs(e.streaming)).join(' / ')}.`,
    );
  }
  return out;
}

/** Memory growth and main-thread blocking of every transfer but the floors. */
export function memoryTable(results: SizeResult[]): string[] {
  const out = [
    '| size | transfer | idle MB | peak MB | peak − idle, MB (chunks) | longest long task, ms | longest timer lateness, ms |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results) {
    // Not the floor's runs: the bare cipher's loop leaves WebCrypto's per-call buffers to the
    // collector (tens of chunks at 4 GiB), which says nothing of what a transfer needs.
    for (const [name, m] of allRows(r).filter(([, m]) => m !== r.floorUp && m !== r.floorDown)) {
      const growth = m.peak.total - m.idle.total;
      const blocking = m.blocking;
      out.push(
        `| ${r.gib} GiB | ${name}${m.failure === null ? '' : ' (failed)'} | ${mb(m.idle.total)} | ${mb(m.peak.total)} | ` +
          `${mb(growth)} (${(growth / MB / CHUNK_MB).toFixed(2)}) | ` +
          `${blocking === null ? '—' : f0(blocking.longestTaskMs)} | ${blocking === null ? '—' : f0(blocking.longestLateTickMs)} |`,
      );
    }
  }
  return out;
}

/** CPU seconds by process kind, then the busiest threads. */
export function cpuTables(results: SizeResult[]): string[] {
  const out = [
    'CPU time during each transfer (seconds of CPU, all threads; 2 cores give at most 2 per second of wall time):',
    '',
    '| size | transfer | wall s | Chromium CPU s | of which renderers / browser / network | server CPU s |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results) {
    for (const [name, m] of allRows(r)) {
      const kinds = m.cpu.chromium;
      const total = Object.values(kinds).reduce((x, y) => x + y, 0);
      const network = Object.entries(kinds)
        .filter(([kind]) => kind.startsWith('utility:network'))
        .reduce((x, [, v]) => x + v, 0);
      out.push(
        `| ${r.gib} GiB | ${name} | ${m.seconds.toFixed(1)} | ${total.toFixed(1)} | ` +
          `${(kinds.renderer ?? 0).toFixed(1)} / ${(kinds.browser ?? 0).toFixed(1)} / ${network.toFixed(1)} | ${m.cpu.server.toFixed(1)} |`,
      );
    }
  }
  out.push(
    '',
    'CPU seconds by thread, the six busiest ("renderer (page)" is the process of the app page and its crypto worker; "server: …" the server\'s threads):',
    '',
  );
  for (const r of results) {
    for (const [name, m] of allRows(r)) {
      const top = Object.entries(m.cpu.threads)
        .sort((x, y) => y[1] - x[1])
        .slice(0, 6)
        .map(([label, seconds]) => `${label} ${seconds.toFixed(1)}`);
      out.push(`- ${r.gib} GiB ${name}: ${top.join('; ')}.`);
    }
  }
  return out;
}

/** Minor page faults by transfer and process role: memory newly touched. */
export function faultsTable(results: SizeResult[]): string[] {
  const out = [
    'Minor page faults during each transfer (`minflt` of `/proc/<pid>/stat`, summed over the Chromium ' +
      'processes of each role, and the server\'s; one fault = one 4 KiB page touched for the first time, so "MB touched" = ' +
      'faults × 4 KiB: memory newly allocated and written, e.g. fresh chunk buffers):',
    '',
    '| size | transfer | minor faults, thousands | MB touched | by role (thousands) |',
    '| --- | --- | ---: | ---: | --- |',
  ];
  for (const r of results) {
    for (const [name, m] of allRows(r)) {
      const faults = Object.values(m.cpu.faults).reduce((x, y) => x + y, 0);
      const roles = Object.entries(m.cpu.faults)
        .filter(([, n]) => n >= 500)
        .sort((x, y) => y[1] - x[1])
        .map(([role, n]) => `${role} ${(n / 1000).toFixed(1)}`)
        .join('; ');
      out.push(
        `| ${r.gib} GiB | ${name} | ${(faults / 1000).toFixed(1)} | ${f0((faults * 4096) / 1e6)} | ${roles} |`,
      );
    }
  }
  return out;
}

/** Each encrypted transfer's peak by process kind, then WebCrypto's own memory per call. */
export function memoryByKind(results: SizeResult[]): string[] {
  const out = [
    'Memory by process kind (MB) at the highest sample of each encrypted transfer (idle before):',
    '',
  ];
  for (const r of results) {
    for (const row of encryptedRows(r)) {
      const { m } = row;
      const kinds = Object.entries(m.peak.byKind)
        .sort((x, y) => y[1] - x[1])
        .map(([kind, bytes]) => `${kind} ${mb(bytes)} (${mb(m.idle.byKind[kind] ?? 0)})`)
        .join(', ');
      out.push(`- ${r.gib} GiB ${labelled(row)}: ${kinds}.`);
    }
  }
  out.push(
    '',
    "WebCrypto's own memory per call over one whole chunk (in a worker of the page; the page process's " +
      '`RssAnon` sampled about every millisecond against just before the call; median of three): ' +
      results
        .map(
          (r) =>
            `${r.gib} GiB session: decrypt peak +${r.footprint.decryptPeak.toFixed(2)} chunks ` +
            `(+${r.footprint.decryptAfter.toFixed(2)} once settled, its output alive), ` +
            `encrypt peak +${r.footprint.encryptPeak.toFixed(2)}`,
        )
        .join('; ') +
      '.',
  );
  return out;
}
