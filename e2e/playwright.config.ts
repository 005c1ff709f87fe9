import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './helpers/browser.js';

const port = Number(process.env.E2E_PORT ?? 8181);
const baseURL = `http://localhost:${port}`;
// Every run starts from an empty data folder, as a fresh `npm start` would.
// Workers load this file again with the runner's environment: reuse the runner's folder.
const dataDir = process.env.COFFER_E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'coffer-e2e-'));
/** The admin account of the browser tests (ADMIN_EMAILS of the server they start). */
export const E2E_ADMIN_EMAIL = 'admin.e2e@example.com';
// Specs read these: the blob folder (to prove it holds no plaintext) and the admin's address.
process.env.COFFER_E2E_DATA_DIR = dataDir;
process.env.COFFER_E2E_ADMIN_EMAIL = E2E_ADMIN_EMAIL;
/** The person the fake Google signs in (see packages/server/src/test/fake-google.main.ts). */
export const E2E_GOOGLE_EMAIL = 'gina.e2e@gmail.test';
process.env.COFFER_E2E_GOOGLE_EMAIL = E2E_GOOGLE_EMAIL;
const googlePort = port + 1;
const googleSecret = 'e2e-google-client-secret';

/**
 * The longest specs, started first. A worker takes the next file as it frees up, in the projects' order
 * and then by name: by name alone these came last (unlock-key-recovery, uploads-resume: 3–4 minutes
 * each on a busy machine, every other file under 1.6), one worker running them while the other core
 * idled. Measured 27 Nov 2026 (files' test time): uploads-resume 228 s, links 176 s, unlock-key-recovery
 * 173 s, then folders 95 s.
 */
const LONGEST_SPECS = ['uploads-resume.spec.ts', 'links.spec.ts', 'unlock-key-recovery.spec.ts'];

export default defineConfig({
  testDir: 'tests',
  projects: [
    { name: 'chromium, longest first', testMatch: LONGEST_SPECS },
    { name: 'chromium', testIgnore: LONGEST_SPECS },
  ],
  // A folder of its own: Playwright empties it at the start of a run, and the Firefox journey and the
  // scale-out test, which npm test runs beside this suite, write theirs under test-results/ too.
  outputDir: 'test-results/chromium',
  fullyParallel: false,
  // Two browser workers on the two cores: a spec mostly waits (for the server, a mail, a key derivation
  // in the other process, an animation), so one worker left a core idle most of the time. Every spec
  // makes its own people, files and markers, and a grep of the shared data folder tolerates another
  // spec's files coming and going (helpers/files.ts). E2E_WORKERS=1 runs them one at a time.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  forbidOnly: true,
  // A ceiling for a hung test, not a wait: a sign-up also confirms the address by mail and signs in,
  // several specs make two or three people and move 100 MB files, and the suite must pass on a
  // two-core machine busy with other work (load 15 seen: a two-person journey then takes 2 minutes).
  timeout: 300_000,
  // A ceiling for each expectation, not a wait: on a busy 2-core machine (a build or a benchmark beside
  // the suite) a list can take longer than Playwright's default 5 s to appear.
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    // A failed test keeps its trace (DOM snapshots, network, sources) and a screenshot; the trace takes
    // no screencast, which every test paid for, passed or not: two specs (5 tests, 1 worker, load 11-17)
    // 37 and 34 CPU-s with it, 25 and 25 without (27 Nov 2026).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] },
  },
  webServer: [
    {
      // "Google" for the federation journey: a second OpenID provider on loopback.
      command: 'node ../packages/server/dist/test/fake-google.main.js',
      url: `http://127.0.0.1:${googlePort}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        FAKE_GOOGLE_PORT: String(googlePort),
        FAKE_GOOGLE_REDIRECT_URI: `${baseURL}/idp/federation/google/callback`,
        FAKE_GOOGLE_CLIENT_SECRET: googleSecret,
        FAKE_GOOGLE_EMAIL: E2E_GOOGLE_EMAIL,
      },
    },
    {
      // The same entry point `npm start` runs, after the build `npm run test:e2e` does first. Its log
      // is also kept in the data folder, so a spec can prove it names no file (issue 31).
      command: `node ../packages/server/dist/main.js 2>&1 | tee -a '${join(dataDir, 'server.log')}'`,
      url: `${baseURL}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: String(port),
        PUBLIC_URL: baseURL,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        ADMIN_EMAILS: E2E_ADMIN_EMAIL,
        // Every spec signs people up from the same loopback address.
        IDP_ATTEMPTS_PER_IP: '1000',
        // The lowest scrypt cost (docs/identity.md: lower it only for tests). Every sign-up, confirmation
        // and sign-in hashes a password; at the default (15: 32 MiB, memory-bound) one hash took 8.6 s on
        // the busy 2-core machine, 0.17 s at 10. No browser test is about the cost; the hash format and
        // the rehash at another cost are tested in password-hash.test.ts.
        IDP_PASSWORD_COST: '10',
        GOOGLE_CLIENT_ID: 'coffer.apps.googleusercontent.test',
        GOOGLE_CLIENT_SECRET: googleSecret,
        GOOGLE_ISSUER: `http://127.0.0.1:${googlePort}`,
      },
    },
  ],
});
