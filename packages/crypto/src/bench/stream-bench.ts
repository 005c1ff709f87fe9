// Throughput and memory of encryptStream/decryptStream on 1 GiB in Node, against plain
// crypto.subtle calls on the same chunks. Run: `npx tsc -b packages/crypto && npm run bench -w @coffer/crypto`.
// Options: --piece-kib=N (input piece size, default 1024), --repeats=N (default 7), --gib=N (default 1).
//
// Every measurement runs in a fresh child process (`--phase=NAME`), so that one phase's garbage
// and heap growth cannot show up in another's RSS; the parent interleaves phases and aggregates.
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { chunkAad, encryptChunk } from '../chunk.cipher.js';
import { decryptStream, encryptStream } from '../content.streams.js';
import { chunkCount, encryptedSize, plainChunkLength } from '../content-size.math.js';
import { generateFileKey } from '../file-key.wrap.js';
import { CHUNK_SIZE, IV_LENGTH, TAG_LENGTH } from '../format.constants.js';

const option = (name: string, fallback: number): number => {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg === undefined ? fallback : Number(arg.slice(name.length + 3));
};

const PIECE = option('piece-kib', 1024) * 1024;
const REPEATS = option('repeats', 7);
const TOTAL = Math.round(option('gib', 1) * 1024 ** 3);
const C = CHUNK_SIZE;
const CHUNKS = chunkCount(TOTAL, C);
const MB = 1e6;
if (C % PIECE !== 0) throw new Error('the piece size must divide the chunk size');
if (CHUNKS < 2) throw new Error('the benchmark needs at least two chunks');

/** Samples RSS every 2 ms and at every `sample()` call; reports the peak. */
class RssPeak {
  #peak = 0;
  #timer: NodeJS.Timeout | undefined;
  start(): void {
    this.#peak = process.memoryUsage.rss();
    this.#timer = setInterval(() => {
      this.sample();
    }, 2);
  }
  sample(): void {
    this.#peak = Math.max(this.#peak, process.memoryUsage.rss());
  }
  stop(): number {
    clearInterval(this.#timer);
    this.sample();
    return this.#peak;
  }
}

interface Measurement {
  wallSeconds: number;
  /** User + system CPU time of the whole process (all threads), robust to other load on the machine. */
  cpuSeconds: number;
  startRss: number;
  peakRss: number;
}

/** Full GCs with pauses: V8 frees large backing stores in the background, after the GC itself. */
const collectGarbage = async (): Promise<void> => {
  for (let i = 0; i < 3; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
};

async function measure(run: (rss: RssPeak) => Promise<void>): Promise<Measurement> {
  await collectGarbage();
  const rss = new RssPeak();
  const startRss = process.memoryUsage.rss();
  rss.start();
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  await run(rss);
  const wallSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  return { wallSeconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, startRss, peakRss: rss.stop() };
}

/** Reads a stream to the end, counting bytes and dropping them. */
async function drain(stream: ReadableStream<Uint8Array>, rss: RssPeak): Promise<number> {
  let bytes = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes;
    bytes += value.length;
    rss.sample();
  }
}

/** A pull-based stream of `pieces`. */
function streamOf(pieces: Iterator<Uint8Array>, rss: RssPeak): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      rss.sample();
      const next = pieces.next();
      if (next.done === true) controller.close();
      else controller.enqueue(next.value);
    },
  });
}

// Plaintext: one random block of PIECE bytes, repeated. The stream input is that block enqueued
// again and again (never modified, so reuse is safe); chunk j's plaintext is the block repeated
// up to plainChunkLength(j), which is what the baseline encrypts.
const block = new Uint8Array(PIECE);
for (let i = 0; i < PIECE; i += 65_536) crypto.getRandomValues(block.subarray(i, i + 65_536));
const repeatedBlock = (): Uint8Array<ArrayBuffer> => {
  const bytes = new Uint8Array(C);
  for (let offset = 0; offset < C; offset += PIECE) bytes.set(block, offset);
  return bytes;
};
function* plaintextPieces(): Generator<Uint8Array> {
  for (let offset = 0; offset < TOTAL; offset += PIECE)
    yield block.subarray(0, Math.min(PIECE, TOTAL - offset));
}

const fileKey = await generateFileKey();

