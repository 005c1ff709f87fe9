import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { createIdpAccountsRepo, EmailTakenError } from './idp.accounts.repo.js';
import { createIdpAdapterFactory, deleteExpiredIdpPayloads } from './idp.adapter.js';
import { loadOrCreateIdpKeys, publicJwks } from './idp.keys.js';

describe.each(dialectsUnderTest)('identity provider storage ($name)', ({ open }) => {
  let t: TestDatabase;
  let now = new Date('2026-01-01T00:00:00.000Z');
  const clock = () => now;

  beforeAll(async () => {
    t = await open();
  });
  afterAll(() => t.destroy());

  it('keeps oidc-provider payloads by model and id, with expiry, consumption and grant revocation', async () => {
    const factory = createIdpAdapterFactory(t.db, clock);
    const codes = factory('AuthorizationCode');
    const sessions = factory('Session');
    await codes.upsert('c1', { grantId: 'g1', accountId: 'a1' }, 60);
    await codes.upsert('c2', { grantId: 'g2', accountId: 'a1' }, 60);
    await sessions.upsert('s1', { uid: 'u1', accountId: 'a1' }, 3600);
    // Same id, other model: a separate record.
    await sessions.upsert('c1', { uid: 'u2' });

    expect(await codes.find('c1')).toEqual({ grantId: 'g1', accountId: 'a1' });
    expect(await sessions.findByUid('u1')).toEqual({ uid: 'u1', accountId: 'a1' });
    expect(await sessions.find('c1')).toEqual({ uid: 'u2' });

    await codes.consume('c1');
    expect((await codes.find('c1'))?.consumed).toBe(Math.floor(now.getTime() / 1000));

    await codes.upsert('c2', { grantId: 'g2', accountId: 'a2' }, 60);
    expect((await codes.find('c2'))?.accountId).toBe('a2');

    await codes.revokeByGrantId('g1');
    expect(await codes.find('c1')).toBeUndefined();
    expect(await codes.find('c2')).toBeDefined();

    now = new Date(now.getTime() + 61_000);
    expect(await codes.find('c2')).toBeUndefined();
    expect(await sessions.find('s1')).toBeDefined();
    expect(await deleteExpiredIdpPayloads(t.db, now)).toBe(1);
    await sessions.destroy('s1');
    expect(await sessions.find('s1')).toBeUndefined();
    // No expiry: kept.
    expect(await sessions.find('c1')).toEqual({ uid: 'u2' });
  });

  it('creates keys once, even when two servers start at once', async () => {
    const [a, b] = await Promise.all([loadOrCreateIdpKeys(t.db), loadOrCreateIdpKeys(t.db)]);
    expect(a).toEqual(b);
    expect(a.signing).toHaveLength(1);
    expect(a.signing[0]).toMatchObject({
      kty: 'RSA',
      alg: 'RS256',
      use: 'sig',
      kid: expect.any(String) as string,
    });
    expect(a.cookie).toHaveLength(1);
    expect(await loadOrCreateIdpKeys(t.db)).toEqual(a);
    const [published] = publicJwks(a.signing).keys;
    expect(Object.keys(published ?? {}).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
  });

  it('keeps emails unique in any case, and links Google identities', async () => {
    const accounts = createIdpAccountsRepo(t.db);
    const ann = await accounts.createLocal(
      { email: 'Ann@Example.TEST', name: 'Ann', country: 'NL', passwordHash: '$scrypt$x' },
      now,
    );
    // A new local account has not proved its address yet.
    expect(ann).toMatchObject({ email: 'ann@example.test', emailVerified: false, hasPassword: true });
    await expect(
      accounts.createLocal(
        { email: 'ANN@example.test', name: 'Other', country: null, passwordHash: 'h' },
        now,
      ),
    ).rejects.toBeInstanceOf(EmailTakenError);
    expect((await accounts.findCredentialsByEmail(' ann@EXAMPLE.test '))?.passwordHash).toBe('$scrypt$x');

    await accounts.confirmEmail(ann.id, now);
    const linked = await accounts.resolveUpstream(
      { provider: 'google.com', subject: 'g1', email: 'ann@example.test', name: 'Ann G', country: null },
      now,
    );
    // Both sides verified: linked, and the password still works.
    expect(linked).toMatchObject({ id: ann.id, emailVerified: true, hasPassword: true });
    // Later sign-ins find the link even if the Google address changed.
    const again = await accounts.resolveUpstream(
      { provider: 'google.com', subject: 'g1', email: 'ann.new@example.test', name: null, country: null },
      now,
    );
    expect(again.id).toBe(ann.id);

    const [x, y] = await Promise.all([
      accounts.resolveUpstream(
        { provider: 'google.com', subject: 'g2', email: 'new@gmail.test', name: null, country: 'FR' },
        now,
      ),
      accounts.resolveUpstream(
        { provider: 'google.com', subject: 'g2', email: 'new@gmail.test', name: null, country: 'FR' },
        now,
      ),
    ]);
    expect(x.id).toBe(y.id);
    expect(x).toMatchObject({ email: 'new@gmail.test', name: 'new', country: 'FR', hasPassword: false });
  });

  it('lets Google claim an account whose address was never confirmed: its password and sign-ins end', async () => {
    const accounts = createIdpAccountsRepo(t.db);
    // A stranger pre-registers the address and signs in (a session is stored for the account).
    const squatter = await accounts.createLocal(
      { email: 'victim@gmail.test', name: 'Not Victim', country: null, passwordHash: '$scrypt$squatter' },
      now,
    );
    const sessions = createIdpAdapterFactory(t.db, () => now)('Session');
    await sessions.upsert('s-squatter', { accountId: squatter.id, kind: 'Session' }, 3600);
    const claimed = await accounts.resolveUpstream(
      {
        provider: 'google.com',
        subject: 'g-victim',
        email: 'victim@gmail.test',
        name: 'Victim',
        country: null,
      },
      now,
    );
    expect(claimed).toMatchObject({ id: squatter.id, emailVerified: true, hasPassword: false });
    expect(await sessions.find('s-squatter')).toBeUndefined();
    expect((await accounts.findCredentialsByEmail('victim@gmail.test'))?.passwordHash).toBe('');
  });
});
