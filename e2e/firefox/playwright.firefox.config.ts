import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import base from '../playwright.config.js';

/**
 * The Firefox journey (`e2e/firefox/`): Playwright runs it, reports it and starts the server it needs,
 * exactly as for the Chromium suite (the same entry point, settings and fresh data folder); the spec
 * drives Debian's `firefox-esr` with puppeteer-core over WebDriver BiDi. Run by
 * `npm run test:firefox`: in `npm test` beside the other parts (the Chromium suite among them), in
 * `npm run test:e2e` after the Chromium suite. Its server has a port of its own, `E2E_FIREFOX_PORT`
 * (default: two above `E2E_PORT`, which the Chromium suite's app and fake Google take), and, as every
 * run of the base config, a fresh data folder of its own.
 */
const e2eDir = fileURLToPath(new URL('..', import.meta.url));
const servers = Array.isArray(base.webServer) ? base.webServer : [];
const app = servers.find((server) => server.command.includes('packages/server/dist/main.js'));
if (app === undefined) throw new Error('e2e/playwright.config.ts starts no app server');
// No "Google" here: the journey signs in with local accounts only.
const env = Object.fromEntries(Object.entries(app.env ?? {}).filter(([name]) => !name.startsWith('GOOGLE_')));
const port = Number(process.env.E2E_FIREFOX_PORT ?? Number(process.env.E2E_PORT ?? 8181) + 2);
const baseURL = `http://localhost:${port}`;

export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../test-results/firefox',
  // One journey whose tests follow each other.
  workers: 1,
  // A ceiling per test, not its duration: each step of the journey is two people's key derivations
  // (PBKDF2 600,000 rounds, twice each) or a 101 MiB transfer, in a browser sharing two cores with the
  // rest of `npm test`. The base's 300 s was hit in CI: the sign-up and set-up test took 4.2 min of it
  // in a full local run, its first person's tab behind the second's (no animation frames, throttled
  // timers). Since session 21 each step acts in the tab in front: quiet, the journey takes ~40 s.
  timeout: 600_000,
  // The page objects are puppeteer's: Playwright's browser is never launched, so no trace or screenshot.
  use: { baseURL },
  // Named, so every reported line says which browser ran it.
  projects: [{ name: 'firefox-esr' }],
  webServer: [
    {
      ...app,
      cwd: e2eDir,
      url: `${baseURL}/api/health`,
      env: { ...env, PORT: String(port), PUBLIC_URL: baseURL },
    },
  ],
});
