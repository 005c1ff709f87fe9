import { passwordMessages, unlockMessages, validateMasterKey } from '@coffer/contracts';
import { describe, expect, it } from 'vitest';
import { passwordChecklist, unlockTitle, validateUnlockForm } from './unlock-form';

describe('unlock screen titles', () => {
  it('quotes the spec', () => {
    expect(unlockTitle('set-up')).toBe('Set Up Encryption');
    expect(unlockTitle('unlock')).toBe('Unlock Encryption');
    expect(unlockTitle('reset')).toBe('Reset Encryption');
    expect(unlockMessages.setUpSuccess).toBe('Encryption set up successfully');
    expect(unlockMessages.unlockSuccess).toBe('Encryption unlocked successfully');
  });
});

describe('master unlock key validation (spec section 5, in order)', () => {
  const setUp = (password: string, confirmation = password) =>
    validateUnlockForm('set-up', { password, confirmation });

  it.each([
    ['', 'Password is required'],
    ['Ab1!', 'Password must be at least 8 characters'],
    ['abcdefg1!', 'Password must contain at least one uppercase letter'],
    ['ABCDEFG1!', 'Password must contain at least one lowercase letter'],
    ['Abcdefgh!', 'Password must contain at least one number'],
    ['Abcdefgh1', 'Password must contain at least one special character'],
  ])('%j → %s', (password, message) => {
    expect(setUp(password).password).toBe(message);
    expect(validateUnlockForm('unlock', { password, confirmation: '' }).password).toBe(message);
  });

  it('asks for the confirmation on set-up only', () => {
    expect(setUp('Abcdefg1!', '')).toEqual({ confirmation: 'Please confirm your password' });
    expect(setUp('Abcdefg1!', 'Abcdefg1?')).toEqual({ confirmation: 'Passwords do not match' });
    expect(setUp('Abcdefg1!')).toEqual({});
    expect(validateUnlockForm('unlock', { password: 'Abcdefg1!', confirmation: '' })).toEqual({});
  });

  it('reports the password rule and the confirmation together', () => {
    expect(setUp('', '')).toEqual({
      password: passwordMessages.required,
      confirmation: passwordMessages.confirmRequired,
    });
  });
});

describe('password checklist', () => {
  it('ticks each rule off independently', () => {
    const met = (password: string) =>
      passwordChecklist(password)
        .filter((rule) => rule.met)
        .map((rule) => rule.id);
    expect(met('')).toEqual([]);
    expect(met('abc')).toEqual(['lowercase']);
    expect(met('Abc1 ')).toEqual(['uppercase', 'lowercase', 'number', 'special']);
    expect(met('Ünïcödé1€')).toEqual(['length', 'uppercase', 'lowercase', 'number', 'special']);
  });

  it.each([
    '',
    'short',
    'Abcdefg1!',
    'abcdefg1!',
    'ABCDEFGH',
    'Passwort 123',
    'Ünïcödé1€',
    '🔑🔑🔑🔑Aa1',
    'aaaaaaaA1',
  ])('agrees with validateMasterKey for %j', (password) => {
    const allMet = passwordChecklist(password).every((rule) => rule.met);
    expect(allMet).toBe(validateMasterKey(password) === null);
  });
});
