import { describe, expect, it } from 'vitest';
import {
  isValidEmail,
  validateContact,
  validateContactEmail,
  validateContactName,
  validateFeedback,
  validateMasterKey,
  validateMasterKeyConfirmation,
} from './password-rules.js';

describe('validateMasterKey', () => {
  it('reports the first failing rule in the spec order', () => {
    expect(validateMasterKey('')).toBe('Password is required');
    expect(validateMasterKey('Ab1!')).toBe('Password must be at least 8 characters');
    expect(validateMasterKey('abcdefg1!')).toBe('Password must contain at least one uppercase letter');
    expect(validateMasterKey('ABCDEFG1!')).toBe('Password must contain at least one lowercase letter');
    expect(validateMasterKey('Abcdefgh!')).toBe('Password must contain at least one number');
    expect(validateMasterKey('Abcdefgh1')).toBe('Password must contain at least one special character');
    expect(validateMasterKey('Abcdefg1!')).toBeNull();
  });

  it('checks length before character classes', () => {
    expect(validateMasterKey('a')).toBe('Password must be at least 8 characters');
  });

  it('counts a space as a special character', () => {
    expect(validateMasterKey('Correct horse 1')).toBeNull();
  });

  it('accepts non-ASCII letters', () => {
    expect(validateMasterKey('Élan-vital9')).toBeNull();
    expect(validateMasterKey('élan-vital9')).toBe('Password must contain at least one uppercase letter');
  });
});

describe('validateMasterKeyConfirmation', () => {
  it('requires a confirmation equal to the password', () => {
    expect(validateMasterKeyConfirmation('Abcdefg1!', '')).toBe('Please confirm your password');
    expect(validateMasterKeyConfirmation('Abcdefg1!', 'Abcdefg1?')).toBe('Passwords do not match');
    expect(validateMasterKeyConfirmation('Abcdefg1!', 'Abcdefg1!')).toBeNull();
  });
});

describe('contact validation', () => {
  it('requires a non-blank name', () => {
    expect(validateContactName('')).toBe('Name is required.');
    expect(validateContactName('   ')).toBe('Name is required.');
    expect(validateContactName(' Ada ')).toBeNull();
  });

  it('requires a simple email', () => {
    for (const bad of ['', 'ada', 'ada@', 'ada@example', '@example.com', 'a b@example.com', 'a@b@c.com']) {
      expect(validateContactEmail(bad), bad).toBe('Enter a valid email.');
    }
    expect(validateContactEmail('ada@example.com')).toBeNull();
    expect(validateContactEmail(' ada@example.com ')).toBeNull();
    expect(isValidEmail(`${'a'.repeat(250)}@b.co`)).toBe(false);
  });

  it('reports errors per field', () => {
    expect(validateContact({ name: '', email: 'x' })).toEqual({
      name: 'Name is required.',
      email: 'Enter a valid email.',
    });
    expect(validateContact({ name: 'Ada', email: 'ada@example.com' })).toEqual({});
  });
});

describe('validateFeedback', () => {
  it('requires non-blank text of at most 2000 characters', () => {
    expect(validateFeedback('')).toBe('Please enter your feedback');
    expect(validateFeedback(' \n ')).toBe('Please enter your feedback');
    expect(validateFeedback('x'.repeat(2001))).toBe('Feedback exceeds maximum length of 2000 characters');
    expect(validateFeedback('x'.repeat(2000))).toBeNull();
    expect(validateFeedback('Great app')).toBeNull();
  });
});
