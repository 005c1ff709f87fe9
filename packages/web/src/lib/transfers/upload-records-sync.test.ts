import type { UploadItem } from '@coffer/contracts';
import { describe, expect, it } from 'vitest';
import { FakeCofferServer } from './testing/fake-coffer-server';
import { createMemoryUploadRecords, type UploadRecord } from './upload-records';
import { forgetFinishedUploads } from './upload-records-sync';

const record = (uploadId: string, keyVersion = 'key-1'): UploadRecord => ({
  uploadId,
  objectKey: `u/me/${uploadId}`,
  fileName: `${uploadId}.bin`,
  size: 200_000_000,
  lastModified: 1,
  chunkSize: 99_614_720,
  encryptedFileKey: 'AAAA',
  keyVersion,
  chunkSha256: {},
  startedAt: 1,
});

const listed = (uploadId: string, status: UploadItem['status']) => ({ uploadId, status }) as UploadItem;

describe('forgetting records of uploads the server no longer has', () => {
  it('keeps pending ones, forgets finished and unknown ones, and leaves other people’s alone', async () => {
    const server = new FakeCofferServer();
    const store = createMemoryUploadRecords();
    for (const r of [record('pending'), record('done'), record('swept'), record('theirs', 'key-2')]) {
      await store.put(r);
    }
    const kept = await forgetFinishedUploads(
      store,
      [listed('pending', 'pending'), listed('done', 'complete')],
      server.api,
      'key-1',
    );
    expect(kept.map((r) => r.uploadId)).toEqual(['pending']);
    expect((await store.all()).map((r) => r.uploadId).sort()).toEqual(['pending', 'theirs']);
    // Only the upload missing from the list was asked about.
    expect(server.log).toEqual(['GET /api/users/uploads/multipart/swept']);
  });
});
