import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { createKey, uploadDirect } from '../files/files.test-helpers.js';

// One dialect is enough: this is about what the HTTP layer logs of a link's calls.
const [sqlite] = dialectsUnderTest;

describe('link request logs', () => {
  let database: TestDatabase;
  let t: TestApp;
  const lines: string[] = [];

  beforeAll(async () => {
    if (sqlite === undefined) throw new Error('no SQLite dialect under test');
    database = await sqlite.open();
    t = await startTestApp({
      database,
      env: { LOG_LEVEL: 'info' },
      overrides: { logStream: { write: (line) => lines.push(line) } },
    });
  });
  afterAll(async () => {
    await t.close();
    await database.destroy();
  });

  it('carry neither X-Link-Auth (A) nor the download token', async () => {
    const keyId = await createKey(t, 'logged');
    const { file } = await uploadDirect(t, 'logged', { keyId, size: 100, name: 'a.bin' });
    const auth = randomBytes(32);
    const linkId = randomBytes(16).toString('base64url');
    const created = await t.as('logged', {
      method: 'POST',
      url: '/api/users/links',
      payload: {
        linkId,
        items: [
          { fileId: file.fileId, wrappedKey: randomBytes(60).toString('base64'), encryptedMetadata: 'AAAA' },
        ],
        expiresAt: null,
        maxDownloads: null,
        label: null,
        authKeyHash: createHash('sha256').update(auth).digest('hex'),
        password: null,
        linkRecord: JSON.stringify({ v: 1, type: 'link', linkId }),
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const headers = { 'x-link-auth': auth.toString('base64url') };
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/public/links/${linkId}/open`, headers })).statusCode,
    ).toBe(200);
    const got = await t.app.inject({
      method: 'GET',
      url: `/api/public/links/${linkId}/files/${file.fileId}/download`,
      headers,
    });
    expect(got.statusCode).toBe(200);
    const token = got.headers['x-link-download'] as string;
    const log = lines.join('');
    expect(log).toContain(`/api/public/links/${linkId}/open`);
    for (const secret of [auth.toString('base64url'), auth.toString('hex'), auth.toString('base64'), token]) {
      expect(log).not.toContain(secret);
    }
  });
});
