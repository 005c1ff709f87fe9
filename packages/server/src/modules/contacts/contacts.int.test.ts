import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';

interface ContactBody {
  name: string;
  email: string;
  color: string;
  image: string | null;
  invited: boolean;
}

describe.each(dialectsUnderTest)('contacts and invitations ($name)', ({ open }) => {
  let database: TestDatabase;
  let t: TestApp;

  beforeAll(async () => {
    database = await open();
    t = await startTestApp({ database, env: { PLAN_LIMITS_FREE: '{"maxContacts": 3}' } });
  });
  afterAll(async () => {
    await t.close();
    await database.destroy();
  });

  const add = (user: string, email: string, name: string) =>
    t.as(user, { method: 'POST', url: '/api/users/contacts', payload: { email, name } });

  it('adds, lists, renames (PATCH and PUT) and deletes contacts', async () => {
    const created = await add('ann', 'Bob@Example.test', '  Bob  ');
    expect(created.statusCode).toBe(201);
    const contact = created.json<ContactBody>();
    expect(contact).toEqual({
      name: 'Bob',
      email: 'bob@example.test',
      color: contact.color,
      image: null,
      invited: false,
    });
    expect(contact.color).toMatch(/^#[0-9a-f]{6}$/);

    const list = await t.as('ann', { method: 'GET', url: '/api/users/contacts' });
    expect(list.json<{ contacts: ContactBody[] }>().contacts.map((c) => c.email)).toEqual([
      'bob@example.test',
    ]);

    const patched = await t.as('ann', {
      method: 'PATCH',
      url: '/api/users/contacts/bob%40example.test',
      payload: { name: 'Robert' },
    });
    expect(patched.json()).toMatchObject({ name: 'Robert', email: 'bob@example.test' });
    const put = await t.as('ann', {
      method: 'PUT',
      url: '/api/users/contacts/BOB%40example.test',
      payload: { name: 'Rob' },
    });
    expect(put.json()).toMatchObject({ name: 'Rob' });

    // The email cannot be changed by an edit.
    const withEmail = await t.as('ann', {
      method: 'PATCH',
      url: '/api/users/contacts/bob%40example.test',
      payload: { name: 'X', email: 'other@example.test' },
    });
    expect(withEmail.statusCode).toBe(400);

    const del = await t.as('ann', { method: 'DELETE', url: '/api/users/contacts/bob%40example.test' });
    expect(del.statusCode).toBe(200);
    expect((await t.as('ann', { method: 'GET', url: '/api/users/contacts' })).json()).toEqual({
      contacts: [],
    });
    expect(
      (await t.as('ann', { method: 'DELETE', url: '/api/users/contacts/bob%40example.test' })).statusCode,
    ).toBe(404);
  });

  it('refuses a duplicate with CONTACT_ALREADY_EXISTS', async () => {
    expect((await add('cat', 'dan@example.test', 'Dan')).statusCode).toBe(201);
    const dup = await add('cat', 'DAN@example.test', 'Daniel');
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'CONTACT_ALREADY_EXISTS' });
  });

  it('refuses the caller’s own email with CONTACT_IS_SELF', async () => {
    const self = await add('fay', 'FAY@example.test', 'Me');
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({
      code: 'CONTACT_IS_SELF',
      message: 'You cannot add yourself as a contact.',
    });
  });

  it('validates names and emails with the spec messages', async () => {
    const blank = await add('eve', 'x@example.test', '   ');
    expect(blank.statusCode).toBe(400);
    const badEmail = await add('eve', 'not-an-email', 'X');
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('enforces the plan contact limit on the server', async () => {
    for (const n of [1, 2, 3]) expect((await add('fay', `c${n}@example.test`, `C${n}`)).statusCode).toBe(201);
    const over = await add('fay', 'c4@example.test', 'C4');
    expect(over.statusCode).toBe(403);
    expect(over.json()).toEqual({ code: 'QUOTA_EXCEEDED', message: 'You have reached your contact limit.' });
    const stats = await t.as('fay', { method: 'GET', url: '/api/users/stats' });
    expect(stats.json()).toMatchObject({
      contacts: { count: 3 },
      subscription: { limits: { maxContacts: 3 } },
    });
  });

  it('sends an invitation mail linking to the invite page and marks the contact invited', async () => {
    await add('gus', 'hal@example.test', 'Hal');
    const before = t.mailer.sent.length;
    const res = await t.as('gus', {
      method: 'POST',
      url: '/api/users/invitations',
      payload: { to: 'hal@example.test' },
    });
    expect(res.statusCode).toBe(200);
    const mail = t.mailer.sent[before];
    expect(mail?.to).toBe('hal@example.test');
    expect(mail?.text).toContain('http://coffer.test/invite/gus%40example.test?reason=invite-email');
    const contacts = (await t.as('gus', { method: 'GET', url: '/api/users/contacts' })).json<{
      contacts: ContactBody[];
    }>();
    expect(contacts.contacts[0]).toMatchObject({ email: 'hal@example.test', invited: true });
  });

  it('lists who invited me by name, each once, and never invitations addressed to others', async () => {
    const invite = (from: string, to: string) =>
      t.as(from, { method: 'POST', url: '/api/users/invitations', payload: { to } });
    expect((await invite('ivy', 'jon@example.test')).statusCode).toBe(200);
    expect((await invite('ivy', 'jon@example.test')).statusCode).toBe(200);
    expect((await invite('kim', 'jon@example.test')).statusCode).toBe(200);
    expect((await invite('kim', 'lea@example.test')).statusCode).toBe(200);
    const received = await t.as('jon', { method: 'GET', url: '/api/users/invitations/received' });
    expect(received.statusCode).toBe(200);
    expect(received.json()).toEqual({
      invitations: [
        { email: 'kim@example.test', name: 'Kim' },
        { email: 'ivy@example.test', name: 'Ivy' },
      ],
    });
    const none = await t.as('ivy', { method: 'GET', url: '/api/users/invitations/received' });
    expect(none.json()).toEqual({ invitations: [] });
  });

  it('rate-limits invitations', async () => {
    let last = 0;
    for (let i = 0; i < 21; i++) {
      last = (
        await t.as('ivy', {
          method: 'POST',
          url: '/api/users/invitations',
          payload: { to: `p${i}@example.test` },
        })
      ).statusCode;
    }
    expect(last).toBe(429);
  });

  it('reports a mail failure instead of pretending success', async () => {
    const failing = await startTestApp({ database, overrides: {} });
    // Break the in-memory mailer for this app only.
    failing.mailer.send = () => Promise.reject(new Error('smtp down'));
    const res = await failing.as('jay', {
      method: 'POST',
      url: '/api/users/invitations',
      payload: { to: 'kay@example.test' },
    });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'MAIL_DELIVERY_FAILED' });
    await failing.close();
  });
});
