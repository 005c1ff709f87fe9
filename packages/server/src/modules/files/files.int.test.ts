import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { FileListItem, FileMetadata } from '@coffer/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { insertFile } from '../../test/db-factories.js';
import { createKey, directUploadForm, startMultipart, statsOf, uploadDirect } from './files.test-helpers.js';

describe.each(dialectsUnderTest)('files ($name)', ({ open }) => {
  let database: TestDatabase;
  let t: TestApp;

  beforeAll(async () => {
    database = await open();
    t = await startTestApp({ database });
  });
  afterAll(async () => {
    await t.close();
    await database.destroy();
  });

  const get = (user: string, url: string, headers: Record<string, string> = {}) =>
    t.as(user, { method: 'GET', url, headers });

  it('lists my files newest first and answers their metadata with the encryption info', async () => {
    const keyId = await createKey(t, 'amy');
    const first = await uploadDirect(t, 'amy', {
      keyId,
      size: 10,
      name: 'first.txt',
      contentType: 'text/plain',
    });
    const second = await uploadDirect(t, 'amy', {
      keyId,
      size: 20,
      name: 'second.png',
      contentType: 'image/png',
    });
    const list = await get('amy', '/api/users/files');
    expect(list.json()).toEqual({ files: [second.file, first.file], count: 2 });

    const meta = (await get('amy', `/api/users/files/${first.file.fileId}`)).json<FileMetadata>();
    expect(meta).toMatchObject({
      fileId: first.file.fileId,
      name: 'first.txt',
      originalFilename: 'first.txt',
      contentType: 'text/plain',
      size: 10,
      isEncrypted: true,
      encryptionInfo: {
        version: keyId,
        algorithm: 'AES-GCM',
        iv: '',
        format: 'coffer-v1',
        chunkSize: 99614720,
      },
    });
    expect(meta.encryptionInfo?.encryptedFileKey).toMatch(/^[A-Za-z0-9+/]+=*$/);
  });

  it("answers another user's file exactly like a missing one, on every route", async () => {
    const keyId = await createKey(t, 'bob');
    const { file } = await uploadDirect(t, 'bob', { keyId, size: 10 });
    for (const [method, suffix] of [
      ['GET', ''],
      ['GET', '/download'],
      ['GET', '/shares'],
      ['DELETE', ''],
    ] as const) {
      const missing = await t.as('mal', { method, url: `/api/users/files/no-such-file${suffix}` });
      const foreign = await t.as('mal', { method, url: `/api/users/files/${file.fileId}${suffix}` });
      expect(foreign.statusCode, `${method} ${suffix}`).toBe(404);
      expect(foreign.json()).toEqual(missing.json());
      expect(foreign.json()).toMatchObject({ code: 'FILE_NOT_FOUND' });
    }
    expect((await get('bob', `/api/users/files/${file.fileId}`)).statusCode).toBe(200);
    expect((await get('mal', '/api/users/files')).json()).toEqual({ files: [], count: 0 });
  });

  it('answers byte ranges with 206, and unsatisfiable ones with 416', async () => {
    const keyId = await createKey(t, 'cat');
    const { file, ciphertext } = await uploadDirect(t, 'cat', { keyId, size: 1000 });
    const bytes = Buffer.from(ciphertext);
    const url = `/api/users/files/${file.fileId}/download`;

    const whole = await get('cat', url);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers).toMatchObject({
      'content-type': 'application/octet-stream',
      'content-length': '1028',
      'accept-ranges': 'bytes',
      'content-disposition': 'attachment',
    });
    expect(whole.headers['content-disposition']).not.toContain(file.name);

    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=100-199', 100, 199],
      ['bytes=1000-', 1000, 1027],
      ['bytes=1000-5000', 1000, 1027],
      ['bytes=-28', 1000, 1027],
      ['bytes=-5000', 0, 1027],
      ['bytes=1027-1027', 1027, 1027],
    ];
    for (const [range, start, end] of cases) {
      const res = await get('cat', url, { range });
      expect(res.statusCode, range).toBe(206);
      expect(res.headers['content-range'], range).toBe(`bytes ${start}-${end}/1028`);
      expect(res.headers['content-length'], range).toBe(String(end - start + 1));
      expect(res.rawPayload.equals(bytes.subarray(start, end + 1)), range).toBe(true);
    }
    for (const range of ['bytes=1028-', 'bytes=5000-6000', 'bytes=-0', 'bytes=500-100']) {
      const res = await get('cat', url, { range });
      expect(res.statusCode, range).toBe(416);
      expect(res.headers['content-range'], range).toBe('bytes */1028');
    }
    // Several ranges or another unit: the whole file.
    for (const range of ['bytes=0-1,5-6', 'items=0-1', 'bytes=abc']) {
      const res = await get('cat', url, { range });
      expect(res.statusCode, range).toBe(200);
      expect(res.rawPayload.equals(bytes)).toBe(true);
    }
    const head = await t.as('cat', { method: 'HEAD', url });
    expect(head.statusCode).toBe(404);
  });

  it('counts a download once: from byte 0, not when resuming', async () => {
    const keyId = await createKey(t, 'dee');
    const { file } = await uploadDirect(t, 'dee', { keyId, size: 100 });
    const url = `/api/users/files/${file.fileId}/download`;
    await get('dee', url);
    await get('dee', url, { range: 'bytes=0-9' });
    await get('dee', url, { range: 'bytes=10-' });
    await get('dee', url, { range: 'bytes=-5' });
    expect((await statsOf(t, 'dee')).transfers.downloads.count).toBe(2);
  });

  it('deletes a file: its row, its content and its storage; a second delete is a 404', async () => {
    const keyId = await createKey(t, 'eli');
    const keep = await uploadDirect(t, 'eli', { keyId, size: 10 });
    const { file } = await uploadDirect(t, 'eli', { keyId, size: 1000 });
    expect((await statsOf(t, 'eli')).storage.used).toBe(38 + 1028);
    const objectKey = `u/${file.ownerId}/${file.fileId}`;
    expect(await t.blobStore.stat(objectKey)).toEqual({ size: 1028 });

    const res = await t.as('eli', { method: 'DELETE', url: `/api/users/files/${file.fileId}` });
    expect(res.json()).toEqual({ ok: true });
    expect(await t.blobStore.stat(objectKey)).toBeNull();
    expect((await statsOf(t, 'eli')).storage.used).toBe(38);
    expect((await get('eli', '/api/users/files')).json<{ files: FileListItem[] }>().files).toEqual([
      keep.file,
    ]);
    for (const url of [`/api/users/files/${file.fileId}`, `/api/users/files/${file.fileId}/download`]) {
      expect((await get('eli', url)).json()).toMatchObject({ code: 'FILE_NOT_FOUND' });
    }
    const again = await t.as('eli', { method: 'DELETE', url: `/api/users/files/${file.fileId}` });
    expect(again.statusCode).toBe(404);
  });

  it('answers metadata of an unencrypted file with null encryption info', async () => {
    await createKey(t, 'fin');
    const row = await insertFile(database.db, await userIdOf('fin'), {
      is_encrypted: 0,
      encryption_info: null,
    });
    const meta = await get('fin', `/api/users/files/${row.id}`);
    expect(meta.json()).toMatchObject({ isEncrypted: false, encryptionInfo: null });
  });

  async function userIdOf(name: string): Promise<string> {
    const row = await database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', `${name}@example.test`)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  describe('monthly download limit', () => {
    let limited: TestApp;
    beforeAll(async () => {
      limited = await startTestApp({ database, env: { PLAN_LIMITS_FREE: '{"monthlyDownloadLimit": 2}' } });
    });
    afterAll(() => limited.close());

    it('refuses new downloads once the month’s count is reached, but lets a download resume', async () => {
      const keyId = await createKey(limited, 'gil');
      const { file } = await uploadDirect(limited, 'gil', { keyId, size: 100 });
      const url = `/api/users/files/${file.fileId}/download`;
      expect((await limited.as('gil', { method: 'GET', url })).statusCode).toBe(200);
      expect(
        (await limited.as('gil', { method: 'GET', url, headers: { range: 'bytes=0-9' } })).statusCode,
      ).toBe(206);
      const refused = await limited.as('gil', { method: 'GET', url });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ code: 'DOWNLOAD_FAILED', message: 'Monthly download limit reached' });
      const resumed = await limited.as('gil', { method: 'GET', url, headers: { range: 'bytes=10-' } });
      expect(resumed.statusCode).toBe(206);
      expect((await statsOf(limited, 'gil')).transfers.downloads.count).toBe(2);
    });

    it('counts a range that skips byte 0 of a file not downloaded lately: no range takes a file for free', async () => {
      const keyId = await createKey(limited, 'hal');
      const { file } = await uploadDirect(limited, 'hal', { keyId, size: 100 });
      const url = `/api/users/files/${file.fileId}/download`;
      // Everything but the first byte, with no download of the file before it: a download.
      const skipping = await limited.as('hal', { method: 'GET', url, headers: { range: 'bytes=1-' } });
      expect(skipping.statusCode).toBe(206);
      expect((await statsOf(limited, 'hal')).transfers.downloads.count).toBe(1);
      // Asked again within the day: the resume of that download, not counted again.
      expect(
        (await limited.as('hal', { method: 'GET', url, headers: { range: 'bytes=50-' } })).statusCode,
      ).toBe(206);
      expect((await statsOf(limited, 'hal')).transfers.downloads.count).toBe(1);
      // `bytes=0-0` then the rest: one download.
      expect(
        (await limited.as('hal', { method: 'GET', url, headers: { range: 'bytes=0-0' } })).statusCode,
      ).toBe(206);
      expect((await statsOf(limited, 'hal')).transfers.downloads.count).toBe(2);
      // The month's two are used: a range that skips byte 0 of another file is refused too.
      const { file: other } = await uploadDirect(limited, 'hal', { keyId, size: 100 });
      const refused = await limited.as('hal', {
        method: 'GET',
        url: `/api/users/files/${other.fileId}/download`,
        headers: { range: 'bytes=1-' },
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ code: 'DOWNLOAD_FAILED', message: 'Monthly download limit reached' });
    });
  });

  describe('over real HTTP', () => {
    let base: string;
    beforeAll(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });

      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    // fetch may leave a fresh connection that never carries a request; the server would wait for it.
    afterAll(() => {
      t.app.server.closeAllConnections();
    });

    /** Files of the blob store this process holds open, where Linux tells (0 elsewhere). */
    const openBlobFiles = () => {
      if (!existsSync('/proc/self/fd')) return 0;
      return readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).startsWith(t.dataDir);
        } catch {
          return false;
        }
      }).length;
    };

    it('survives clients that go away mid-download, and releases what the download held', async () => {
      const keyId = await createKey(t, 'hana');
      const { file, ciphertext } = await uploadDirect(t, 'hana', { keyId, size: 6 * 1024 * 1024 });
      const token = await t.tokenFor('hana');
      const url = `${base}/api/users/files/${file.fileId}/download`;
      const before = openBlobFiles();
      for (let i = 0; i < 5; i += 1) {
        const controller = new AbortController();
        const res = await fetch(url, {
          headers: { authorization: `Bearer ${token}` },
          signal: controller.signal,
        });
        expect(res.status).toBe(200);
        const reader = res.body?.getReader();
        await reader?.read();
        // The read is under way: the blob's file is open (where /proc shows it).
        if (existsSync('/proc/self/fd')) expect(openBlobFiles()).toBeGreaterThan(before);
        controller.abort();
        await reader?.read().catch(() => undefined);
      }
      // Give the server a moment to see the closed sockets.
      for (let i = 0; i < 50 && openBlobFiles() > before; i += 1) await new Promise((r) => setTimeout(r, 20));
      expect(openBlobFiles()).toBe(before);

      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      expect(res.headers.get('content-length')).toBe(String(ciphertext.length));
      expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(ciphertext))).toBe(true);
    });

    it('answers a direct upload whose file is too long with a 400, and keeps nothing', async () => {
      const keyId = await createKey(t, 'jo');
      const form = directUploadForm({ keyId, size: 1000, ciphertext: randomBytes(3 * 1024 * 1024) });
      const res = await fetch(`${base}/api/users/uploads/direct`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await t.tokenFor('jo')}`, ...form.headers },
        body: new Uint8Array(form.payload),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect((await statsOf(t, 'jo')).storage.used).toBe(0);
    });

    it('answers a part that is too long with a 400, not a dropped connection', async () => {
      const keyId = await createKey(t, 'ian');
      const upload = await startMultipart(t, 'ian', { keyId, size: 100 });
      const res = await fetch(
        `${base}/api/users/uploads/multipart/${upload.uploadId}/part/1?objectKey=${encodeURIComponent(upload.objectKey)}`,
        {
          method: 'PUT',
          headers: {
            authorization: `Bearer ${await t.tokenFor('ian')}`,
            'content-type': 'application/octet-stream',
          },
          body: new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(randomBytes(100));
              controller.enqueue(randomBytes(100));
              controller.close();
            },
          }),
          duplex: 'half',
        } as RequestInit,
      );
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    });
  });
});
