import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => {
        resolve(port);
      });
    });
  });
}

/**
 * The built server on a free port, with the embedded identity provider, the fs blob store and
 * SQLite, and plan limits no benchmark reaches.
 */
export async function startServer(dataDir: string): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  // The sign-up helper reads the confirmation mail from this server's outbox folder.
  process.env.COFFER_E2E_DATA_DIR = dataDir;
  const main = join(REPO_ROOT, 'packages/server/dist/main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first`);
  const plans = JSON.stringify({
    storageLimit: 64,
    monthlyUploadLimit: 100000,
    monthlyDownloadLimit: 100000,
    maxConcurrentUploads: 1,
    // Each exchange adds a contact and a share (--exchange-runs).
    maxContacts: 500,
    maxShares: 5000,
  });
  // Imported here, after the check above, so an unbuilt tree gets that message rather than a missing module.
  const { spawnBenchServer, waitForHealth } =
    await import('../../../packages/server/dist/bench/bench-server.js');
  const server = spawnBenchServer({
    main,
    port,
    dataDir,
    // Node's own flags for the server, to look inside it (e.g. `--trace-gc`, `--perf-basic-prof`).
    nodeArgs: (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((flag) => flag !== ''),
    env: {
      IDP_ATTEMPTS_PER_IP: '1000',
      PLAN_LIMITS_FREE: plans,
      // The embedded identity provider, the fs blob store and SQLite, whatever this shell says.
      OIDC_ISSUER: '',
      S3_BUCKET: '',
      DATABASE_URL: '',
    },
  });
  try {
    // Up to 2 minutes: the server takes over 30 s to start on the 2-core machine at load 20 and more.
    await waitForHealth(server.base, server.child, 600);
  } catch (error) {
    server.child.kill('SIGTERM');
    throw error;
  }
  return server;
}

/**
 * The path of the app's bundled crypto worker in the web build the server serves (`WEB_DIST_DIR`,
 * else `packages/web/dist`), for asking it how it computes (`measure/engine-status.ts`).
 */
export function cryptoWorkerPath(): string {
  const dist = process.env.WEB_DIST_DIR ?? join(REPO_ROOT, 'packages/web/dist');
  const name = readdirSync(join(dist, 'assets')).find((n) => /^crypto\.worker-[\w-]+\.js$/.test(n));
  if (name === undefined) throw new Error(`no crypto worker in ${dist}/assets: run \`npm run build\` first`);
  return `/assets/${name}`;
}

/**
 * The commit measured (short hash), and whether the packages' or the benchmark's files differed from
 * it (a run on a working tree others are editing says so).
 */
export function measuredCommit(): string {
  const git = (...args: string[]): string =>
    execFileSync('git', ['-C', REPO_ROOT, ...args], { encoding: 'utf8' }).trim();
  try {
    // Untracked files are left out: scratch scripts beside the benchmark change nothing it runs (a new
    // module it imports shows as a change of the tracked file importing it).
    const dirty = git('status', '--porcelain', '--untracked-files=no', '--', 'packages', 'e2e') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' (with uncommitted changes in the working tree)' : ''}`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}
