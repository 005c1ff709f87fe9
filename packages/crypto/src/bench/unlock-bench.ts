// Unlock cost of a user's key records (issue 29): Argon2id (64 MiB, 3 passes, what Coffer writes)
// next to PBKDF2-HMAC-SHA256 at 600000 iterations (what it wrote before) and the spec's 100000.
// One unlock = one derivation + opening the RSA and the signing record, as `unlockUserKeys` does it.
// Run: `npx tsc -b packages/crypto && npm run bench -w @coffer/crypto` (or `npm run bench:unlock`).
// Option: --repeats=N (default 7).
import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { ARGON2ID_PARAMS } from '../kdf.argon2.js';
import { createUserKeys, unlockUserKeys, type UserKeyWrapOptions } from '../user-keys.setup.js';

const arg = process.argv.find((a) => a.startsWith('--repeats='));
const REPEATS = arg === undefined ? 7 : Number(arg.slice('--repeats='.length));
const PASSWORD = 'Correct-Horse-9!';

interface Case {
  name: string;
  options: UserKeyWrapOptions;
}

const CASES: Case[] = [
  {
    name: `Argon2id ${ARGON2ID_PARAMS.memoryKiB / 1024} MiB, ${ARGON2ID_PARAMS.passes} passes, ${ARGON2ID_PARAMS.parallelism} lane`,
    options: {},
  },
  { name: 'PBKDF2-SHA256 600000', options: { iterations: 600_000 } },
  { name: 'PBKDF2-SHA256 100000 (spec)', options: { iterations: 100_000 } },
];

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

console.log(
  `unlock bench: Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? '?'}, ` +
    `${Math.round(totalmem() / 1024 ** 3)} GiB, ${REPEATS} unlocks per case (after one warm-up)`,
);
console.log('| derivation | unlock median (ms) | min | max | RSS growth over the case (MiB) |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const { name, options } of CASES) {
  // Measured from before the first derivation: hash-wasm keeps its WebAssembly memory afterwards.
  const rssBefore = process.memoryUsage.rss();
  const keys = await createUserKeys(PASSWORD, options);
  await unlockUserKeys(PASSWORD, keys.encryptedPrivateKeyJson, keys.encryptedSigningKeyJson);
  const times: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const started = performance.now();
    await unlockUserKeys(PASSWORD, keys.encryptedPrivateKeyJson, keys.encryptedSigningKeyJson);
    times.push(performance.now() - started);
  }
  const growth = process.memoryUsage.rss() - rssBefore;
  const fmt = (ms: number): string => ms.toFixed(0);
  console.log(
    `| ${name} | ${fmt(median(times))} | ${fmt(Math.min(...times))} | ${fmt(Math.max(...times))} | ${(growth / 1024 ** 2).toFixed(0)} |`,
  );
}
