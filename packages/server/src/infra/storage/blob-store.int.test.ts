import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { BlobStore } from './blob-store.js';
import { describeBlobStoreContract } from './blob-store.contract.js';
import { createBlobStore } from './blob-store.factory.js';
import type { S3TestServer } from './s3-test-server.js';
import { startS3TestServer } from './s3-test-server.js';

let fsRoot: string;
let fsStore: BlobStore;
let s3: S3TestServer;
let s3Store: BlobStore;

beforeAll(async () => {
  fsRoot = await mkdtemp(join(tmpdir(), 'coffer-blobs-'));
  fsStore = createBlobStore({ kind: 'fs', root: fsRoot });
  s3 = await startS3TestServer();
  s3Store = createBlobStore({
    kind: 's3',
    bucket: s3.bucket,
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: s3.credentials,
  });
});

afterAll(async () => {
  await s3.close();
  await rm(fsRoot, { recursive: true, force: true });
});

describeBlobStoreContract('fs', () => fsStore);
describeBlobStoreContract('s3 (s3rver)', () => s3Store);
