/**
 * A whole app for integration tests: the real composition root, a real database of the dialect under
 * test, real token verification against a local issuer, and an in-memory mailer to read sent mail.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { createApp } from '../app.js';
import type { AppOverrides } from '../app.js';
import { loadConfig } from '../config.js';
import { createMemoryMailer } from '../infra/mail/mailer.memory.js';
import type { MemoryMailer } from '../infra/mail/mailer.memory.js';
import type { BlobStore } from '../infra/storage/blob-store.js';
import { createBlobStore } from '../infra/storage/blob-store.factory.js';
import type { TestDatabase } from './db.js';
import { startTestIssuer, userClaims } from './test-issuer.js';
import type { TestIssuer } from './test-issuer.js';

export interface TestApp {
  app: FastifyInstance;
  issuer: TestIssuer;
  mailer: MemoryMailer;
  dataDir: string;
  /** The app's blob store (the one given in `overrides`, else one on the configured folder), to inspect what is stored. */
  blobStore: BlobStore;
  /** A valid access token for the named test user (alice → alice@example.test). */
  tokenFor(name: string): Promise<string>;
  /** `inject` as the named user (or anonymously with `null`). */
  as(name: string | null, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  database: TestDatabase;
  /** Extra environment, e.g. `{ADMIN_EMAILS: 'root@example.test'}` or plan limits. */
  env?: Record<string, string>;
  overrides?: Omit<AppOverrides, 'database' | 'mailer'>;
}

export async function startTestApp(options: TestAppOptions): Promise<TestApp> {
  const issuer = await startTestIssuer();
  const dataDir = mkdtempSync(join(tmpdir(), 'coffer-app-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    WEB_DIST_DIR: join(dataDir, 'no-web-build'),
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://coffer.test',
    OIDC_ISSUER: issuer.issuer,
    OIDC_AUDIENCE: issuer.audience,
    ...options.env,
  });
  const mailer = createMemoryMailer();
  const app = await createApp(config, { ...options.overrides, database: options.database, mailer });
  await app.ready();
  // Without an override the app builds its store from the config; a second one on the same folder or
  // bucket sees the same objects.
  const blobStore = options.overrides?.blobStore ?? createBlobStore(config.storage);

  const tokenFor = (name: string) => issuer.mintToken(userClaims(name));
  return {
    app,
    issuer,
    mailer,
    dataDir,
    blobStore,
    tokenFor,
    async as(name, injectOptions) {
      const headers = { ...(injectOptions.headers ?? {}) };
      if (name !== null) headers.authorization = `Bearer ${await tokenFor(name)}`;
      return app.inject({ ...injectOptions, headers });
    },
    async close() {
      await app.close();
      await issuer.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
