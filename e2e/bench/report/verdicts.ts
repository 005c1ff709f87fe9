import { CHUNK_MB, MB, f0 } from '../bench-units.js';
import type { SizeResult } from '../driver/run-size.js';
import { encryptedRows, mb, plainOf, throughputOf } from './report-rows.js';

const FOUR_CHUNKS = 4 * CHUNK_MB * MB;

/** The targets, as measured: throughput, memory, memory across sizes, main thread, in that order. */
export function verdicts(results: SizeResult[]): string[] {
  return [
    ...throughputVerdicts(results),
    ...memoryVerdicts(results),
    ...memorySpreadVerdicts(results),
    ...mainThreadVerdicts(results),
  ];
}

/** Issue 17's targets: against the plain transfer of the same bytes in the same run. */
function throughputVerdicts(results: SizeResult[]): string[] {
  return results.flatMap((r) =>
    encryptedRows(r).map((row) => {
      const { name, direction, m } = row;
      const { ofPlain, ofFloor, floorOfPlain } = throughputOf(r, row);
      const target = direction === 'upload' ? 0.75 : 0.6;
      const floorNote =
        floorOfPlain < target
          ? `; the floor itself is ${floorOfPlain.toFixed(2)} × plain, below the target`
          : '';
      return m.failure === null
        ? `- Throughput, ${r.gib} GiB ${name}: ${ofPlain.toFixed(2)} × plain, ${ofFloor.toFixed(2)} × the floor — ` +
            `**${ofPlain >= target ? 'met' : 'missed'}** (target ≥ ${target} × plain${floorNote}).`
        : `- Throughput, ${r.gib} GiB ${name}: **missed — the upload failed** after ${m.seconds.toFixed(0)} s: “${m.failure}”.`;
    }),
  );
}

/**
 * At most 4 chunks above idle. Beside it, what a design that hands WebCrypto whole chunks holds at
 * a call's peak: the chunk as read (1) and the call (measured), plus what the plain transfer of the
 * same bytes holds itself. Not a floor of the measured figure: the transfers are sampled every
 * 200 ms, which can miss a call's short peak, and an idle figure that already counts memory freed
 * but not yet returned (an upload after a download) lowers the growth.
 */
function memoryVerdicts(results: SizeResult[]): string[] {
  return results.flatMap((r) =>
    encryptedRows(r).map(({ name, direction, m }) => {
      const growth = m.peak.total - m.idle.total;
      const plain = plainOf(r, direction);
      const plainOwn = Math.max(0, (plain.peak.total - plain.idle.total) / MB / CHUNK_MB);
      const call = direction === 'upload' ? r.footprint.encryptPeak : r.footprint.decryptPeak;
      const least = 1 + call + plainOwn;
      const bound =
        direction === 'download'
          ? `; this pipeline adds the previous chunk while the browser still writes it: ${(least + 1).toFixed(2)}`
          : '';
      return (
        `- Memory, ${r.gib} GiB ${name}: ${mb(growth)} MB above idle = ${(growth / MB / CHUNK_MB).toFixed(2)} chunks ` +
        `(${(growth / FOUR_CHUNKS).toFixed(2)} × 4) — ` +
        `**${growth <= FOUR_CHUNKS ? 'met' : 'missed'}**${m.failure === null ? '' : ' (until the upload failed)'} ` +
        `(whole-chunk WebCrypto at a call's peak here: 1 read + ${call.toFixed(2)} in the call + ` +
        `${plainOwn.toFixed(2)} the plain ${direction}'s own = ${least.toFixed(2)}${bound}).`
      );
    }),
  );
}

/** The same peak for every size (within 10 %), transfer by transfer. */
function memorySpreadVerdicts(results: SizeResult[]): string[] {
  if (results.length <= 1) return [];
  const out: string[] = [];
  const keys = [...new Set(results.flatMap((r) => encryptedRows(r).map((row) => row.key)))];
  for (const key of keys) {
    const rows = results.flatMap((r) =>
      encryptedRows(r)
        .filter((row) => row.key === key)
        .map((row) => ({ gib: r.gib, name: row.name, m: row.m })),
    );
    if (rows.length < 2) continue;
    const peaks = rows.map((row) => row.m.peak.total);
    const spread = Math.max(...peaks) / Math.min(...peaks) - 1;
    out.push(
      `- Memory, ${rows[0]?.name ?? key}, same for every size: peaks ${rows.map((row) => `${mb(row.m.peak.total)} (${row.gib} GiB)`).join(' / ')} MB, ` +
        `spread ${(spread * 100).toFixed(0)} % — **${spread <= 0.1 ? 'met' : 'missed'}** (target within 10 %).`,
    );
  }
  return out;
}

function mainThreadVerdicts(results: SizeResult[]): string[] {
  return results.flatMap((r) =>
    encryptedRows(r).map(({ name, m }) => {
      const longest = m.blocking?.longestTaskMs ?? 0;
      return (
        `- Main thread, ${r.gib} GiB ${name}: longest long task ${f0(longest)} ms (timer lateness ` +
        `${f0(m.blocking?.longestLateTickMs ?? 0)} ms) — **${longest <= 50 ? 'met' : 'missed'}** (target ≤ 50 ms).`
      );
    }),
  );
}
