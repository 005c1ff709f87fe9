import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll } from 'vitest';
import type { BlobStore } from './blob-store.js';
import { describeBlobStoreContract } from './blob-store.contract.js';
import { createBlobStore } from './blob-store.factory.js';

let fsRoot: string;
let fsStore: BlobStore;
let s3Dir: string;
let s3rver: S3rver;
let s3Store: BlobStore;

beforeAll(async () => {
  fsRoot = await mkdtemp(join(tmpdir(), 'coffer-blobs-'));
  fsStore = createBlobStore({ kind: 'fs', root: fsRoot });

  s3Dir = await mkdtemp(join(tmpdir(), 'coffer-s3rver-'));
  s3rver = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: 'coffer-test' }],
  });
  const { port } = await s3rver.run();
  s3Store = createBlobStore({
    kind: 's3',
    bucket: 'coffer-test',
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
});

afterAll(async () => {
  await s3rver.close();
  await rm(s3Dir, { recursive: true, force: true });
  await rm(fsRoot, { recursive: true, force: true });
});

describeBlobStoreContract('fs', () => fsStore);
describeBlobStoreContract('s3 (s3rver)', () => s3Store);
