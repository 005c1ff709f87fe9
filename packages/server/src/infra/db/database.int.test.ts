import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { insertContact, insertFile, insertUser, insertUserKey } from '../../test/db-factories.js';
import { DatabaseError, isForeignKeyViolation, isUniqueViolation } from './errors.js';
import { knownMigrations, migrateToLatest } from './migrate.js';
import type {
  DB,
  IdpAccountRow,
  IdpKeyRow,
  IdpPayloadRow,
  InvitationRow,
  PaymentEventRow,
  ShareRow,
  TransferEventRow,
  UploadPartRow,
  UploadRow,
} from './schema.js';
import { newId, normalizeEmail, nowIso, sumAsNumber } from './values.js';

const GiB = 1024 ** 3;
const FIVE_GIB = 5 * GiB;

/** Runs `fn` and returns what it threw (undefined if nothing), so a test can assert on the error itself. */
async function caught(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  return undefined;
}

describe.each(dialectsUnderTest)('database on $name ($backend)', ({ name, open }) => {
  let t: TestDatabase;
  let firstRun: string[];
  let secondRun: string[];

  beforeAll(async () => {
    t = await open({ migrate: false });
    firstRun = await migrateToLatest(t.db);
    secondRun = await migrateToLatest(t.db);
  });

  afterAll(async () => {
    await t.destroy();
  });

  it('applies every migration once, and nothing on a second run', async () => {
    expect(t.dialect).toBe(name);
    expect(firstRun).toEqual(knownMigrations());
    expect(secondRun).toEqual([]);
    const tables = (await t.db.introspection.getTables()).map((table) => table.name);
    const expected: (keyof DB)[] = [
      'users',
      'user_keys',
      'contacts',
      'invitations',
      'feedback',
      'transfer_events',
      'files',
      'uploads',
      'upload_parts',
      'shares',
      'payment_events',
      'idp_accounts',
      'idp_payloads',
      'idp_keys',
    ];
    expect(tables).toEqual(expect.arrayContaining(expected));
  });

  it('round-trips a user with defaults applied', async () => {
    const user = await insertUser(t.db, { email: normalizeEmail(' Ann@Example.TEST '), country: 'DE' });
    const read = await t.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(read).toEqual(user);
    expect(read.tier).toBe('Free');
    expect(read.email).toBe('ann@example.test');

    const periodEnd = '2026-12-21T00:00:00.000Z';
    await t.db
      .updateTable('users')
      .set({ tier: 'Personal', current_period_end: periodEnd, stripe_customer_id: `cus_${user.id}` })
      .where('id', '=', user.id)
      .execute();
    const paid = await t.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(paid).toMatchObject({ tier: 'Personal', current_period_end: periodEnd });
  });

  it('round-trips keys, contacts, invitations and feedback', async () => {
    const user = await insertUser(t.db);
    const key = await insertUserKey(t.db, user.id);
    expect(await t.db.selectFrom('user_keys').selectAll().where('id', '=', key.id).execute()).toEqual([key]);

    const contact = await insertContact(t.db, user.id, { image: 'data:image/png;base64,AA==' });
    const contacts = await t.db.selectFrom('contacts').selectAll().where('user_id', '=', user.id).execute();
    expect(contacts).toEqual([contact]);

    const invitation: InvitationRow = {
      id: newId(),
      user_id: user.id,
      to_email: contact.email,
      created_at: nowIso(),
    };
    await t.db.insertInto('invitations').values(invitation).execute();
    expect(await t.db.selectFrom('invitations').selectAll().where('user_id', '=', user.id).execute()).toEqual(
      [invitation],
    );

    const feedbackId = newId();
    const message = 'Ünïcode ✓ and "quotes"\nover two lines';
    await t.db
      .insertInto('feedback')
      .values({
        id: feedbackId,
        user_id: user.id,
        user_email: 'x@example.test',
        message,
        created_at: nowIso(),
      })
      .execute();
    const feedback = await t.db
      .selectFrom('feedback')
      .selectAll()
      .where('id', '=', feedbackId)
      .executeTakeFirstOrThrow();
    expect(feedback.message).toBe(message);
  });

  it('round-trips files and uploads of 5 GiB as JS numbers', async () => {
    const user = await insertUser(t.db);
    const file = await insertFile(t.db, user.id, { size: FIVE_GIB, stored_size: FIVE_GIB + 28 * 54 });
    const read = await t.db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    expect(read).toEqual(file);
    expect(read.size).toBe(FIVE_GIB);
    expect(typeof read.stored_size).toBe('number');
    expect(JSON.parse(read.encryption_info ?? 'null')).toMatchObject({ format: 'coffer-v1' });

    await insertFile(t.db, user.id, { size: FIVE_GIB, stored_size: FIVE_GIB });
    const usage = await t.db
      .selectFrom('files')
      .select([sumAsNumber('stored_size').as('used'), (eb) => eb.fn.countAll<number>().as('count')])
      .where('owner_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(usage).toEqual({ used: 2 * FIVE_GIB + 28 * 54, count: 2 });
    const none = await t.db
      .selectFrom('files')
      .select(sumAsNumber('stored_size').as('used'))
      .where('owner_id', '=', 'nobody')
      .executeTakeFirstOrThrow();
    expect(none.used).toBe(0);

    const now = nowIso();
    const upload: UploadRow = {
      id: newId(),
      user_id: user.id,
      file_name: 'movie.mkv',
      content_type: 'video/x-matroska',
      size: FIVE_GIB,
      stored_size: FIVE_GIB + 28 * 54,
      is_encrypted: 1,
      encryption_info: '{"version":"k"}',
      object_key: `users/${user.id}/uploads/${newId()}`,
      storage_upload_id: 's3-multipart-id',
      kind: 'multipart',
      status: 'pending',
      parts: 54,
      file_id: null,
      created_at: now,
      updated_at: now,
    };
    await t.db.insertInto('uploads').values(upload).execute();
    const part: UploadPartRow = {
      upload_id: upload.id,
      part_number: 1,
      etag: '"abc"',
      size: 99614720 + 28,
      created_at: now,
    };
    await t.db.insertInto('upload_parts').values(part).execute();
    await t.db
      .updateTable('uploads')
      .set({ status: 'complete', file_id: file.id, updated_at: nowIso() })
      .where('id', '=', upload.id)
      .execute();
    const readUpload = await t.db
      .selectFrom('uploads')
      .selectAll()
      .where('id', '=', upload.id)
      .executeTakeFirstOrThrow();
    expect(readUpload).toMatchObject({
      ...upload,
      status: 'complete',
      file_id: file.id,
      updated_at: expect.any(String),
    });
    expect(
      await t.db.selectFrom('upload_parts').selectAll().where('upload_id', '=', upload.id).execute(),
    ).toEqual([part]);
  });

  it('round-trips transfers, shares and payment events', async () => {
    const owner = await insertUser(t.db);
    const recipient = await insertUser(t.db);
    const file = await insertFile(t.db, owner.id);

    const event: TransferEventRow = {
      id: newId(),
      user_id: owner.id,
      kind: 'upload',
      bytes: FIVE_GIB,
      created_at: nowIso(),
    };
    await t.db.insertInto('transfer_events').values(event).execute();
    const monthly = await t.db
      .selectFrom('transfer_events')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', owner.id)
      .where('kind', '=', 'upload')
      .where('created_at', '>=', owner.current_period_start)
      .executeTakeFirstOrThrow();
    expect(monthly.count).toBe(1);
    expect(await t.db.selectFrom('transfer_events').selectAll().where('id', '=', event.id).execute()).toEqual(
      [event],
    );

    const share: ShareRow = {
      file_id: file.id,
      owner_id: owner.id,
      recipient_id: recipient.id,
      recipient_email: recipient.email ?? '',
      encrypted_file_key: 'd3JhcHBlZA==',
      key_version: 'key-of-recipient',
      created_at: nowIso(),
    };
    await t.db.insertInto('shares').values(share).execute();
    expect(
      await t.db.selectFrom('shares').selectAll().where('recipient_id', '=', recipient.id).execute(),
    ).toEqual([share]);

    const payment: PaymentEventRow = {
      id: `evt_${newId()}`,
      type: 'checkout.session.completed',
      processed_at: nowIso(),
    };
    await t.db.insertInto('payment_events').values(payment).execute();
    expect(
      await t.db.selectFrom('payment_events').selectAll().where('id', '=', payment.id).execute(),
    ).toEqual([payment]);
    // Idempotency: a webhook delivered twice is recognised on insert.
    expect(
      isUniqueViolation(await caught(() => t.db.insertInto('payment_events').values(payment).execute())),
    ).toBe(true);
  });

  it('round-trips the embedded identity provider state', async () => {
    const now = nowIso();
    const account: IdpAccountRow = {
      id: newId(),
      email: `idp-${newId()}@example.test`,
      password_hash: 'scrypt$N=16384$c2FsdA==$aGFzaA==',
      name: 'Ann',
      country: null,
      email_verified: 1,
      created_at: now,
      updated_at: now,
    };
    await t.db.insertInto('idp_accounts').values(account).execute();
    expect(await t.db.selectFrom('idp_accounts').selectAll().where('id', '=', account.id).execute()).toEqual([
      account,
    ]);
    const duplicate = { ...account, id: newId() };
    expect(
      isUniqueViolation(await caught(() => t.db.insertInto('idp_accounts').values(duplicate).execute())),
    ).toBe(true);

    const payload: IdpPayloadRow = {
      id: newId(),
      model: 'Session',
      payload: JSON.stringify({ accountId: account.id, exp: 1 }),
      grant_id: null,
      user_code: null,
      uid: newId(),
      expires_at: '2030-01-01T00:00:00.000Z',
      consumed_at: null,
    };
    await t.db.insertInto('idp_payloads').values(payload).execute();
    // Same id under another model is a different row.
    await t.db
      .insertInto('idp_payloads')
      .values({ ...payload, model: 'Interaction', uid: null })
      .execute();
    const byUid = await t.db
      .selectFrom('idp_payloads')
      .selectAll()
      .where('model', '=', 'Session')
      .where('uid', '=', payload.uid)
      .execute();
    expect(byUid).toEqual([payload]);

    const key: IdpKeyRow = {
      id: newId(),
      purpose: 'signing',
      jwk: JSON.stringify({ kty: 'RSA', kid: 'k1' }),
      created_at: now,
    };
    await t.db
      .insertInto('idp_keys')
      .values({ id: key.id, jwk: key.jwk, created_at: key.created_at })
      .execute();
    expect(await t.db.selectFrom('idp_keys').selectAll().where('id', '=', key.id).execute()).toEqual([key]);
  });

  it('enforces the unique constraints the services rely on', async () => {
    const user = await insertUser(t.db);

    const sameIdentity = await caught(() => insertUser(t.db, { issuer: user.issuer, subject: user.subject }));
    expect(isUniqueViolation(sameIdentity)).toBe(true);
    expect(isForeignKeyViolation(sameIdentity)).toBe(false);

    expect(isUniqueViolation(await caught(() => insertUser(t.db, { email: user.email })))).toBe(true);
    // Many users may have no email at all.
    await insertUser(t.db, { email: null });
    await insertUser(t.db, { email: null });

    const contact = await insertContact(t.db, user.id);
    expect(
      isUniqueViolation(await caught(() => insertContact(t.db, user.id, { email: contact.email }))),
    ).toBe(true);
    // The same address in another user's book is fine.
    const other = await insertUser(t.db);
    await insertContact(t.db, other.id, { email: contact.email });

    const file = await insertFile(t.db, user.id);
    const share = {
      file_id: file.id,
      owner_id: user.id,
      recipient_id: other.id,
      recipient_email: other.email ?? '',
      encrypted_file_key: 'a2V5',
      key_version: 'v1',
      created_at: nowIso(),
    };
    await t.db.insertInto('shares').values(share).execute();
    expect(isUniqueViolation(await caught(() => t.db.insertInto('shares').values(share).execute()))).toBe(
      true,
    );

    expect(
      isUniqueViolation(await caught(() => insertFile(t.db, user.id, { object_key: file.object_key }))),
    ).toBe(true);
  });

  it('enforces foreign keys and value checks', async () => {
    const orphan = await caught(() => insertUserKey(t.db, 'no-such-user'));
    expect(isForeignKeyViolation(orphan)).toBe(true);
    expect(isUniqueViolation(orphan)).toBe(false);

    const user = await insertUser(t.db);
    // Booleans are 0/1 and sizes non-negative in both dialects.
    await expect(insertFile(t.db, user.id, { is_encrypted: 2 as 0 })).rejects.toThrow();
    await expect(insertFile(t.db, user.id, { size: -1 })).rejects.toThrow();
  });

  it('deletes everything a user owns with the user', async () => {
    const user = await insertUser(t.db);
    const friend = await insertUser(t.db);
    await insertUserKey(t.db, user.id);
    await insertContact(t.db, user.id);
    const file = await insertFile(t.db, user.id);
    const friendsFile = await insertFile(t.db, friend.id);
    const now = nowIso();
    const shareBase = { encrypted_file_key: 'a2V5', key_version: 'v1', created_at: now };
    await t.db
      .insertInto('shares')
      .values([
        {
          ...shareBase,
          file_id: file.id,
          owner_id: user.id,
          recipient_id: friend.id,
          recipient_email: 'f@x.test',
        },
        {
          ...shareBase,
          file_id: friendsFile.id,
          owner_id: friend.id,
          recipient_id: user.id,
          recipient_email: 'u@x.test',
        },
      ])
      .execute();
    const uploadId = newId();
    await t.db
      .insertInto('uploads')
      .values({
        id: uploadId,
        user_id: user.id,
        file_name: 'a.bin',
        content_type: 'application/octet-stream',
        size: 1,
        stored_size: 29,
        is_encrypted: 1,
        encryption_info: null,
        object_key: `users/${user.id}/uploads/${uploadId}`,
        storage_upload_id: null,
        kind: 'direct',
        status: 'pending',
        parts: 1,
        file_id: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await t.db
      .insertInto('upload_parts')
      .values({ upload_id: uploadId, part_number: 1, etag: 'e', size: 29, created_at: now })
      .execute();
    const feedbackId = newId();
    await t.db
      .insertInto('feedback')
      .values({ id: feedbackId, user_id: user.id, user_email: 'u@x.test', message: 'hi', created_at: now })
      .execute();

    await t.db.deleteFrom('users').where('id', '=', user.id).execute();

    const count = async (
      table: 'user_keys' | 'contacts' | 'files' | 'uploads',
      column: 'user_id' | 'owner_id',
    ) => {
      const row = await sql<{
        n: number;
      }>`select count(*) as n from ${sql.table(table)} where ${sql.ref(column)} = ${user.id}`.execute(t.db);
      return Number(row.rows[0]?.n);
    };
    expect(await count('user_keys', 'user_id')).toBe(0);
    expect(await count('contacts', 'user_id')).toBe(0);
    expect(await count('files', 'owner_id')).toBe(0);
    expect(await count('uploads', 'user_id')).toBe(0);
    expect(
      await t.db.selectFrom('upload_parts').selectAll().where('upload_id', '=', uploadId).execute(),
    ).toEqual([]);
    // Shares of the user's files and shares to the user are both gone; the friend's file stays.
    expect(
      await t.db.selectFrom('shares').selectAll().where('file_id', 'in', [file.id, friendsFile.id]).execute(),
    ).toEqual([]);
    expect(
      await t.db.selectFrom('files').select('id').where('id', '=', friendsFile.id).execute(),
    ).toHaveLength(1);
    // Feedback outlives its author, for the admins.
    const feedback = await t.db
      .selectFrom('feedback')
      .selectAll()
      .where('id', '=', feedbackId)
      .executeTakeFirstOrThrow();
    expect(feedback.user_id).toBeNull();
  });

  it('orders ISO timestamps chronologically, to the millisecond', async () => {
    const user = await insertUser(t.db);
    const base = Date.parse('2026-03-01T12:00:00.000Z');
    const offsets = [5, 0, 1000, 1, 86_400_000, 999];
    for (const ms of offsets) {
      await insertUserKey(t.db, user.id, {
        id: `k${ms}-${newId()}`,
        created_at: new Date(base + ms).toISOString(),
      });
    }
    const keys = await t.db
      .selectFrom('user_keys')
      .select('created_at')
      .where('user_id', '=', user.id)
      .orderBy('created_at', 'desc')
      .execute();
    const expected = [...offsets].sort((a, b) => b - a).map((ms) => new Date(base + ms).toISOString());
    expect(keys.map((k) => k.created_at)).toEqual(expected);
    const newest = await t.db
      .selectFrom('user_keys')
      .select('created_at')
      .where('user_id', '=', user.id)
      .where('created_at', '>=', new Date(base + 1000).toISOString())
      .execute();
    expect(newest).toHaveLength(2);
  });

  it('rolls back a failed transaction', async () => {
    const user = await insertUser(t.db);
    const err = await caught(() =>
      t.db.transaction().execute(async (trx) => {
        await insertContact(trx, user.id, { email: 'first@example.test' });
        await insertContact(trx, user.id, { email: 'first@example.test' });
      }),
    );
    expect(isUniqueViolation(err)).toBe(true);
    expect(await t.db.selectFrom('contacts').selectAll().where('user_id', '=', user.id).execute()).toEqual(
      [],
    );
  });

  it('refuses integers beyond 2^53 instead of rounding them', async () => {
    const err = await caught(() => sql`select cast(9007199254740993 as bigint) as n`.execute(t.db));
    expect(err).toBeInstanceOf(DatabaseError);
    // The connection is still usable afterwards.
    const ok = await sql<{ n: number }>`select cast(9007199254740991 as bigint) as n`.execute(t.db);
    expect(ok.rows[0]?.n).toBe(Number.MAX_SAFE_INTEGER);
  });
});
