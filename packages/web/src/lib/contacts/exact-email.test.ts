import { describe, expect, it } from 'vitest';
import { mixesAlphabets, revealHiddenCharacters } from './exact-email';

describe('revealHiddenCharacters', () => {
  it('leaves ordinary, plus and IDNA addresses exactly as they are', () => {
    for (const email of ['Ann@Example.com', 'ann+work@example.com', 'ann@xn--bcher-kva.example']) {
      expect(revealHiddenCharacters(email)).toBe(email);
    }
  });

  it('draws zero-width, direction-override and space characters as code points', () => {
    expect(revealHiddenCharacters('ann\u200b@example.com')).toBe('ann[U+200B]@example.com');
    expect(revealHiddenCharacters('\u202emoc.elpmaxe@nna')).toBe('[U+202E]moc.elpmaxe@nna');
    expect(revealHiddenCharacters('ann @example.com')).toBe('ann[U+0020]@example.com');
  });
});

describe('mixesAlphabets', () => {
  it('spots a Cyrillic letter among Latin ones', () => {
    expect(mixesAlphabets('p\u0430ypal@example.com')).toBe(true);
    expect(mixesAlphabets('paypal@example.com')).toBe(false);
    expect(mixesAlphabets('ann+work@example.com')).toBe(false);
  });
});
