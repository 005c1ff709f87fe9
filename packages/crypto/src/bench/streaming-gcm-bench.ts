// Streaming AES-256-GCM (createChunkSealer / createChunkOpener) against one-shot WebCrypto calls,
// on one 95 MiB coffer-v1 chunk, in Node. Run:
//   npx tsc -b packages/crypto && node --expose-gc packages/crypto/dist/bench/streaming-gcm-bench.js
// Options: --repeats=N (default 5), --slices-kib=1024,4096 (slice sizes).
//
// Phases run interleaved in one process, the garbage collected between them; throughput is the
// best of the repeats (interference only slows a run down), the median beside it. "RSS +" is the
// peak resident memory above the phase's start, sampled at every slice and every 2 ms.
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { chunkAad } from '../chunk.cipher.js';
import { CHUNK_SIZE, IV_LENGTH, TAG_LENGTH } from '../format.constants.js';
import { generateFileKey } from '../file-key.wrap.js';
import { createChunkOpener } from '../gcm/chunk.opener.js';
import { createChunkSealer } from '../gcm/chunk.sealer.js';
import { selfTestStreamingGcm } from '../gcm/streaming-gcm.self-test.js';

const option = (name: string, fallback: string): string =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const REPEATS = Number(option('repeats', '5'));
const SLICES = option('slices-kib', '1024,4096')
  .split(',')
  .map((kib) => Number(kib) * 1024);
const C = CHUNK_SIZE;
const MiB = 1024 * 1024;

const collectGarbage = async (): Promise<void> => {
  for (let i = 0; i < 2; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

interface Sample {
  seconds: number;
  rssGrowth: number;
}

async function measure(run: (sample: () => void) => Promise<void>): Promise<Sample> {
  await collectGarbage();
  const start = process.memoryUsage.rss();
  let peak = start;
  const sample = (): void => {
    peak = Math.max(peak, process.memoryUsage.rss());
  };
  const timer = setInterval(sample, 2);
  const started = performance.now();
  await run(sample);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  sample();
  return { seconds, rssGrowth: peak - start };
}

const fileKey = await generateFileKey();
const iv = crypto.getRandomValues(new Uint8Array(IV_LENGTH));
const aad = chunkAad(0, false);
const plain = new Uint8Array(C);
for (let i = 0; i < C; i += 65_536) crypto.getRandomValues(plain.subarray(i, i + 65_536));
const sealed = new Uint8Array(
  await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad }, fileKey, plain),
);
const ciphertext = sealed.subarray(0, C);
const tag = sealed.subarray(C);

function* slicesOf(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

type Phase = (sample: () => void) => Promise<void>;
const phases = new Map<string, Phase>();
phases.set('encrypt, one-shot', async () => {
  await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad }, fileKey, plain);
});
phases.set('decrypt, one-shot', async () => {
  await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: aad }, fileKey, sealed);
});

const streaming = await selfTestStreamingGcm();
if (streaming) {
  for (const size of SLICES) {
    const label = `${size / MiB} MiB slices`;
    phases.set(`encrypt, streaming, ${label}`, async (sample) => {
      const sealer = await createChunkSealer(fileKey, iv, aad, C);
      let last: Uint8Array = new Uint8Array(0);
      for (const slice of slicesOf(plain, size)) {
        last = await sealer.sealSlice(slice);
        sample();
      }
      if (last.length !== (C % size || size) + TAG_LENGTH) throw new Error('no tag after the last slice');
    });
    for (const immutableSource of [true, false]) {
      const how = immutableSource ? 'immutable source' : 'GMAC recheck';
      phases.set(`verify, then decrypt, ${label}, ${how}`, async (sample) => {
        const opener = await createChunkOpener(fileKey, iv, aad, C, { immutableSource });
        const verified = await opener.verifyChunk(
          (function* () {
            for (const slice of slicesOf(ciphertext, size)) {
              sample();
              yield slice;
            }
          })(),
          tag,
        );
        if (!verified) throw new Error('the chunk did not verify');
        for (const slice of slicesOf(ciphertext, size)) {
          await opener.decryptSlice(slice);
          sample();
        }
      });
    }
  }
}

const results = new Map<string, Sample[]>([...phases.keys()].map((name) => [name, []]));
for (let repeat = 0; repeat < REPEATS; repeat++) {
  for (const [name, run] of phases) {
    const sample = await measure(run);
    results.get(name)?.push(sample);
    process.stderr.write(`${name}: ${(C / MiB / sample.seconds).toFixed(0)} MiB/s\n`);
  }
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const rate = (s: Sample): number => C / MiB / s.seconds;
const oneShot = (op: string): number => Math.max(...(results.get(`${op}, one-shot`) ?? []).map(rate));
const rows = [...results].map(([name, samples]) => {
  const best = Math.max(...samples.map(rate));
  const ratio = best / oneShot(name.startsWith('encrypt') ? 'encrypt' : 'decrypt');
  const rss = Math.max(...samples.map((s) => s.rssGrowth)) / MiB;
  return `| ${name} | ${best.toFixed(0)} (${median(samples.map(rate)).toFixed(0)}) | ${(ratio * 100).toFixed(0)} % | ${rss.toFixed(0)} |`;
});

console.log(`One ${C} B (95 MiB) chunk; ${REPEATS} interleaved repeats; MiB/s of plaintext, best (median).
CPU: ${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}; load ${loadavg()
  .map((l) => l.toFixed(1))
  .join(' ')}; Node ${process.version}; ${new Date().toISOString()}.
Streaming self-test: ${streaming ? 'passed' : 'FAILED: streaming phases skipped, callers fall back to one-shot whole-chunk calls'}.

| phase | MiB/s, best (median) | vs one-shot | peak RSS + (MiB) |
| --- | ---: | ---: | ---: |
${rows.join('\n')}`);
