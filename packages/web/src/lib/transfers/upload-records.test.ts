import { describe, expect, it } from 'vitest';
import {
  createMemoryUploadRecords,
  forgetIdleUploadRecords,
  UPLOAD_RECORD_IDLE_MS,
  type UploadRecord,
} from './upload-records';
import { expiringUploadRecords } from './upload-records.idb';

const HOUR = 60 * 60 * 1000;
const NOW = 1_800_000_000_000;

function record(uploadId: string, startedAt: number, keyVersion = 'key-1'): UploadRecord {
  return {
    uploadId,
    objectKey: `objects/${uploadId}`,
    fileName: `${uploadId}.bin`,
    size: 10,
    lastModified: 1,
    chunkSize: 5,
    encryptedFileKey: 'wrapped',
    keyVersion,
    chunkSha256: {},
    hashScheme: 'sha256-pieces',
    startedAt,
  };
}

describe('idle upload records', () => {
  it('keeps three times the server default of 24 h', () => {
    expect(UPLOAD_RECORD_IDLE_MS).toBe(72 * HOUR);
  });

  it("deletes records idle for longer, whoever's they are, and keeps recently touched ones", async () => {
    const store = createMemoryUploadRecords();
    await store.put(record('fresh', NOW - HOUR));
    await store.put(record('someone-else-old', NOW - 80 * HOUR, 'key-of-another-person'));
    await store.put(record('replaced-key-old', NOW - 100 * HOUR, 'old-key'));
    await store.put(record('old-but-touched', NOW - 100 * HOUR));
    await store.addChunkHash('old-but-touched', 0, 'ab', NOW - 2 * HOUR);
    expect(await forgetIdleUploadRecords(store, NOW)).toBe(2);
    expect((await store.all()).map((r) => r.uploadId).sort()).toEqual(['fresh', 'old-but-touched']);
  });

  it('sweeps once, before the first read of the store the app opens', async () => {
    const store = createMemoryUploadRecords();
    await store.put(record('stale', NOW - 73 * HOUR));
    await store.put(record('live', NOW - 71 * HOUR));
    const expiring = expiringUploadRecords(store, () => NOW);
    expect((await expiring.all()).map((r) => r.uploadId)).toEqual(['live']);
    // A record put later is not swept again, however old it claims to be.
    await expiring.put(record('later', NOW - 100 * HOUR));
    expect(await expiring.get('later')).toBeDefined();
  });
});
