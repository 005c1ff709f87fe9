import { describe, expect, it } from 'vitest';
import {
  createDecoyVerifier,
  hashPassword,
  MAX_PASSWORD_LENGTH,
  needsRehash,
  verifyPassword,
} from './password-hash.js';

// Cheap parameters keep the suite fast; the format and checks are the same at any cost.
const FAST = { logN: 10, r: 8, p: 1 };

describe('password hashes', () => {
  it('writes scrypt in PHC form with its parameters and a fresh salt each time', async () => {
    const a = await hashPassword('correct horse battery staple', FAST);
    const b = await hashPassword('correct horse battery staple', FAST);
    expect(a).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct horse');
  });

  it('verifies the right password and refuses others', async () => {
    const hash = await hashPassword('correct horse battery staple', FAST);
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', hash)).toBe(false);
    expect(await verifyPassword('Correct horse battery staple', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('verifies with the parameters stored in the hash, whatever the current ones', async () => {
    const old = await hashPassword('pässwörd', { logN: 11, r: 4, p: 2 });
    expect(await verifyPassword('pässwörd', old)).toBe(true);
    expect(needsRehash(old, FAST)).toBe(true);
    expect(needsRehash(await hashPassword('x', FAST), FAST)).toBe(false);
  });

  it('treats canonically equal Unicode spellings as the same password (NFKC)', async () => {
    const composed = 'caf\u00e9 au lait';
    const decomposed = 'cafe\u0301 au lait';
    expect(await verifyPassword(decomposed, await hashPassword(composed, FAST))).toBe(true);
  });

  it('never matches a malformed or empty hash (accounts without a password)', async () => {
    for (const hash of ['', 'plain', '$scrypt$ln=10,r=8,p=1$AAAA$', '$argon2id$v=19$m=1,t=1,p=1$AAAA$AAAA']) {
      expect(await verifyPassword('anything', hash)).toBe(false);
      expect(needsRehash(hash, FAST)).toBe(true);
    }
  });

  it('refuses oversize passwords without hashing them', async () => {
    const hash = await hashPassword('a'.repeat(MAX_PASSWORD_LENGTH), FAST);
    expect(await verifyPassword('a'.repeat(MAX_PASSWORD_LENGTH), hash)).toBe(true);
    expect(await verifyPassword('a'.repeat(MAX_PASSWORD_LENGTH + 1), hash)).toBe(false);
  });

  it('has a decoy that costs a verification and never throws', async () => {
    const decoy = createDecoyVerifier(FAST);
    await expect(decoy('whatever')).resolves.toBeUndefined();
  });
});
