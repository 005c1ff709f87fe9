import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

const src = (pkg: string): string =>
  fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

/** Tests import workspace packages from source, so no build is needed before `vitest`. */
const alias = {
  '@coffer/crypto': src('crypto'),
  '@coffer/contracts': src('contracts'),
};

/** The web's tests: build/ holds the build's own helpers (Node code; Node's modules are there under happy-dom too). */
const webFiles = ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'];

/**
 * Web test files that need a module graph of their own (a fresh process, as Vitest's default): they mock a
 * module with `vi.mock` (a module an earlier file loaded would stay real), test what a module does once
 * per process, or failed after other files in one graph.
 */
const webIsolatedFiles = [
  'src/lib/drive/drive.test.ts', // vi.mock
  'src/lib/analytics/analytics-link-pages.test.ts', // vi.mock
  'src/features/shared/SharedWithMePage.zip.test.tsx', // vi.mock
  'src/lib/crypto-worker/streaming-support.test.ts', // the self-test logs once per module
  'src/features/upload/NewUploadPage.test.tsx', // failed after other files (cause not found)
  'src/features/landing/LandingPage.test.tsx', // reads the app session (getAppSession) an earlier file left set
];

const webTest = {
  root: 'packages/web',
  environment: 'happy-dom',
  setupFiles: ['src/test/setup.ts'],
  // Ceilings: screen tests type and click through Mantine with user-event, and some derive keys at full
  // cost in a hook: at load 25, 20 s tests and Vitest's 10 s hooks failed, the hooks' tests then listed
  // as skipped.
  testTimeout: 60_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    // The machine has 2 cores: more workers only add contention.
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'crypto',
          root: 'packages/crypto',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          // One worker process runs file after file, its modules loaded once: isolated, every file was a
          // new process importing the package again (crypto 63 → 49 CPU-s, contracts 9.7 → 4.2). These
          // files mock no module, and the one spy they set (crypto.subtle) Vitest restores after each file.
          isolate: false,
          // Ceilings, not waits: a test derives keys at full cost (PBKDF2 600,000 rounds, Argon2id 64 MiB),
          // ~0.5 s each on an idle core; Vitest's 5 s / 10 s defaults failed four tests at load 24.
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'contracts',
          root: 'packages/contracts',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          // As crypto: modules loaded once per worker, not once per file.
          isolate: false,
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'server',
          root: 'packages/server',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          // As crypto: Fastify, the AWS SDK, the database drivers and the app are loaded once per worker,
          // not once per file. Each file still opens its own databases, app and issuer; none mocks a module.
          isolate: false,
          testTimeout: 30_000,
          // A ceiling: a file's beforeAll opens its databases (a PostgreSQL schema and its migrations) and
          // starts the app. A hook that times out fails the file and Vitest lists its tests as skipped,
          // as the API fuzz's PostgreSQL case once was on a busy machine.
          hookTimeout: 120_000,
        },
      },
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          ...webTest,
          name: 'web',
          include: webFiles,
          exclude: [...configDefaults.exclude, ...webIsolatedFiles],
          // Files run one after another in a worker's module graph: React, Mantine and the app are loaded
          // once per worker rather than once per file (setup.ts still runs before every file).
          isolate: false,
        },
      },
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          ...webTest,
          name: 'web-isolated',
          include: webIsolatedFiles,
        },
      },
    ],
  },
});
