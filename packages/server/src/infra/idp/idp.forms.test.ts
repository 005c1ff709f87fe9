import { describe, expect, it } from 'vitest';
import { readSignInForm, readSignUpForm } from './idp.forms.js';

const good = {
  name: ' Ann Lee ',
  email: ' Ann@Example.TEST ',
  country: 'nl',
  password: 'long enough',
  confirmPassword: 'long enough',
};

describe('sign-up form', () => {
  it('normalizes a valid form', () => {
    expect(readSignUpForm(good)).toEqual({
      values: { name: 'Ann Lee', email: 'ann@example.test', country: 'NL' },
      fieldErrors: {},
      valid: { name: 'Ann Lee', email: 'ann@example.test', country: 'NL', password: 'long enough' },
    });
  });

  it.each([
    [{ name: '' }, 'name', 'Enter your name.'],
    [{ name: 'x'.repeat(101) }, 'name', 'Name must be at most 100 characters.'],
    [{ email: '' }, 'email', 'Enter your email address.'],
    [{ email: 'ann@localhost' }, 'email', 'Enter a valid email address.'],
    [{ email: `${'a'.repeat(250)}@x.io` }, 'email', 'Enter a valid email address.'],
    [{ country: '' }, 'country', 'Choose your country.'],
    [{ password: '', confirmPassword: '' }, 'password', 'Enter a password.'],
    [{ password: 'short', confirmPassword: 'short' }, 'password', 'Password must be at least 8 characters.'],
    [{ password: 'y'.repeat(1025) }, 'password', 'Password must be at most 1024 characters.'],
    [{ confirmPassword: 'long enougH' }, 'confirmPassword', 'Passwords do not match.'],
  ])('%j → %s: %s', (change, field, message) => {
    const form = readSignUpForm({ ...good, ...change });
    expect(form.valid).toBeUndefined();
    expect(form.fieldErrors).toEqual({ [field]: message });
  });

  it('never echoes the password', () => {
    expect(JSON.stringify(readSignUpForm({ ...good, name: '' }).values)).not.toContain('long enough');
  });
});

describe('sign-in form', () => {
  it('normalizes the email and asks for missing fields', () => {
    expect(readSignInForm({ email: ' Bob@Example.test', password: 'pw' })).toEqual({
      email: 'bob@example.test',
      password: 'pw',
      fieldErrors: {},
    });
    expect(readSignInForm({}).fieldErrors).toEqual({
      email: 'Enter your email address.',
      password: 'Enter your password.',
    });
  });
});
