import { MB } from '../bench-units.js';
import type { Measured } from '../driver/measured-run.js';
import type { Round } from '../driver/round.js';
import type { SizeResult } from '../driver/run-size.js';
import { computedAs, type Streaming } from '../measure/engine-status.js';

export const rate = (bytes: number, seconds: number): number => bytes / MB / seconds;
export const mb = (bytes: number): string => (bytes / MB).toFixed(0);

export type Direction = 'upload' | 'download';
type RowKey = 'upload-first' | 'download' | 'upload-controlled';

/** An encrypted transfer of a size, with how the report names it. */
export interface EncryptedRow {
  name: string;
  /** The same transfer at every size and round (the memory spread verdict compares them). */
  key: RowKey;
  direction: Direction;
  m: Measured;
  /** How the engine computed it: the crypto worker's answer (uploads), the service worker's (downloads). */
  streaming: Streaming;
}

/** The encrypted transfers of a size, with how the report names them. */
export function encryptedRows(r: SizeResult): EncryptedRow[] {
  const up = r.engine.cryptoWorker;
  const rows: EncryptedRow[] = [
    {
      name: 'upload, before any download',
      key: 'upload-first',
      direction: 'upload',
      m: r.encUp,
      streaming: up,
    },
  ];
  if (r.encDown !== null)
    rows.push({
      name: 'download',
      key: 'download',
      direction: 'download',
      m: r.encDown,
      streaming: r.engine.serviceWorker,
    });
  rows.push({
    name: 'upload, after a download (download service worker registered)',
    key: 'upload-controlled',
    direction: 'upload',
    m: r.encUpControlled,
    streaming: up,
  });
  return rows;
}

/** An encrypted transfer's name with how it was computed, e.g. `encrypted download [slices]`. */
export const labelled = ({ name, streaming }: EncryptedRow): string =>
  `encrypted ${name} [${computedAs(streaming)}]`;

export function allRows(r: SizeResult): [string, Measured][] {
  return [
    ...encryptedRows(r).map((row): [string, Measured] => [labelled(row), row.m]),
    ['plain upload', r.plainUp],
    ['plain download', r.plainDown],
    ['plain upload again, after the encrypted transfers', r.plainUpAgain],
    ['plain download again, after the encrypted transfers', r.plainDownAgain],
    ['plain upload with bare encryption at once (floor)', r.floorUp],
    ['plain download with bare decryption at once (floor)', r.floorDown],
  ];
}

/** The plain transfer of the same bytes in the same direction (the first of its two runs: its memory is the one reported). */
export const plainOf = (r: SizeResult, direction: Direction): Measured =>
  direction === 'upload' ? r.plainUp : r.plainDown;

/** The plain transfer's two runs of a round, before and after the encrypted transfers. */
export const plainRunsOf = (round: Round, direction: Direction): [Measured, Measured] =>
  direction === 'upload' ? [round.plainUp, round.plainUpAgain] : [round.plainDown, round.plainDownAgain];

/** A size's rounds, the first (whose transfers the tables show) first. */
export const roundsOf = (r: SizeResult): Round[] => [r, ...r.moreRounds];

/** A row's transfer in a round (null: not run, its upload failed). */
export function inRound(round: Round, key: RowKey): Measured | null {
  if (key === 'upload-first') return round.encUp;
  return key === 'download' ? round.encDown : round.encUpControlled;
}

/** The mean time of a round's two plain runs (a failed run left out; both failed: the first's time). */
function plainSecondsOf(round: Round, direction: Direction): number {
  const [before, after] = plainRunsOf(round, direction);
  const timed = [before, after].filter((run) => run.failure === null);
  return timed.length === 0
    ? before.seconds
    : timed.reduce((sum, run) => sum + run.seconds, 0) / timed.length;
}

/** A row's encrypted / plain in each round, first round first: null where the encrypted transfer failed. */
export const roundRatios = (r: SizeResult, { key, direction }: EncryptedRow): (number | null)[] =>
  roundsOf(r).map((round) => {
    const m = inRound(round, key);
    return m?.failure !== null ? null : plainSecondsOf(round, direction) / m.seconds;
  });

/** The median of some numbers (the mean of the middle two for an even count); NaN for none. */
export function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? Number.NaN)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** An encrypted transfer's rate (MB/s) beside its limits', and the ratios the report judges. */
export interface Throughput {
  encRate: number;
  /** Over the mean time of the plain transfer's two runs (before and after the encrypted ones). */
  plainRate: number;
  /** Each plain run's own rate: how far the machine moved during the run. */
  plainRates: [number, number];
  floorRate: number;
  /** Bare AES-GCM, one and two chunks in flight. */
  bare1Rate: number;
  bare2Rate: number;
  ofPlain: number;
  ofFloor: number;
  floorOfPlain: number;
}

export function throughputOf(r: SizeResult, { direction, m }: EncryptedRow): Throughput {
  const bareMs = (bare: SizeResult['bare1']): number =>
    direction === 'upload' ? bare.encryptMs : bare.decryptMs;
  const [before, after] = plainRunsOf(r, direction);
  const plainRate = rate(r.size, plainSecondsOf(r, direction));
  const floorRate = rate(r.size, (direction === 'upload' ? r.floorUp : r.floorDown).seconds);
  const encRate = rate(r.size, m.seconds);
  return {
    encRate,
    plainRate,
    plainRates: [rate(r.size, before.seconds), rate(r.size, after.seconds)],
    floorRate,
    bare1Rate: rate(r.size, bareMs(r.bare1) / 1000),
    bare2Rate: rate(r.size, bareMs(r.bare2) / 1000),
    ofPlain: encRate / plainRate,
    ofFloor: encRate / floorRate,
    floorOfPlain: floorRate / plainRate,
  };
}
