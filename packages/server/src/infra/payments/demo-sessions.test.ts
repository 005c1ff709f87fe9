import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createDemoSessionTokens, DEMO_SESSION_TTL_MS } from './demo-sessions.js';

const checkout = {
  kind: 'checkout',
  userId: 'user-1',
  customerId: 'demo_cus_1',
  priceId: 'price_personal_monthly',
  successUrl: 'http://coffer.test/profile',
  cancelUrl: 'http://coffer.test/profile?c',
} as const;

describe('demo session tokens', () => {
  it('round-trips a session, with a fresh random id every time', () => {
    const tokens = createDemoSessionTokens(randomBytes(32));
    const a = tokens.issue(checkout);
    const b = tokens.issue(checkout);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const session = tokens.read(a);
    expect(session).toMatchObject(checkout);
    expect(session?.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(tokens.read(b)?.id).not.toBe(session?.id);
    const portal = tokens.read(
      tokens.issue({ kind: 'portal', userId: 'u', customerId: 'c', returnUrl: 'http://coffer.test/profile' }),
    );
    expect(portal).toMatchObject({ kind: 'portal', returnUrl: 'http://coffer.test/profile' });
  });

  it('refuses tokens that were altered, signed with another secret, or malformed', () => {
    const tokens = createDemoSessionTokens(randomBytes(32));
    const token = tokens.issue(checkout);
    const [body = '', mac = ''] = token.split('.');
    const otherUser = Buffer.from(
      Buffer.from(body, 'base64url').toString().replace('user-1', 'user-2'),
    ).toString('base64url');
    expect(tokens.read(`${otherUser}.${mac}`)).toBeNull();
    // Alter the first character: the last one of a base64url MAC also carries unused padding bits.
    expect(tokens.read(`${body}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`)).toBeNull();
    expect(createDemoSessionTokens(randomBytes(32)).read(token)).toBeNull();
    for (const bad of ['', '.', 'abc', `${body}.`, `${body}.${mac}.x`, `${body}!.${mac}`])
      expect(tokens.read(bad)).toBeNull();
  });

  it('expires after 30 minutes', () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const tokens = createDemoSessionTokens(randomBytes(32), () => now);
    const token = tokens.issue(checkout);
    now = new Date(now.getTime() + DEMO_SESSION_TTL_MS - 1);
    expect(tokens.read(token)).not.toBeNull();
    now = new Date(now.getTime() + 1);
    expect(tokens.read(token)).toBeNull();
    expect(DEMO_SESSION_TTL_MS).toBe(30 * 60 * 1000);
  });

  it('needs a strong secret', () => {
    expect(() => createDemoSessionTokens(randomBytes(16))).toThrow(/32 bytes/);
  });
});