// Ciphertext for decryption without holding 1 GiB: every chunk is encrypted with the SAME IV
// (acceptable only in a benchmark). Same key and IV give the same AES-GCM keystream, so each
// chunk's ciphertext is a prefix of one C-byte `body`; only the 16-byte tags differ (they cover
// the per-chunk AAD). So the decrypt input is `body` (made before each decrypt phase) + the tags.
const FIXED_IV = new Uint8Array(IV_LENGTH).fill(7);
const tags: Uint8Array[] = [];
const makeTags = async (): Promise<void> => {
  if (tags.length > 0) return;
  const plaintext = repeatedBlock();
  for (let j = 0; j < CHUNKS; j++) {
    const length = plainChunkLength(TOTAL, j, C);
    const sealed = await encryptChunk(fileKey, j, j === CHUNKS - 1, plaintext.subarray(0, length), FIXED_IV);
    tags.push(sealed.slice(sealed.length - TAG_LENGTH));
  }
};
const makeBody = async (): Promise<Uint8Array<ArrayBuffer>> => {
  const sealed = await encryptChunk(fileKey, 0, false, repeatedBlock(), FIXED_IV);
  return sealed.subarray(IV_LENGTH, IV_LENGTH + C);
};
const tagOf = (j: number): Uint8Array => tags[j] ?? new Uint8Array(0);

function* ciphertextPieces(body: Uint8Array): Generator<Uint8Array> {
  for (let j = 0; j < CHUNKS; j++) {
    yield FIXED_IV;
    const length = plainChunkLength(TOTAL, j, C);
    for (let offset = 0; offset < length; offset += PIECE)
      yield body.subarray(offset, Math.min(length, offset + PIECE));
    yield tagOf(j);
  }
}

/** Each phase: build its input fixture (untimed), then return the timed run. */
type Run = (rss: RssPeak) => Promise<void>;
type Phase = () => Run | Promise<Run>;

const PHASES = {
  'encrypt: baseline': (): Run => {
    const plaintext = repeatedBlock();
    return async (rss) => {
      for (let j = 0; j < CHUNKS; j++) {
        const iv = crypto.getRandomValues(new Uint8Array(IV_LENGTH));
        const additionalData = chunkAad(j, j === CHUNKS - 1);
        const data = plaintext.subarray(0, plainChunkLength(TOTAL, j, C));
        await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData }, fileKey, data);
        rss.sample();
      }
    };
  },
  'encrypt: encryptStream': (): Run => {
    return async (rss) => {
      const bytes = await drain(streamOf(plaintextPieces(), rss).pipeThrough(encryptStream(fileKey)), rss);
      if (bytes !== encryptedSize(TOTAL, C)) throw new Error(`encrypted ${bytes} bytes`);
    };
  },
  'decrypt: baseline': async (): Promise<Run> => {
    // subtle.decrypt wants ciphertext||tag contiguous. The last chunk goes last: writing its tag
    // overwrites body bytes that the full chunks need.
    await makeTags();
    const sealed = new Uint8Array(C + TAG_LENGTH);
    sealed.set(await makeBody());
    return async (rss) => {
      for (let j = 0; j < CHUNKS; j++) {
        const length = plainChunkLength(TOTAL, j, C);
        sealed.set(tagOf(j), length);
        const additionalData = chunkAad(j, j === CHUNKS - 1);
        const data = sealed.subarray(0, length + TAG_LENGTH);
        await crypto.subtle.decrypt({ name: 'AES-GCM', iv: FIXED_IV, additionalData }, fileKey, data);
        rss.sample();
      }
    };
  },
  'decrypt: decryptStream': async (): Promise<Run> => {
    await makeTags();
    const body = await makeBody();
    return async (rss) => {
      const bytes = await drain(
        streamOf(ciphertextPieces(body), rss).pipeThrough(decryptStream(fileKey)),
        rss,
      );
      if (bytes !== TOTAL) throw new Error(`decrypted ${bytes} bytes`);
    };
  },
} satisfies Record<string, Phase>;
type PhaseName = keyof typeof PHASES;

/** Bytes the benchmark itself holds as input during each phase (counted in "RSS before"). */
const FIXTURE_BYTES: Record<PhaseName, number> = {
  'encrypt: baseline': C,
  'encrypt: encryptStream': PIECE,
  'decrypt: baseline': C + TAG_LENGTH,
  'decrypt: decryptStream': C + IV_LENGTH + TAG_LENGTH,
};
const PHASE_NAMES = Object.keys(PHASES) as PhaseName[];

const phaseArg = process.argv.find((a) => a.startsWith('--phase='))?.slice('--phase='.length);
if (phaseArg !== undefined) {
  // Child: measure one phase and report it as JSON.
  const phase = PHASES[phaseArg as PhaseName] as Phase | undefined;
  if (phase === undefined) throw new Error(`unknown phase ${phaseArg}`);
  const run = await phase();
  const measurement = await measure(run);
  console.log(JSON.stringify(measurement));
  process.exit(0);
}

