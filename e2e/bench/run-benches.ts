/**
 * `npm run bench -w @coffer/e2e [-- <options>]`: the browser benchmarks one after the other, each as
 * its own process, EVERY option passed to each of them (each reads the options it knows and ignores
 * the others: `--sizes-gib` is the Chromium transfer benchmark's, `--floor-sizes-gib` the download
 * floor's, `--firefox-sizes-gib` the Firefox one's, `--files` / `--runs` the 10k list's).
 * `--only=transfer,floor,firefox,list` picks which run (this order; default all four). Stops at the
 * first that fails, with its exit code.
 *
 * One at a time: `npm run bench:transfer`, `bench:floor`, `bench:firefox`, `bench:list` (same options).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BENCHES = {
  transfer: 'browser-transfer-bench.ts',
  floor: 'download-floor-bench.ts',
  firefox: 'firefox-transfer-bench.ts',
  list: 'list-10k-bench.ts',
} as const;
type BenchName = keyof typeof BENCHES;

const isBench = (name: string): name is BenchName => Object.hasOwn(BENCHES, name);

const args = process.argv.slice(2);
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const forwarded = args.filter((a) => !a.startsWith('--only='));
const chosen = only === undefined ? Object.keys(BENCHES) : only.split(',').filter((n) => n !== '');
const unknown = chosen.filter((n) => !isBench(n));
if (unknown.length > 0 || chosen.length === 0)
  throw new Error(`--only: one or more of ${Object.keys(BENCHES).join(', ')} (got "${only ?? ''}")`);

for (const name of chosen.filter(isBench)) {
  const script = fileURLToPath(new URL(BENCHES[name], import.meta.url));
  console.log(`\n=== ${name}: ${BENCHES[name]} ${forwarded.join(' ')}`);
  // tsx as a loader of this same Node, so no shell and no second resolution of tsx.
  const run = spawnSync(process.execPath, ['--import', 'tsx', script, ...forwarded], { stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(`${name} failed (exit ${run.status ?? run.signal ?? '?'})`);
    process.exit(run.status ?? 1);
  }
}
