import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../test/app-harness.js';
import type { TestApp } from '../test/app-harness.js';
import { dialectsUnderTest } from '../test/db.js';
import type { TestDatabase } from '../test/db.js';

// One dialect is enough: this is about the HTTP layer's logging, not the database.
const [sqlite] = dialectsUnderTest;

describe('request logs', () => {
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

  it('carry no token and no query value, only the path and the parameter names', async () => {
    const token = await t.tokenFor('amy');
    await t.app.inject({
      method: 'GET',
      url: '/api/users/me',
      headers: { authorization: `Bearer ${token}` },
    });
    await t.app.inject({ method: 'GET', url: '/unlock?code=SECRET-AUTH-CODE&state=s1' });
    await t.app.inject({ method: 'GET', url: '/idp/session/end?id_token_hint=SECRET.ID.TOKEN' });
    const log = lines.join('');
    expect(log).toContain('"url":"/api/users/me"');
    expect(log).toContain('"url":"/unlock?code=&state="');
    expect(log).toContain('/idp/session/end?id_token_hint=');
    for (const secret of [token, 'SECRET-AUTH-CODE', 'SECRET.ID.TOKEN', 'Bearer']) {
      expect(log).not.toContain(secret);
    }
  });
});