const results = new Map<PhaseName, Measurement[]>(PHASE_NAMES.map((name) => [name, []]));
const passThrough = process.argv.slice(2).filter((arg) => !arg.startsWith('--phase='));
for (let repeat = 0; repeat < REPEATS; repeat++) {
  // Interleaved, so that load from other processes spreads over all phases alike.
  for (const name of PHASE_NAMES) {
    const child = spawnSync(
      process.execPath,
      ['--expose-gc', fileURLToPath(import.meta.url), `--phase=${name}`, ...passThrough],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    if (child.status !== 0) throw new Error(`phase ${name} failed with status ${String(child.status)}`);
    const m = JSON.parse(child.stdout.trim()) as Measurement;
    results.get(name)?.push(m);
    process.stderr.write(
      `${name}: ${(TOTAL / m.wallSeconds / MB).toFixed(0)} MB/s wall, ${(TOTAL / m.cpuSeconds / MB).toFixed(0)} MB/CPU-s, ` +
        `RSS ${(m.startRss / MB).toFixed(0)} → ${(m.peakRss / MB).toFixed(0)} MB\n`,
    );
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const of = (name: PhaseName): Measurement[] => results.get(name) ?? [];
// Best-of-N is the usual throughput figure on a machine shared with other work: interference
// only ever slows a run down. Medians are shown beside it.
const best = (values: number[]): number => Math.max(...values);
const wallRate = (name: PhaseName): number => best(of(name).map((m) => TOTAL / m.wallSeconds / MB));
const wallMedian = (name: PhaseName): number => median(of(name).map((m) => TOTAL / m.wallSeconds / MB));
const cpuRate = (name: PhaseName): number => best(of(name).map((m) => TOTAL / m.cpuSeconds / MB));
const cpuMedian = (name: PhaseName): number => median(of(name).map((m) => TOTAL / m.cpuSeconds / MB));
const peak = (name: PhaseName): number => Math.max(...of(name).map((m) => m.peakRss));
const before = (name: PhaseName): number => median(of(name).map((m) => m.startRss));
const growth = (name: PhaseName): number => Math.max(...of(name).map((m) => m.peakRss - m.startRss));
const mb = (bytes: number): string => (bytes / MB).toFixed(0);
const chunks = (bytes: number): string => (bytes / C).toFixed(2);
const percent = (ratio: number): string => `${(ratio * 100).toFixed(0)} %`;

const rows = PHASE_NAMES.map(
  (name) =>
    `| ${name} | ${wallRate(name).toFixed(0)} (${wallMedian(name).toFixed(0)}) | ${cpuRate(name).toFixed(0)} (${cpuMedian(name).toFixed(0)}) | ` +
    `${mb(FIXTURE_BYTES[name])} | ${mb(before(name))} | ` +
    `${mb(peak(name))} (${chunks(peak(name))}) | ${mb(growth(name))} (${chunks(growth(name))}) |`,
);
const ratio = (op: 'encrypt' | 'decrypt', rate: (name: PhaseName) => number): string =>
  op === 'encrypt'
    ? percent(rate('encrypt: encryptStream') / rate('encrypt: baseline'))
    : percent(rate('decrypt: decryptStream') / rate('decrypt: baseline'));

console.log(`${(TOTAL / 1024 ** 3).toFixed(2)} GiB = ${CHUNKS} chunks of ${C} bytes; stream input in pieces of ${PIECE / 1024} KiB; ${REPEATS} interleaved runs, each in a fresh process; MB = 10^6 bytes of plaintext; 1 chunk = ${(C / MB).toFixed(1)} MB.
CPU: ${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}; Node ${process.version}.

| phase | MB/s, wall: best (median) | MB per CPU-second: best (median) | input fixture (MB) | RSS before (MB) | peak RSS, MB (chunks) | peak − before, MB (chunks) |
| --- | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}

| stream / baseline | wall, best | wall, median | CPU time, best | CPU time, median |
| --- | ---: | ---: | ---: | ---: |
| encrypt | ${ratio('encrypt', wallRate)} | ${ratio('encrypt', wallMedian)} | ${ratio('encrypt', cpuRate)} | ${ratio('encrypt', cpuMedian)} |
| decrypt | ${ratio('decrypt', wallRate)} | ${ratio('decrypt', wallMedian)} | ${ratio('decrypt', cpuRate)} | ${ratio('decrypt', cpuMedian)} |`);
