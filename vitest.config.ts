import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const src = (pkg: string): string =>
  fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

/** Tests import workspace packages from source, so no build is needed before `vitest`. */
const alias = {
  '@coffer/crypto': src('crypto'),
  '@coffer/contracts': src('contracts'),
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
          name: 'web',
          root: 'packages/web',
          // build/: the build's own helpers (Node code; Node's modules are there under happy-dom too).
          include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
          environment: 'happy-dom',
          setupFiles: ['src/test/setup.ts'],
          // Ceilings: screen tests type and click through Mantine with user-event, and some derive keys at
          // full cost in a hook: at load 25, 20 s tests and Vitest's 10 s hooks failed, the hooks' tests
          // then listed as skipped.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
