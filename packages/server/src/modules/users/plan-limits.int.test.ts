/**
 * Every plan limit holds when one user sends many requests at once: each test fires N requests
 * concurrently at a limit of L < N and expects exactly L to pass, then checks that the reservation is
 * released again (abort, failure, idleness) where the limit has one.
 */
import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { MONTHLY_UPLOAD_LIMIT_SERVER_MESSAGE, chunkCountFor } from '@coffer/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { createKey, directUploadForm, statsOf, uploadDirect } from '../files/files.test-helpers.js';
import { encryptionInfoFor, wrappedKeyB64 } from '../../test/factories.js';

/** 0.0001 GB = 107,374 bytes: three 30,000-byte files (30,028 stored) fit, a fourth does not. */
const FREE = {
  storageLimit: 0.0001,
  monthlyUploadLimit: 1000,
  monthlyDownloadLimit: 5,
  maxContacts: 3,
  maxShares: 3,
  maxConcurrentUploads: 10,
};
const PERSONAL = {
  storageLimit: 5,
  monthlyUploadLimit: 12,
  monthlyDownloadLimit: 1000,
  maxContacts: 100,
  maxShares: 100,
  maxConcurrentUploads: 1,
};
const IDLE_MINUTES = 10;
const CONCURRENT = 10;

const statuses = (responses: LightMyRequestResponse[]) => responses.map((r) => r.statusCode).sort();
const count = (responses: LightMyRequestResponse[], status: number) =>
  responses.filter((r) => r.statusCode === status).length;

