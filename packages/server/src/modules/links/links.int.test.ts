import { createHash, randomBytes } from 'node:crypto';
import type { LinksResponse, OpenedLink } from '@coffer/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { createKey, uploadDirect } from '../files/files.test-helpers.js';
import { createLinksRepo } from './links.repo.js';
import { createLinksService } from './links.service.js';

// Share links through the API: owner calls, the public page's calls, and the attacks of issue 30
// (guessed ids, online password guessing, revoked / expired / used-up links, racing and resumed
// downloads, another user's links). The proof A is random bytes here: the server only sees its hash.

const newLinkId = () => randomBytes(16).toString('base64url');
const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const b64 = (n: number) => randomBytes(n).toString('base64');
const HOUR = 60 * 60 * 1000;

describe.each(dialectsUnderTest)('links ($name)', ({ open }) => {
  let database: TestDatabase;
  let t: TestApp;
  let clock = new Date('2026-06-01T12:00:00.000Z');

  beforeAll(async () => {
    database = await open();
    t = await startTestApp({ database, overrides: { now: () => clock } });
  });
  afterAll(async () => {
    await t.close();
    await database.destroy();
  });

  interface LinkOptions {
    expiresAt?: string | null;
    maxDownloads?: number | null;
    password?: boolean;
  }

  /** An owner with `files` uploaded files and a link to all of them; returns A as base64url. */
  async function setUp(prefix: string, options: LinkOptions = {}, files = 1) {
    const owner = `${prefix}-owner`;
    const keyId = await createKey(t, owner);
    const uploads = [];
    for (let i = 0; i < files; i++)
      uploads.push(await uploadDirect(t, owner, { keyId, size: 1000 + i, name: `f${i}.bin` }));
    const authKey = randomBytes(32);
    const linkId = newLinkId();
    const body = {
      linkId,
      items: uploads.map(({ file }) => ({
        fileId: file.fileId,
        wrappedKey: b64(60),
        encryptedMetadata: b64(60),
      })),
      expiresAt: options.expiresAt ?? null,
      maxDownloads: options.maxDownloads ?? null,
      label: null,
      authKeyHash: sha256Hex(authKey),
      password:
        options.password === true
          ? {
              salt: b64(16),
              kdf: { name: 'Argon2id', version: 19, memoryKiB: 65536, passes: 3, parallelism: 1 },
            }
          : null,
      linkRecord: JSON.stringify({ v: 1, type: 'link', linkId }),
    };
    const res = await t.as(owner, { method: 'POST', url: '/api/users/links', payload: body });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ linkId });
    return { owner, keyId, linkId, auth: authKey.toString('base64url'), uploads, body };
  }

  const info = (linkId: string) => t.as(null, { method: 'GET', url: `/api/public/links/${linkId}` });
  const openLink = (linkId: string, auth?: string, ip = '127.0.0.1') =>
    t.app.inject({
      method: 'POST',
      url: `/api/public/links/${linkId}/open`,
      headers: auth === undefined ? {} : { 'x-link-auth': auth },
      remoteAddress: ip,
    });
  const download = (linkId: string, fileId: string, auth: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'GET',
      url: `/api/public/links/${linkId}/files/${fileId}/download`,
      headers: { 'x-link-auth': auth, ...headers },
    });

  /** Every public call of a link, with a right proof: all must be the one 404 when the link serves nothing. */
  async function publicAnswers(linkId: string, fileId: string, auth: string) {
    return [await info(linkId), await openLink(linkId, auth), await download(linkId, fileId, auth)];
  }
  let unknownAnswer: { status: number; body: string; type: string | undefined } | undefined;
  function expectUnavailable(responses: Awaited<ReturnType<typeof publicAnswers>>) {
    for (const res of responses) {
      const answer = {
        status: res.statusCode,
        body: res.body,
        type: res.headers['content-type'] as string | undefined,
      };
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body)).toEqual({
        code: 'LINK_UNAVAILABLE',
        message: 'This link is not available.',
      });
      unknownAnswer ??= answer;
      expect(answer).toEqual(unknownAnswer);
    }
  }

  it('serves the granted file to a caller with A, with no-store and no-referrer, and the owner keys', async () => {
    const { owner, linkId, auth, uploads } = await setUp('serve');
    const infoRes = await info(linkId);
    expect(infoRes.statusCode).toBe(200);
    expect(infoRes.json()).toEqual({ password: null });
    const opened = await openLink(linkId, auth);
    expect(opened.statusCode, opened.body).toBe(200);
    const link = opened.json<OpenedLink>();
    expect(link.ownerEmail).toBe(`${owner}@example.test`);
    expect(link.items.map((item) => item.fileId)).toEqual([uploads[0]?.file.fileId]);
    for (const res of [infoRes, opened]) {
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
    const fileId = uploads[0]?.file.fileId ?? '';
    const got = await download(linkId, fileId, auth);
    expect(got.statusCode).toBe(200);
    expect(got.headers['cache-control']).toBe('no-store');
    expect(got.headers['referrer-policy']).toBe('no-referrer');
    expect(Buffer.from(got.rawPayload).equals(Buffer.from(uploads[0]?.ciphertext ?? []))).toBe(true);
  });

  it('answers guessed ids exactly like revoked, expired and used-up links, whatever the proof', async () => {
    const fileId = '00000000-0000-4000-8000-000000000000';
    for (let i = 0; i < 20; i++)
      expectUnavailable(await publicAnswers(newLinkId(), fileId, randomBytes(32).toString('base64url')));

    const revoked = await setUp('revoked');
    const revokedFile = revoked.uploads[0]?.file.fileId ?? '';
    expect((await openLink(revoked.linkId, revoked.auth)).statusCode).toBe(200);
    const del = await t.as(revoked.owner, { method: 'DELETE', url: `/api/users/links/${revoked.linkId}` });
    expect(del.statusCode).toBe(200);
    expectUnavailable(await publicAnswers(revoked.linkId, revokedFile, revoked.auth));

    const expiring = await setUp('expiring', { expiresAt: new Date(clock.getTime() + HOUR).toISOString() });
    const expiringFile = expiring.uploads[0]?.file.fileId ?? '';
    expect((await openLink(expiring.linkId, expiring.auth)).statusCode).toBe(200);
    const before = clock;
    clock = new Date(clock.getTime() + HOUR);
    try {
      expectUnavailable(await publicAnswers(expiring.linkId, expiringFile, expiring.auth));
    } finally {
      clock = before;
    }

    const once = await setUp('once', { maxDownloads: 1 });
    const onceFile = once.uploads[0]?.file.fileId ?? '';
    expect((await download(once.linkId, onceFile, once.auth)).statusCode).toBe(200);
    expectUnavailable(await publicAnswers(once.linkId, onceFile, once.auth));
    const listed = (await t.as(once.owner, { method: 'GET', url: '/api/users/links' })).json<LinksResponse>();
    expect(listed.links[0]).toMatchObject({
      linkId: once.linkId,
      state: 'exhausted',
      downloadsUsed: 1,
      downloadsLeft: 0,
    });
  });

  it("takes none of a link's downloads for a HEAD (a link preview, a checker): no such route", async () => {
    const once = await setUp('head', { maxDownloads: 1 });
    const fileId = once.uploads[0]?.file.fileId ?? '';
    const head = await t.app.inject({
      method: 'HEAD',
      url: `/api/public/links/${once.linkId}/files/${fileId}/download`,
      headers: { 'x-link-auth': once.auth },
    });
    expect(head.statusCode).toBe(404);
    expect((await download(once.linkId, fileId, once.auth)).statusCode).toBe(200);
  });

  it('refuses a wrong proof with 401 and rate-limits guessing per link (429, Retry-After), even the right proof then', async () => {
    const { linkId, auth } = await setUp('guess', { password: true });
    expect((await info(linkId)).json()).toMatchObject({ password: { kdf: { name: 'Argon2id' } } });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (await openLink(linkId, randomBytes(32).toString('base64url'), `10.0.0.${i}`)).statusCode,
      );
    }
    expect(statuses.slice(0, 9)).toEqual(Array<number>(9).fill(401));
    expect(statuses.at(-1)).toBe(429);
    const blocked = await openLink(linkId, auth, '10.0.1.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toMatch(/^\d+$/);
    expect((await openLink(linkId, undefined, '10.0.1.2')).statusCode).toBe(429);
  });

  it('rate-limits wrong proofs per client address across links', async () => {
    const links = [];
    for (let i = 0; i < 4; i++) links.push(await setUp(`addr${i}`));
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) {
      const link = links[i % links.length];
      statuses.push(
        (await openLink(link?.linkId ?? '', randomBytes(32).toString('base64url'), '10.9.9.9')).statusCode,
      );
    }
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(30)).toEqual([429, 429]);
    // Another address with the right proof is not held up.
    expect((await openLink(links[0]?.linkId ?? '', links[0]?.auth, '10.9.9.10')).statusCode).toBe(200);
  });

  it('stores nothing from which A, the secret or the password could be tested: only SHA-256(A), salt and KDF', async () => {
    const { linkId, auth, body } = await setUp('stored', { password: true });
    const row = await database.db
      .selectFrom('links')
      .selectAll()
      .where('id', '=', linkId)
      .executeTakeFirstOrThrow();
    expect(row.auth_key_hash).toBe(sha256Hex(Buffer.from(auth, 'base64url')));
    const authForms = [
      auth,
      Buffer.from(auth, 'base64url').toString('base64'),
      Buffer.from(auth, 'base64url').toString('hex'),
    ];
    const stored = JSON.stringify(row);
    for (const form of authForms) expect(stored).not.toContain(form);
    // Besides the hash, the row holds the salt and KDF (public inputs) and what the owner sent sealed.
    expect(Object.keys(row).sort()).toEqual(
      [
        'auth_key_hash',
        'created_at',
        'downloads_used',
        'expires_at',
        'id',
        'label',
        'last_used_at',
        'link_record',
        'max_downloads',
        'owner_id',
        'owner_key_id',
        'password_kdf',
        'password_salt',
        'updated_at',
      ].sort(),
    );
    expect(row.password_salt).toBe(body.password?.salt);
  });

  it('gives the last download to exactly one of two racing clients', async () => {
    const { linkId, auth, uploads } = await setUp('race', { maxDownloads: 1 });
    const fileId = uploads[0]?.file.fileId ?? '';
    const results = await Promise.all([download(linkId, fileId, auth), download(linkId, fileId, auth)]);
    expect(results.map((res) => res.statusCode).sort()).toEqual([200, 404]);
  });

  it('counts a resumed Range download once (with its token), and a Range without the token as a new download', async () => {
    const { linkId, auth, uploads } = await setUp('resume', { maxDownloads: 2 });
    const fileId = uploads[0]?.file.fileId ?? '';
    const ciphertext = Buffer.from(uploads[0]?.ciphertext ?? []);
    const first = await download(linkId, fileId, auth, { range: 'bytes=0-99' });
    expect(first.statusCode).toBe(206);
    const token = first.headers['x-link-download'] as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rest = await download(linkId, fileId, auth, { range: 'bytes=100-', 'x-link-download': token });
    expect(rest.statusCode).toBe(206);
    expect(rest.headers['x-link-download']).toBeUndefined();
    expect(Buffer.concat([first.rawPayload, rest.rawPayload]).equals(ciphertext)).toBe(true);
    const used = () =>
      database.db
        .selectFrom('links')
        .select('downloads_used')
        .where('id', '=', linkId)
        .executeTakeFirstOrThrow();
    expect((await used()).downloads_used).toBe(1);
    // Skipping byte 0 without a token is a download of its own.
    expect((await download(linkId, fileId, auth, { range: 'bytes=1-' })).statusCode).toBe(206);
    expect((await used()).downloads_used).toBe(2);
    expect((await download(linkId, fileId, auth, { range: 'bytes=1-' })).statusCode).toBe(404);
    // The token of a counted download still resumes it after the last one is used.
    expect(
      (await download(linkId, fileId, auth, { range: 'bytes=500-', 'x-link-download': token })).statusCode,
    ).toBe(206);
  });

  it('counts one download per session of a multi-file link: every file of it once, a restart again', async () => {
    const { linkId, auth, uploads } = await setUp('session', { maxDownloads: 2 }, 3);
    const ids = uploads.map((upload) => upload.file.fileId);
    const used = async () =>
      (
        await database.db
          .selectFrom('links')
          .select('downloads_used')
          .where('id', '=', linkId)
          .executeTakeFirstOrThrow()
      ).downloads_used;
    const session = randomBytes(32).toString('base64url');
    for (const [index, fileId] of ids.entries()) {
      const res = await download(linkId, fileId, auth, { 'x-link-download': session });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.rawPayload.equals(Buffer.from(uploads[index]?.ciphertext ?? []))).toBe(true);
      // The page chose the session: nothing new to hand back.
      expect(res.headers['x-link-download']).toBeUndefined();
    }
    expect(await used()).toBe(1);
    // Resuming any of them is free; starting one of them again from byte 0 is a new download.
    expect(
      (await download(linkId, ids[1] ?? '', auth, { 'x-link-download': session, range: 'bytes=10-' }))
        .statusCode,
    ).toBe(206);
    expect(await used()).toBe(1);
    expect((await download(linkId, ids[0] ?? '', auth, { 'x-link-download': session })).statusCode).toBe(200);
    expect(await used()).toBe(2);
    // The limit is reached: a new session gets the one 404; the old one still resumes.
    const next = randomBytes(32).toString('base64url');
    expect((await download(linkId, ids[2] ?? '', auth, { 'x-link-download': next })).statusCode).toBe(404);
    expect(await used()).toBe(2);
    expect(
      (await download(linkId, ids[2] ?? '', auth, { 'x-link-download': session, range: 'bytes=5-' }))
        .statusCode,
    ).toBe(206);
    expect(await used()).toBe(2);
  });

  it('gives the last download to exactly one of two racing sessions, and no session to another link', async () => {
    const { linkId, auth, uploads } = await setUp('session-race', { maxDownloads: 1 }, 2);
    const [a = '', b = ''] = uploads.map((upload) => upload.file.fileId);
    const sessions = [randomBytes(32).toString('base64url'), randomBytes(32).toString('base64url')];
    const results = await Promise.all([
      download(linkId, a, auth, { 'x-link-download': sessions[0] ?? '' }),
      download(linkId, b, auth, { 'x-link-download': sessions[1] ?? '' }),
    ]);
    expect(results.map((res) => res.statusCode).sort()).toEqual([200, 404]);
    // The same new session racing on two files of the link counts once and gets both.
    const other = await setUp('session-same', { maxDownloads: 1 }, 2);
    const same = randomBytes(32).toString('base64url');
    const both = await Promise.all(
      other.uploads.map((upload) =>
        download(other.linkId, upload.file.fileId, other.auth, { 'x-link-download': same }),
      ),
    );
    expect(both.map((res) => res.statusCode)).toEqual([200, 200]);
    // A session of one link is no session of another.
    const third = await setUp('session-other', { maxDownloads: 1 });
    expect(
      (
        await download(third.linkId, third.uploads[0]?.file.fileId ?? '', third.auth, {
          'x-link-download': same,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('sweeps download sessions and marks once they expire', async () => {
    const { linkId, auth, uploads } = await setUp('sweep');
    const session = randomBytes(32).toString('base64url');
    expect(
      (await download(linkId, uploads[0]?.file.fileId ?? '', auth, { 'x-link-download': session }))
        .statusCode,
    ).toBe(200);
    const rows = () =>
      database.db.selectFrom('link_downloads').select('token_hash').where('link_id', '=', linkId).execute();
    expect(await rows()).toHaveLength(2);
    const saved = clock;
    try {
      clock = new Date(saved.getTime() + 24 * HOUR + 1000);
      const links = createLinksService({
        repo: createLinksRepo(database.db),
        blobStore: t.blobStore,
        limiter: {} as never,
        now: () => clock,
        logger: { error: () => undefined },
      });
      expect(await links.sweepDownloads()).toBeGreaterThanOrEqual(2);
      expect(await rows()).toEqual([]);
    } finally {
      clock = saved;
    }
  });

  it('deletes link items with their file (a link with none left is unavailable) and links with their key', async () => {
    const { owner, keyId, linkId, auth, uploads } = await setUp('cascade');
    const fileId = uploads[0]?.file.fileId ?? '';
    expect((await t.as(owner, { method: 'DELETE', url: `/api/users/files/${fileId}` })).statusCode).toBe(200);
    expectUnavailable(await publicAnswers(linkId, fileId, auth));
    const listed = (await t.as(owner, { method: 'GET', url: '/api/users/links' })).json<LinksResponse>();
    expect(listed.links.find((link) => link.linkId === linkId)).toMatchObject({
      state: 'empty',
      fileIds: [],
    });
    expect((await t.as(owner, { method: 'DELETE', url: `/api/users/keys/${keyId}` })).statusCode).toBe(200);
    expect(
      await database.db.selectFrom('links').select('id').where('id', '=', linkId).executeTakeFirst(),
    ).toBeUndefined();
  });

  it("keeps another user's links invisible to the owner calls", async () => {
    const { owner, linkId, uploads } = await setUp('mine');
    const mallory = 'mine-mallory';
    await createKey(t, mallory);
    const list = (await t.as(mallory, { method: 'GET', url: '/api/users/links' })).json<LinksResponse>();
    expect(list.links).toEqual([]);
    const patch = await t.as(mallory, {
      method: 'PATCH',
      url: `/api/users/links/${linkId}`,
      payload: { label: null },
    });
    expect(patch.statusCode).toBe(404);
    expect((await t.as(mallory, { method: 'DELETE', url: `/api/users/links/${linkId}` })).statusCode).toBe(
      404,
    );
    // Nor can a link grant someone else's file.
    const malloryLinkId = newLinkId();
    const theirs = await t.as(mallory, {
      method: 'POST',
      url: '/api/users/links',
      payload: {
        linkId: malloryLinkId,
        items: [{ fileId: uploads[0]?.file.fileId, wrappedKey: b64(60), encryptedMetadata: b64(60) }],
        expiresAt: null,
        maxDownloads: null,
        label: null,
        authKeyHash: sha256Hex(randomBytes(32)),
        password: null,
        linkRecord: JSON.stringify({ v: 1, type: 'link', linkId: malloryLinkId }),
      },
    });
    expect(theirs.statusCode).toBe(404);
    expect(
      (
        await t.as(owner, { method: 'GET', url: `/api/users/links?fileId=${uploads[0]?.file.fileId}` })
      ).json<LinksResponse>().links,
    ).toHaveLength(1);
  });

  it('changes expiry and limit only with a new signed record, and refuses bad bodies with 400', async () => {
    const { owner, linkId, body } = await setUp('bodies');
    const patch = (payload: object) =>
      t.as(owner, { method: 'PATCH', url: `/api/users/links/${linkId}`, payload });
    expect((await patch({ maxDownloads: 5 })).statusCode).toBe(400);
    const changed = await patch({ maxDownloads: 5, linkRecord: body.linkRecord });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ maxDownloads: 5, downloadsLeft: 5, state: 'active' });
    expect(
      (
        await patch({
          expiresAt: new Date(clock.getTime() - 1000).toISOString(),
          linkRecord: body.linkRecord,
        })
      ).statusCode,
    ).toBe(400);

    const post = (payload: object) =>
      t.as(owner, {
        method: 'POST',
        url: '/api/users/links',
        payload: { ...body, linkId: newLinkId(), ...payload },
      });
    const item = body.items[0];
    for (const bad of [
      { linkId: 'short' },
      { linkId: `${newLinkId().slice(0, 21)}B` },
      { items: [] },
      { items: [item, item] },
      { authKeyHash: 'xyz' },
      { expiresAt: new Date(clock.getTime() - 1000).toISOString() },
      { maxDownloads: 0 },
      {
        password: {
          salt: b64(16),
          kdf: { name: 'Argon2id', version: 19, memoryKiB: 1024, passes: 1, parallelism: 1 },
        },
      },
      { linkRecord: JSON.stringify({ v: 1, type: 'link', linkId: newLinkId() }) },
      { extra: true },
    ]) {
      const res = await post(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await post({ linkId })).statusCode).toBe(409);
    expect((await info('not-a-link-id')).statusCode).toBe(400);
  });
});
