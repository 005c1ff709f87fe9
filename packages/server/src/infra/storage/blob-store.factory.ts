import type { BlobStore } from './blob-store.js';
import { createFsBlobStore } from './blob-store.fs.js';
import type { S3BlobStoreOptions } from './blob-store.s3.js';
import { createS3BlobStore } from './blob-store.s3.js';

/**
 * Which blob store to build. `config.ts` derives it from the environment:
 *
 * | variable              | meaning                                                          |
 * |-----------------------|------------------------------------------------------------------|
 * | (none)                | `{kind: 'fs', root: <DATA_DIR>/blobs}`                           |
 * | `S3_BUCKET`           | switches to S3 when set (non-empty): the bucket name             |
 * | `S3_ENDPOINT`         | S3-compatible endpoint URL (MinIO, R2…); unset means AWS S3      |
 * | `S3_REGION`           | default `us-east-1`                                              |
 * | `S3_FORCE_PATH_STYLE` | `true` for path-style URLs (MinIO, s3rver); default `false`      |
 * | `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` (, `AWS_SESSION_TOKEN`, `AWS_PROFILE`, roles) | read by the SDK's default credential chain, never by Coffer |
 *
 * `credentials` exists for tests (s3rver) and embedding; production leaves it out.
 */
export type BlobStoreConfig = { kind: 'fs'; root: string } | ({ kind: 's3' } & S3BlobStoreOptions);

/** Builds the configured blob store. Called from the composition root only. */
export function createBlobStore(config: BlobStoreConfig): BlobStore {
  switch (config.kind) {
    case 'fs':
      return createFsBlobStore({ root: config.root });
    case 's3':
      return createS3BlobStore(config);
  }
}