describe.each(dialectsUnderTest)('plan limits under concurrent requests ($name)', ({ open }) => {
  let database: TestDatabase;
  let t: TestApp;
  let clock = Date.now();

  beforeAll(async () => {
    database = await open();
    t = await startTestApp({
      database,
      env: {
        PLAN_LIMITS_FREE: JSON.stringify(FREE),
        PLAN_LIMITS_PERSONAL: JSON.stringify(PERSONAL),
        UPLOAD_IDLE_MINUTES: String(IDLE_MINUTES),
      },
      overrides: { now: () => new Date(clock) },
    });
  });
  afterAll(async () => {
    await t.close();
    await database.destroy();
  });

  const makePersonal = async (name: string) => {
    await database.db
      .updateTable('users')
      .set({ tier: 'Personal', current_period_end: null })
      .where('email', '=', `${name}@example.test`)
      .execute();
  };
  const startMultipart = (name: string, keyId: string, size: number) =>
    t.as(name, {
      method: 'POST',
      url: '/api/users/uploads/multipart',
      payload: {
        name: 'movie.mp4',
        contentType: 'video/mp4',
        size,
        parts: chunkCountFor(size),
        isEncrypted: true,
        encryptionInfo: encryptionInfoFor(keyId),
      },
    });
  const direct = (name: string, keyId: string, size: number) =>
    t.as(name, {
      method: 'POST',
      url: '/api/users/uploads/direct',
      ...directUploadForm({ keyId, size }),
    });
  const times = <T>(n: number, fn: (i: number) => Promise<T>) =>
    Promise.all(Array.from({ length: n }, (_, i) => fn(i)));

  it('storage quota: 10 concurrent direct uploads into room for 3 store exactly 3', async () => {
    const keyId = await createKey(t, 'sq1');
    const results = await times(CONCURRENT, () => direct('sq1', keyId, 30_000));
    expect(statuses(results)).toEqual([...Array<number>(3).fill(201), ...Array<number>(7).fill(403)]);
    for (const r of results.filter((r) => r.statusCode === 403)) {
      expect(r.json()).toEqual({ code: 'QUOTA_EXCEEDED', message: 'Storage quota exceeded' });
    }
    expect((await statsOf(t, 'sq1')).storage.used).toBe(3 * 30_028);
  });

  it('storage quota: 10 concurrent multipart starts reserve no more than the quota', async () => {
    const keyId = await createKey(t, 'sq2');
    // 50,028 stored bytes each: two fit into 107,374.
    const results = await times(CONCURRENT, () => startMultipart('sq2', keyId, 50_000));
    expect(count(results, 201)).toBe(2);
    expect(count(results, 403)).toBe(8);
    // Aborting one gives its room back at once.
    const first = results.find((r) => r.statusCode === 201)?.json<{ uploadId: string }>();
    const abort = await t.as('sq2', {
      method: 'DELETE',
      url: `/api/users/uploads/multipart/${first?.uploadId ?? ''}`,
    });
    expect(abort.statusCode).toBe(200);
    expect((await startMultipart('sq2', keyId, 50_000)).statusCode).toBe(201);
    expect((await startMultipart('sq2', keyId, 50_000)).statusCode).toBe(403);
  });

  it('concurrent uploads: 10 simultaneous multipart starts with maxConcurrentUploads 1 → 1', async () => {
    const keyId = await createKey(t, 'cu1');
    await makePersonal('cu1');
    const results = await times(CONCURRENT, () => startMultipart('cu1', keyId, 2 * 1024 ** 3));
    expect(count(results, 201)).toBe(1);
    expect(count(results, 429)).toBe(9);
    expect(results.find((r) => r.statusCode === 429)?.json()).toEqual({
      code: 'UPLOAD_FAILED',
      message: 'Too many uploads in progress',
    });
  });

  it('concurrent uploads: an upload idle for UPLOAD_IDLE_MINUTES stops counting; an abort frees it at once', async () => {
    const keyId = await createKey(t, 'cu2');
    await makePersonal('cu2');
    const first = await startMultipart('cu2', keyId, 200 * 1024 ** 2);
    expect(first.statusCode).toBe(201);
    expect((await startMultipart('cu2', keyId, 200 * 1024 ** 2)).statusCode).toBe(429);

    clock += (IDLE_MINUTES + 1) * 60_000;
    const second = await startMultipart('cu2', keyId, 200 * 1024 ** 2);
    expect(second.statusCode).toBe(201);
    expect((await startMultipart('cu2', keyId, 200 * 1024 ** 2)).statusCode).toBe(429);

    const abort = await t.as('cu2', {
      method: 'DELETE',
      url: `/api/users/uploads/multipart/${second.json<{ uploadId: string }>().uploadId}`,
    });
    expect(abort.statusCode).toBe(200);
    expect((await startMultipart('cu2', keyId, 200 * 1024 ** 2)).statusCode).toBe(201);
  });

  it('monthly uploads: 8 uploads, then 10 concurrent with a limit of 12 → exactly 12 counted', async () => {
    const keyId = await createKey(t, 'mu1');
    await makePersonal('mu1');
    for (let i = 0; i < 8; i += 1) await uploadDirect(t, 'mu1', { keyId, size: 10 });
    const results = await times(CONCURRENT, () => direct('mu1', keyId, 10));
    expect(count(results, 201)).toBe(4);
    expect(count(results, 403)).toBe(6);
    expect(results.find((r) => r.statusCode === 403)?.json()).toEqual({
      code: 'UPLOAD_FAILED',
      message: MONTHLY_UPLOAD_LIMIT_SERVER_MESSAGE,
    });
    expect((await statsOf(t, 'mu1')).transfers.uploads.count).toBe(12);
  });

  it('monthly uploads: a failed upload gives its reservation back', async () => {
    const keyId = await createKey(t, 'mu2');
    await makePersonal('mu2');
    for (let i = 0; i < 11; i += 1) await uploadDirect(t, 'mu2', { keyId, size: 10 });
    // The file part is one byte short: refused, and the reservation with it.
    const bad = await t.as('mu2', {
      method: 'POST',
      url: '/api/users/uploads/direct',
      ...directUploadForm({ keyId, size: 10, ciphertext: randomBytes(37) }),
    });
    expect(bad.statusCode).toBe(400);
    const results = await times(CONCURRENT, () => direct('mu2', keyId, 10));
    expect(count(results, 201)).toBe(1);
    expect(count(results, 403)).toBe(9);
  });

  it('monthly downloads: 10 concurrent downloads with a limit of 5 → exactly 5', async () => {
    const keyId = await createKey(t, 'md1');
    const { file } = await uploadDirect(t, 'md1', { keyId, size: 100 });
    const results = await times(CONCURRENT, () =>
      t.as('md1', { method: 'GET', url: `/api/users/files/${file.fileId}/download` }),
    );
    expect(count(results, 200)).toBe(5);
    expect(count(results, 403)).toBe(5);
    expect(results.find((r) => r.statusCode === 403)?.json()).toMatchObject({ code: 'DOWNLOAD_FAILED' });
    expect((await statsOf(t, 'md1')).transfers.downloads.count).toBe(5);
  });

  it('contacts: 10 concurrent adds with a limit of 3 → exactly 3', async () => {
    const results = await times(CONCURRENT, (i) =>
      t.as('ct1', {
        method: 'POST',
        url: '/api/users/contacts',
        payload: { email: `friend${i}@example.test`, name: `Friend ${i}` },
      }),
    );
    expect(count(results, 201)).toBe(3);
    expect(count(results, 403)).toBe(7);
    const list = await t.as('ct1', { method: 'GET', url: '/api/users/contacts' });
    expect(list.json<{ contacts: unknown[] }>().contacts).toHaveLength(3);
  });

  it('shares: 10 concurrent shares with a limit of 3 → exactly 3', async () => {
    const ownerKey = await createKey(t, 'sh1');
    const { file } = await uploadDirect(t, 'sh1', { keyId: ownerKey, size: 100 });
    const recipients = await times(CONCURRENT, async (i) => ({
      email: `sh1r${i}@example.test`,
      keyVersion: await createKey(t, `sh1r${i}`),
    }));
    const results = await Promise.all(
      recipients.map((r) =>
        t.as('sh1', {
          method: 'POST',
          url: `/api/users/files/${file.fileId}/share`,
          payload: { email: r.email, encryptedFileKey: wrappedKeyB64(), keyVersion: r.keyVersion },
        }),
      ),
    );
    expect(count(results, 403), JSON.stringify(statuses(results))).toBe(7);
    expect(results.find((r) => r.statusCode === 403)?.json()).toMatchObject({
      code: 'SHARE_LIMIT_REACHED',
    });
    expect((await statsOf(t, 'sh1')).sharing.count).toBe(3);
  });
});
