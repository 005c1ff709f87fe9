import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caught, dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { insertContact, insertFile, insertUser, insertUserKey } from '../../test/db-factories.js';
import { isUniqueViolation } from './errors.js';
import type {
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

const FIVE_GIB = 5 * 1024 ** 3;

/** Every table written and read back on both dialects, with the values the services will store. */
describe.each(dialectsUnderTest)('tables on $name ($backend)', ({ open }) => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await open();
  });

  afterAll(async () => {
    await t.destroy();
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
      manifest: null,
      node: null,
      request_id: null,
      uploaded_by: null,
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
    expect(readUpload).toEqual({
      ...upload,
      status: 'complete',
      file_id: file.id,
      updated_at: readUpload.updated_at,
    });
    expect(readUpload.updated_at >= upload.updated_at).toBe(true);
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
      file_id: null,
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
      share_grant: '{"v":1}',
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
      account_id: account.id,
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
});
