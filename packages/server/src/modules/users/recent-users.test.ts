import { describe, expect, it } from 'vitest';
import type { Identity } from '../../infra/auth/identity.js';
import type { UserRow } from '../../infra/db/schema.js';
import { RECENT_USER_MS, createRecentUsers } from './recent-users.js';

function identity(subject: string): Identity {
  return {
    issuer: 'https://idp.test',
    subject,
    email: null,
    emailVerified: null,
    emails: [],
    name: null,
    country: null,
    idp: 'idp.test',
  };
}

function row(id: string): UserRow {
  return { id } as UserRow;
}

describe('recent users', () => {
  it(`answers for ${String(RECENT_USER_MS)} ms after the read, then no more`, () => {
    let clock = 1_000_000;
    const recent = createRecentUsers(() => new Date(clock));
    recent.remember(identity('a'), row('1'));
    clock += RECENT_USER_MS - 1;
    expect(recent.get(identity('a'))?.id).toBe('1');
    expect(recent.get(identity('b'))).toBeUndefined();
    clock += 1;
    expect(recent.get(identity('a'))).toBeUndefined();
  });

  it('keeps a frozen copy: changing the row given or answered changes nothing for later requests', () => {
    const recent = createRecentUsers(() => new Date(1_000_000));
    const original = row('1');
    recent.remember(identity('a'), original);
    original.id = 'changed';
    const answered = recent.get(identity('a'));
    expect(answered?.id).toBe('1');
    expect(Object.isFrozen(answered)).toBe(true);
    expect(() => {
      (answered as UserRow).id = 'changed again';
    }).toThrow(TypeError);
    expect(recent.get(identity('a'))?.id).toBe('1');
  });

  it('forgets a row whose age is unknown because the clock stepped back', () => {
    let clock = 1_000_000;
    const recent = createRecentUsers(() => new Date(clock));
    recent.remember(identity('a'), row('1'));
    clock -= 1;
    expect(recent.get(identity('a'))).toBeUndefined();
  });

  it('keeps at most its bound, dropping the oldest read first', () => {
    const recent = createRecentUsers(() => new Date(1_000_000), 2);
    recent.remember(identity('a'), row('1'));
    recent.remember(identity('b'), row('2'));
    recent.remember(identity('a'), row('1'));
    recent.remember(identity('c'), row('3'));
    expect(recent.get(identity('b'))).toBeUndefined();
    expect(recent.get(identity('a'))?.id).toBe('1');
    expect(recent.get(identity('c'))?.id).toBe('3');
  });
});
