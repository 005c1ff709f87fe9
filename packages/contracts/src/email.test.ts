import { describe, expect, it } from 'vitest';
import { canonicalEmail, checkEmail, mixesScripts } from './email.js';

describe('checkEmail', () => {
  it('trims, lower-cases and keeps plus-addresses distinct', () => {
    expect(checkEmail('  Ann.Lee+Work@Example.COM ')).toEqual({
      ok: true,
      email: 'ann.lee+work@example.com',
    });
    expect(canonicalEmail('ann+a@example.com')).not.toBe(canonicalEmail('ann@example.com'));
  });

  it('turns an internationalised domain into its ASCII form', () => {
    expect(checkEmail('hans@Bücher.example')).toEqual({ ok: true, email: 'hans@xn--bcher-kva.example' });
    // Decomposed ü (u + combining diaeresis) is the same address after NFC.
    expect(canonicalEmail('hans@bu\u0308cher.example')).toBe('hans@xn--bcher-kva.example');
  });

  it('refuses a local part that mixes Latin and Cyrillic letters', () => {
    // "аdmin" with a Cyrillic а (U+0430).
    expect(checkEmail('\u0430dmin@example.com')).toMatchObject({ ok: false, reason: 'mixed-script' });
  });

  it('refuses a domain label that mixes scripts, but keeps its ASCII form for comparison', () => {
    const result = checkEmail('ceo@c\u043erp.example');
    expect(result).toMatchObject({ ok: false, reason: 'mixed-script' });
    expect(result.email).toMatch(/^ceo@xn--/);
  });

  it('accepts a whole-script address in another alphabet', () => {
    expect(checkEmail('иван@пример.рф')).toMatchObject({ ok: true });
  });

  it.each([
    '',
    'plain',
    'a@b',
    'a@@b.example',
    'a b@example.com',
    'a@exa mple.com',
    '.a@example.com',
    'a..b@example.com',
    'a@127.0.0.1',
    'a@example.com/x',
    'zero\u200bwidth@example.com',
    `${'x'.repeat(65)}@example.com`,
    `a@${'x'.repeat(250)}.com`,
  ])('refuses %j as invalid', (raw) => {
    expect(checkEmail(raw)).toMatchObject({ ok: false, reason: 'invalid' });
  });
});

describe('mixesScripts', () => {
  it('ignores digits and punctuation', () => {
    expect(mixesScripts('ann.lee+2024')).toBe(false);
  });
  it('treats Japanese scripts as one', () => {
    expect(mixesScripts('やまだ太郎')).toBe(false);
  });
  it('sees Greek among Latin', () => {
    expect(mixesScripts('p\u03bfst')).toBe(true);
  });
});
