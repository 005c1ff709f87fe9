import type { FileMetadata, SharedFileMetadata } from '@coffer/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MailDeliveryError } from '../../infra/mail/mailer.js';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { insertFile } from '../../test/db-factories.js';
import { createKey, statsOf, uploadDirect } from '../files/files.test-helpers.js';
import { wrappedKeyB64 } from '../../test/factories.js';

describe.each(dialectsUnderTest)('shares ($name)', ({ open }) => {
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

  const share = (app: TestApp, owner: string, fileId: string, body: object) =>
    app.as(owner, { method: 'POST', url: `/api/users/files/${fileId}/share`, payload: body });
  const get = (user: string, url: string) => t.as(user, { method: 'GET', url });
  const sharedRoutes = (fileId: string) => [
    `/api/users/files/shared/${fileId}`,
    `/api/users/files/shared/${fileId}/download`,
  ];

  /** An owner with one uploaded file and a recipient with a key; `prefix` keeps users apart per test. */
  async function setUp(prefix: string) {
    const owner = `${prefix}-owner`;
    const recipient = `${prefix}-rcpt`;
    const ownerKey = await createKey(t, owner);
    const recipientKey = await createKey(t, recipient);
    const upload = await uploadDirect(t, owner, { keyId: ownerKey, size: 1000, name: 'secret-plans.pdf' });
    return { owner, recipient, recipientKey, ...upload };
  }

  it('gives the recipient the file, their own copy of the key, and the same bytes', async () => {
    const { owner, recipient, recipientKey, file, ciphertext } = await setUp('a');
    const ownerMeta = (await get(owner, `/api/users/files/${file.fileId}`)).json<FileMetadata>();
    const recipientCopy = wrappedKeyB64();
    const mailsBefore = t.mailer.sent.length;

    const res = await share(t, owner, file.fileId, {
      email: `${recipient}@example.test`,
      encryptedFileKey: recipientCopy,
      keyVersion: recipientKey,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ ok: true });

    const list = await get(recipient, '/api/users/files/shared');
    expect(list.json()).toEqual({
      files: [
        {
          fileId: file.fileId,
          owner: `${owner}@example.test`,
          file: {
            name: 'secret-plans.pdf',
            contentType: 'application/pdf',
            size: 1000,
            uploadedAt: file.uploadedAt,
            isEncrypted: true,
          },
        },
      ],
    });

    const meta = await get(recipient, `/api/users/files/shared/${file.fileId}`);
    expect(meta.statusCode).toBe(200);
    const body = meta.json<SharedFileMetadata>();
    expect(body.owner).toBe(`${owner}@example.test`);
    expect(body.encryptedFileKey).toBe(recipientCopy);
    expect(body.file).toMatchObject({ fileId: file.fileId, name: 'secret-plans.pdf', size: 1000 });
    expect(body.file.encryptionInfo).toEqual({
      ...ownerMeta.encryptionInfo,
      version: recipientKey,
      encryptedFileKey: recipientCopy,
    });
    // Nothing of the owner's wrapped key reaches the recipient.
    expect(meta.body).not.toContain(ownerMeta.encryptionInfo?.encryptedFileKey ?? 'none');

    const bytes = await get(recipient, `/api/users/files/shared/${file.fileId}/download`);
    expect(bytes.statusCode).toBe(200);
    expect(bytes.rawPayload.equals(Buffer.from(ciphertext))).toBe(true);
    const range = await t.as(recipient, {
      method: 'GET',
      url: `/api/users/files/shared/${file.fileId}/download`,
      headers: { range: 'bytes=1000-' },
    });
    expect(range.statusCode).toBe(206);
    expect(range.rawPayload.equals(Buffer.from(ciphertext).subarray(1000))).toBe(true);

    expect((await get(owner, `/api/users/files/${file.fileId}/shares`)).json()).toEqual({
      shares: [{ email: `${recipient}@example.test`, name: 'A-rcpt' }],
    });
    expect((await statsOf(t, owner)).sharing.count).toBe(1);
    // The download counts for whoever downloads.
    expect((await statsOf(t, recipient)).transfers.downloads.count).toBe(1);
    expect((await statsOf(t, owner)).transfers.downloads.count).toBe(0);

    const mails = t.mailer.sent.slice(mailsBefore);
    expect(mails).toHaveLength(1);
    const mail = mails[0];
    expect(mail?.to).toBe(`${recipient}@example.test`);
    expect(mail?.text).toContain(`http://coffer.test/share/${file.fileId}`);
    for (const part of [mail?.subject, mail?.text, mail?.html]) expect(part).not.toContain('secret-plans');
  });

  it('hides shared files from everyone else, and lets only the owner manage shares', async () => {
    const { owner, recipient, recipientKey, file } = await setUp('b');
    await share(t, owner, file.fileId, {
      email: `${recipient}@example.test`,
      encryptedFileKey: wrappedKeyB64(),
      keyVersion: recipientKey,
    });
    const strangerKey = await createKey(t, 'b-stranger');
    for (const url of sharedRoutes(file.fileId)) {
      const missing = await get('b-stranger', url.replace(file.fileId, 'no-such-file'));
      const foreign = await get('b-stranger', url);
      expect(foreign.statusCode, url).toBe(404);
      expect(foreign.json()).toEqual(missing.json());
      expect(foreign.json()).toMatchObject({ code: 'FILE_NOT_FOUND' });
    }
    // The owner's file is not "shared with" the owner.
    expect((await get(owner, `/api/users/files/shared/${file.fileId}`)).statusCode).toBe(404);
    expect((await get('b-stranger', '/api/users/files/shared')).json()).toEqual({ files: [] });

    // Neither the recipient nor a stranger may share, list or revoke the owner's file.
    for (const user of [recipient, 'b-stranger']) {
      const reshare = await share(t, user, file.fileId, {
        email: 'b-stranger@example.test',
        encryptedFileKey: wrappedKeyB64(),
        keyVersion: strangerKey,
      });
      expect(reshare.statusCode).toBe(404);
      expect(reshare.json()).toMatchObject({ code: 'FILE_NOT_FOUND' });
      expect((await get(user, `/api/users/files/${file.fileId}/shares`)).statusCode).toBe(404);
      const revoke = await t.as(user, {
        method: 'DELETE',
        url: `/api/users/files/${file.fileId}/share/${encodeURIComponent(`${recipient}@example.test`)}`,
      });
      expect(revoke.statusCode).toBe(404);
      expect(
        (await t.as(user, { method: 'DELETE', url: `/api/users/files/${file.fileId}` })).statusCode,
      ).toBe(404);
    }
    expect((await get(recipient, `/api/users/files/shared/${file.fileId}`)).statusCode).toBe(200);
  });

  it('makes a revoked share disappear for the recipient at once', async () => {
    const { owner, recipient, recipientKey, file } = await setUp('c');
    await share(t, owner, file.fileId, {
      email: `${recipient}@example.test`,
      encryptedFileKey: wrappedKeyB64(),
      keyVersion: recipientKey,
    });
    const revokeUrl = `/api/users/files/${file.fileId}/share/${encodeURIComponent(`${recipient.toUpperCase()}@EXAMPLE.TEST`)}`;
    const revoked = await t.as(owner, { method: 'DELETE', url: revokeUrl });
    expect(revoked.json()).toEqual({ ok: true });
    for (const url of sharedRoutes(file.fileId)) {
      const res = await get(recipient, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ code: 'FILE_NOT_FOUND' });
    }
    expect((await get(recipient, '/api/users/files/shared')).json()).toEqual({ files: [] });
    expect((await get(owner, `/api/users/files/${file.fileId}/shares`)).json()).toEqual({ shares: [] });
    expect((await statsOf(t, owner)).sharing.count).toBe(0);
    const again = await t.as(owner, { method: 'DELETE', url: revokeUrl });
    expect(again.statusCode).toBe(404);
    // Sharing again works.
    const reshared = await share(t, owner, file.fileId, {
      email: `${recipient}@example.test`,
      encryptedFileKey: wrappedKeyB64(),
      keyVersion: recipientKey,
    });
    expect(reshared.statusCode).toBe(201);
  });

  it('makes a deleted file disappear for the recipient at once', async () => {
    const { owner, recipient, recipientKey, file } = await setUp('d');
    await share(t, owner, file.fileId, {
      email: `${recipient}@example.test`,
      encryptedFileKey: wrappedKeyB64(),
      keyVersion: recipientKey,
    });
    await t.as(owner, { method: 'DELETE', url: `/api/users/files/${file.fileId}` });
    for (const url of sharedRoutes(file.fileId)) {
      expect((await get(recipient, url)).json(), url).toMatchObject({ code: 'FILE_NOT_FOUND' });
    }
    expect((await get(recipient, '/api/users/files/shared')).json()).toEqual({ files: [] });
    expect((await statsOf(t, owner)).sharing.count).toBe(0);
  });

  it('refuses recipients who cannot receive the file', async () => {
    const { owner, recipient, recipientKey, file } = await setUp('e');
    // A user without keys.
    await get('e-nokey', '/api/users/stats');
    await new Promise((r) => setTimeout(r, 5));
    const newerKey = await createKey(t, recipient);
    const ownerKeyVersion = (await get(owner, '/api/users/keys/active')).json<{ keyId: string }>().keyId;
    const cases = [
      { email: 'nobody@example.test', keyVersion: recipientKey },
      { email: 'e-nokey@example.test', keyVersion: recipientKey },
      // Wrapped with an older key of the recipient: they could not open it with their active key.
      { email: `${recipient}@example.test`, keyVersion: recipientKey },
      { email: `${owner}@example.test`, keyVersion: ownerKeyVersion },
    ];
    for (const body of cases) {
      const res = await share(t, owner, file.fileId, { ...body, encryptedFileKey: wrappedKeyB64() });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_RECIPIENT' });
    }
    const bad = await share(t, owner, file.fileId, {
      email: 'not-an-email',
      encryptedFileKey: 'x',
      keyVersion: 'k',
    });
    expect(bad.statusCode).toBe(400);
    expect((await get(owner, `/api/users/files/${file.fileId}/shares`)).json()).toEqual({ shares: [] });

    // Email case does not matter.
    const ok = await share(t, owner, file.fileId, {
      email: `${recipient.toUpperCase()}@Example.Test`,
      encryptedFileKey: wrappedKeyB64(),
      keyVersion: newerKey,
    });
    expect(ok.statusCode).toBe(201);
    const dup = await share(t, owner, file.fileId, {
      email: `${recipient}@example.test`,
      encryptedFileKey: wrappedKeyB64(),
      keyVersion: newerKey,
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'ALREADY_SHARED' });
  });

  it('refuses to share an unencrypted file', async () => {
    const { owner, recipient, recipientKey } = await setUp('f');
    const ownerId = (
      await database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', `${owner}@example.test`)
        .executeTakeFirstOrThrow()
    ).id;
    const plain = await insertFile(database.db, ownerId, { is_encrypted: 0, encryption_info: null });
    const res = await share(t, owner, plain.id, {
      email: `${recipient}@example.test`,
      encryptedFileKey: wrappedKeyB64(),
      keyVersion: recipientKey,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_OPERATION' });
  });

  it("names recipients by the owner's contact name, else their account name, else their email", async () => {
    const { owner, recipientKey, recipient, file } = await setUp('g');
    const otherKey = await createKey(t, 'g-other');
    const thirdKey = await createKey(t, 'g-third');
    await t.as(owner, {
      method: 'POST',
      url: '/api/users/contacts',
      payload: { email: `${recipient}@example.test`, name: 'My Accountant' },
    });
    await database.db
      .updateTable('users')
      .set({ name: null })
      .where('email', '=', 'g-third@example.test')
      .execute();
    for (const [email, keyVersion] of [
      [`${recipient}@example.test`, recipientKey],
      ['g-other@example.test', otherKey],
      ['g-third@example.test', thirdKey],
    ] as const) {
      const res = await share(t, owner, file.fileId, {
        email,
        keyVersion,
        encryptedFileKey: wrappedKeyB64(),
      });
      expect(res.statusCode).toBe(201);
    }
    const list = (await get(owner, `/api/users/files/${file.fileId}/shares`)).json<{ shares: unknown[] }>();
    expect(list.shares).toEqual(
      expect.arrayContaining([
        { email: `${recipient}@example.test`, name: 'My Accountant' },
        { email: 'g-other@example.test', name: 'G-other' },
        { email: 'g-third@example.test', name: 'g-third@example.test' },
      ]),
    );
    expect(list.shares).toHaveLength(3);
  });

  it('keeps the share when the notification mail cannot be sent', async () => {
    const { owner, recipient, recipientKey, file } = await setUp('h');
    const send = vi
      .spyOn(t.mailer, 'send')
      .mockRejectedValueOnce(new MailDeliveryError('Mail delivery failed: server down', 'unavailable'));
    try {
      const res = await share(t, owner, file.fileId, {
        email: `${recipient}@example.test`,
        encryptedFileKey: wrappedKeyB64(),
        keyVersion: recipientKey,
      });
      expect(res.statusCode).toBe(201);
      expect(send).toHaveBeenCalledOnce();
    } finally {
      send.mockRestore();
    }
    expect((await get(recipient, '/api/users/files/shared')).json<{ files: unknown[] }>().files).toHaveLength(
      1,
    );
  });

  describe('several files with one person in one action (POST /users/shares)', () => {
    const shareAll = (app: TestApp, owner: string, body: object) =>
      app.as(owner, { method: 'POST', url: '/api/users/shares', payload: body });
    const item = (fileId: string, keyVersion: string) => ({
      fileId,
      encryptedFileKey: wrappedKeyB64(),
      keyVersion,
    });

    it('shares four files and sends one mail that tells how many, naming none', async () => {
      const { owner, recipient, recipientKey, file } = await setUp('m');
      const ownerKey = await createKey(t, owner);
      const others = await Promise.all(
        [1, 2, 3].map(async (n) => {
          const upload = await uploadDirect(t, owner, { keyId: ownerKey, size: 10, name: `plan-${n}.pdf` });
          return upload.file.fileId;
        }),
      );
      const fileIds = [file.fileId, ...others];
      const mailsBefore = t.mailer.sent.length;

      const res = await shareAll(t, owner, {
        email: `${recipient}@example.test`,
        files: fileIds.map((id) => item(id, recipientKey)),
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toEqual({ ok: true });

      const listed = (await get(recipient, '/api/users/files/shared')).json<{
        files: { fileId: string }[];
      }>();
      expect(listed.files.map((f) => f.fileId).sort()).toEqual([...fileIds].sort());
      expect((await statsOf(t, owner)).sharing.count).toBe(4);
      const mails = t.mailer.sent.slice(mailsBefore);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.to).toBe(`${recipient}@example.test`);
      expect(mails[0]?.subject).toContain('shared 4 files with you');
      expect(mails[0]?.text).toContain('http://coffer.test/sharedwithme');
      for (const part of [mails[0]?.subject, mails[0]?.text, mails[0]?.html]) {
        expect(part).not.toMatch(/secret-plans|plan-\d/);
      }
    });

    it('refuses a malformed or repeated list, and shares nothing of a list with a bad file', async () => {
      const { owner, recipient, recipientKey, file } = await setUp('n');
      const email = `${recipient}@example.test`;
      for (const body of [
        { email, files: [] },
        { email, files: Array.from({ length: 101 }, () => item(file.fileId, recipientKey)) },
        { email, files: [{ ...item(file.fileId, recipientKey), name: 'x' }] },
        { email, files: [item(file.fileId, recipientKey), item(file.fileId, recipientKey)] },
      ]) {
        const res = await shareAll(t, owner, body);
        expect(res.statusCode, res.body).toBe(400);
        const refusal = res.json<{ code?: unknown; message?: unknown }>();
        expect(typeof refusal.code).toBe('string');
        expect(typeof refusal.message).toBe('string');
      }
      const mailsBefore = t.mailer.sent.length;
      const missing = await shareAll(t, owner, {
        email,
        files: [item(file.fileId, recipientKey), item('00000000-0000-4000-8000-000000000000', recipientKey)],
      });
      expect(missing.statusCode).toBe(404);
      expect((await get(recipient, '/api/users/files/shared')).json()).toEqual({ files: [] });
      expect(t.mailer.sent.length).toBe(mailsBefore);
    });
  });

  describe('share limit', () => {
    let limited: TestApp;
    beforeAll(async () => {
      limited = await startTestApp({ database, env: { PLAN_LIMITS_FREE: '{"maxShares": 1}' } });
    });
    afterAll(() => limited.close());

    it('refuses shares beyond the plan’s maxShares', async () => {
      const ownerKey = await createKey(limited, 'i-owner');
      const k1 = await createKey(limited, 'i-one');
      const k2 = await createKey(limited, 'i-two');
      const { file } = await uploadDirect(limited, 'i-owner', { keyId: ownerKey, size: 10 });
      const first = await share(limited, 'i-owner', file.fileId, {
        email: 'i-one@example.test',
        encryptedFileKey: wrappedKeyB64(),
        keyVersion: k1,
      });
      expect(first.statusCode).toBe(201);
      const second = await share(limited, 'i-owner', file.fileId, {
        email: 'i-two@example.test',
        encryptedFileKey: wrappedKeyB64(),
        keyVersion: k2,
      });
      expect(second.statusCode).toBe(403);
      expect(second.json()).toMatchObject({ code: 'SHARE_LIMIT_REACHED' });
      expect((await statsOf(limited, 'i-owner')).sharing.count).toBe(1);
    });

    it('shares none of a batch that would pass maxShares', async () => {
      const ownerKey = await createKey(limited, 'j-owner');
      const k1 = await createKey(limited, 'j-one');
      const files = await Promise.all(
        [1, 2].map(async () => (await uploadDirect(limited, 'j-owner', { keyId: ownerKey, size: 10 })).file),
      );
      const mailsBefore = limited.mailer.sent.length;
      const res = await limited.as('j-owner', {
        method: 'POST',
        url: '/api/users/shares',
        payload: {
          email: 'j-one@example.test',
          files: files.map((f) => ({ fileId: f.fileId, encryptedFileKey: wrappedKeyB64(), keyVersion: k1 })),
        },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'SHARE_LIMIT_REACHED' });
      expect((await statsOf(limited, 'j-owner')).sharing.count).toBe(0);
      expect(limited.mailer.sent.length).toBe(mailsBefore);
    });
  });
});
