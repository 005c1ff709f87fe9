import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import base from './playwright.config.js';

/**
 * The scale-out test (`e2e/scale/`): two server processes on PostgreSQL and S3 behind nginx, started by
 * the spec itself (it stops one of them half-way), on `E2E_SCALE_PORT` (default 8191) and the five ports
 * above it. Run by `npm run test:scale` (last in `npm test` and `npm run test:e2e`); needs
 * TEST_DATABASE_URL and nginx.
 */
const port = Number(process.env.E2E_SCALE_PORT ?? 8191);
const dataDir = process.env.COFFER_E2E_SCALE_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'coffer-e2e-scale-'));
process.env.COFFER_E2E_SCALE_DATA_DIR = dataDir;
// The mail helpers read the outbox of this folder, which every instance writes to.
process.env.COFFER_E2E_DATA_DIR = dataDir;
process.env.E2E_SCALE_PORT = String(port);

export default defineConfig({
  ...base,
  testDir: 'scale',
  // One spec, in a project of its own (the Chromium suite's projects list files of tests/).
  projects: [{ name: 'scale-out' }],
  outputDir: 'test-results/scale',
  webServer: undefined,
  // The spec starts its stack on fixed ports: never two at once.
  workers: 1,
  use: { ...base.use, baseURL: `http://localhost:${port}` },
});
