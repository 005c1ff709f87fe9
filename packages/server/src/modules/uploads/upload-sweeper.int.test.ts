import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, nowIso } from '../../infra/db/values.js';
import type { BlobStore } from '../../infra/storage/blob-store.js';
import { createFsBlobStore } from '../../infra/storage/blob-store.fs.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { insertUser } from '../../test/db-factories.js';
import { createUploadSweeper } from './upload-sweeper.js';
import { createUploadsRepo } from './uploads.repo.js';

const STALE = 40;

/** A blob store that counts what each sweeper asks it to remove, and lets other calls through. */
function counting(store: BlobStore, deletes: string[], aborts: string[]): BlobStore {
  return {
    ...store,
    delete: async (key) => {
      deletes.push(key);
      await store.delete(key);
    },
    abortMultipart: async (key, uploadId) => {
      aborts.push(uploadId);
      await store.abortMultipart(key, uploadId);
    },
  };
}

describe.each(dialectsUnderTest)('two upload sweepers on one $name database ($backend)', ({ open }) => {
  let t: TestDatabase;
  let root: string;
  let store: BlobStore;
  beforeAll(async () => {
    t = await open();
    root = mkdtempSync(join(tmpdir(), 'coffer-sweepers-'));
    store = createFsBlobStore({ root });
  });
  afterAll(async () => {
    await t.destroy();
    rmSync(root, { recursive: true, force: true });
  });

  it('each stale upload is claimed by exactly one sweeper, and its data removed once', async () => {
    const user = await insertUser(t.db);
    const longAgo = nowIso(new Date(Date.now() - 48 * 3600 * 1000));
    const keys: string[] = [];
    const storageIds: string[] = [];
    for (let i = 0; i < STALE; i += 1) {
      const id = newId();
      const objectKey = `u/${user.id}/${id}`;
      // Half are multipart uploads with an open storage upload, half direct ones whose object was stored.
      const storageUploadId = i % 2 === 0 ? (await store.createMultipart(objectKey)).uploadId : null;
      if (storageUploadId === null)
        await store.put(objectKey, Readable.from([new Uint8Array([i])]), { size: 1 });
      else storageIds.push(storageUploadId);
      keys.push(objectKey);
      await t.db
        .insertInto('uploads')
        .values({
          id,
          user_id: user.id,
          file_name: `f${i}.bin`,
          content_type: 'application/octet-stream',
          size: 1,
          stored_size: 29,
          is_encrypted: 1,
          encryption_info: null,
          object_key: objectKey,
          storage_upload_id: storageUploadId,
          kind: storageUploadId === null ? 'direct' : 'multipart',
          status: 'pending',
          parts: 1,
          file_id: null,
          created_at: longAgo,
          updated_at: longAgo,
        })
        .execute();
    }

    const deletes: string[][] = [[], []];
    const aborts: string[][] = [[], []];
    // Two instances' sweepers, each with its own repository, started on the same tick.
    const sweepers = [0, 1].map((n) =>
      createUploadSweeper({
        repo: createUploadsRepo(t.db),
        blobStore: counting(store, deletes[n] ?? [], aborts[n] ?? []),
        expiryHours: 24,
        idleMinutes: 10,
        logger: { info: () => undefined, warn: () => undefined },
        now: () => new Date(),
      }),
    );
    const swept = await Promise.all(sweepers.map((s) => s.sweep()));

    expect(swept.reduce((a, b) => a + b, 0)).toBe(STALE);
    const allDeletes = deletes.flat();
    expect(allDeletes.sort()).toEqual([...keys].sort());
    expect(aborts.flat().sort()).toEqual([...storageIds].sort());
    const statuses = await t.db
      .selectFrom('uploads')
      .select('status')
      .where('user_id', '=', user.id)
      .execute();
    expect(statuses.every((row) => row.status === 'aborted')).toBe(true);
    for (const key of keys) expect(await store.stat(key)).toBeNull();
  });
});
