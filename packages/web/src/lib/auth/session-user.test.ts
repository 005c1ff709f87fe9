import { describe, expect, it } from 'vitest';
import { colorFromEmail, sessionUserFromClaims } from './session-user';

describe('sessionUserFromClaims', () => {
  it('maps the embedded provider’s ID token claims', () => {
    const user = sessionUserFromClaims({
      sub: 'acc-1',
      name: 'Alice Example',
      email: 'alice@example.com',
      emails: ['alice@example.com'],
      country: 'DE',
      idp: 'local',
    });
    expect(user).toEqual({
      id: 'acc-1',
      name: 'Alice Example',
      email: 'alice@example.com',
      color: colorFromEmail('alice@example.com'),
      image: null,
      idTokenClaims: { idp: 'local', emails: ['alice@example.com'], country: 'DE' },
    });
  });

  it('reads Azure AD B2C style `emails` and given/family names, and `address.country`', () => {
    const user = sessionUserFromClaims({
      sub: 'b2c',
      given_name: 'Bob',
      family_name: 'Builder',
      emails: ['bob@example.com', 'BOB@example.com', 'b@example.org'],
      address: { country: 'FR' },
      picture: 'https://example.com/bob.png',
    });
    expect(user.name).toBe('Bob Builder');
    expect(user.email).toBe('bob@example.com');
    expect(user.idTokenClaims).toEqual({
      idp: null,
      emails: ['bob@example.com', 'b@example.org'],
      country: 'FR',
    });
    expect(user.image).toBe('https://example.com/bob.png');
  });

  it('falls back to the email, then a generic name', () => {
    expect(sessionUserFromClaims({ sub: 's', email: 'c@example.com' }).name).toBe('c@example.com');
    expect(sessionUserFromClaims({ sub: 's' }).name).toBe('Coffer user');
  });
});

describe('colorFromEmail', () => {
  it('is stable, case-insensitive and a #rrggbb colour', () => {
    expect(colorFromEmail('alice@example.com')).toBe(colorFromEmail(' ALICE@example.com'));
    expect(colorFromEmail('alice@example.com')).toMatch(/^#[0-9a-f]{6}$/);
    const colours = new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((x) => colorFromEmail(`${x}@x.io`)));
    expect(colours.size).toBeGreaterThan(1);
  });
});
