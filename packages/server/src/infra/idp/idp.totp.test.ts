import { describe, expect, it } from 'vitest';
import {
  cleanRecoveryCode,
  cleanTotpCode,
  newRecoveryCode,
  newTotpSecret,
  totpCodeAt,
  totpStepOf,
  totpUri,
} from './idp.totp.js';

describe('TOTP', () => {
  const secret = newTotpSecret();
  const now = new Date('2026-11-27T10:00:10Z');
  const step = Math.floor(now.getTime() / 30_000);

  it('accepts the code of now and of the neighbouring steps, and says which step', () => {
    expect(totpStepOf(secret, totpCodeAt(secret, now), now)).toBe(step);
    expect(totpStepOf(secret, totpCodeAt(secret, new Date(now.getTime() - 30_000)), now)).toBe(step - 1);
    expect(totpStepOf(secret, totpCodeAt(secret, new Date(now.getTime() + 30_000)), now)).toBe(step + 1);
    expect(totpStepOf(secret, totpCodeAt(secret, new Date(now.getTime() - 90_000)), now)).toBeNull();
  });

  it('reads codes with spaces and refuses anything else', () => {
    expect(cleanTotpCode(' 123 456 ')).toBe('123456');
    expect(cleanTotpCode('12345')).toBeNull();
    expect(cleanTotpCode('12345a')).toBeNull();
  });

  it('names Coffer and the account in the QR URI', () => {
    const uri = totpUri(secret, 'ann@example.test');
    expect(uri).toMatch(/^otpauth:\/\/totp\/Coffer:ann%40example\.test\?/);
    expect(uri).toContain(`secret=${secret}`);
  });
});

describe('recovery codes', () => {
  it('are 16 unambiguous characters in groups of four, read back in any case and spacing', () => {
    const codes = new Set(Array.from({ length: 50 }, () => newRecoveryCode()));
    expect(codes.size).toBe(50);
    for (const code of codes) {
      expect(code).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
      expect(cleanRecoveryCode(` ${code.toUpperCase().replaceAll('-', ' ')} `)).toBe(
        code.replaceAll('-', ''),
      );
    }
    expect(cleanRecoveryCode('0000-0000-0000-0000')).toBeNull();
  });
});
