import { checkEmail, MIXED_SCRIPT_EMAIL_MESSAGE } from '@coffer/contracts';
import { normalizeEmail } from '../db/values.js';
import { normalizeCountry } from './countries.js';
import type { SignUpField } from './idp.pages.js';
import { MAX_PASSWORD_LENGTH } from './password-hash.js';

/** A parsed `application/x-www-form-urlencoded` body. */
export type Form = Record<string, string>;

export const MAX_EMAIL_LENGTH = 254;
export const MAX_NAME_LENGTH = 100;
export const MIN_PASSWORD_LENGTH = 8;

/** A form field's text; '' when the field is missing (or the body is not a form). */
export function formText(form: Form | undefined, name: string): string {
  const raw = form?.[name];
  return typeof raw === 'string' ? raw : '';
}

export interface SignInForm {
  /** Normalized (trimmed, lower-cased). */
  email: string;
  password: string;
  fieldErrors: Partial<Record<'email' | 'password', string>>;
}

export function readSignInForm(form: Form): SignInForm {
  const email = normalizeEmail(formText(form, 'email')).slice(0, MAX_EMAIL_LENGTH);
  const password = formText(form, 'password');
  const fieldErrors: SignInForm['fieldErrors'] = {};
  if (email === '') fieldErrors.email = 'Enter your email address.';
  if (password === '') fieldErrors.password = 'Enter your password.';
  return { email, password, fieldErrors };
}

/** Why a typed address cannot be used, or undefined when it can. */
function emailProblem(raw: string): string | undefined {
  if (raw.trim() === '') return 'Enter your email address.';
  const check = checkEmail(raw);
  if (check.ok) return undefined;
  return check.reason === 'mixed-script' ? MIXED_SCRIPT_EMAIL_MESSAGE : 'Enter a valid email address.';
}

/** A form with one email field (reset request, resend). */
export function readEmailField(form: Form): { email: string; error?: string } {
  const email = normalizeEmail(formText(form, 'email')).slice(0, MAX_EMAIL_LENGTH);
  const error = emailProblem(formText(form, 'email'));
  return error === undefined ? { email } : { email, error };
}

export interface SignUpForm {
  /** What to show again in the form (never the passwords). */
  values: { name: string; email: string; country: string };
  fieldErrors: Partial<Record<SignUpField, string>>;
  /** Present when every field is valid. */
  valid?: { name: string; email: string; country: string; password: string };
}

export function readSignUpForm(form: Form): SignUpForm {
  const name = formText(form, 'name').trim();
  const email = normalizeEmail(formText(form, 'email'));
  const country = normalizeCountry(formText(form, 'country'));
  const password = formText(form, 'password');
  const values = {
    name: name.slice(0, MAX_NAME_LENGTH),
    email: email.slice(0, MAX_EMAIL_LENGTH),
    country: country ?? '',
  };

  const fieldErrors: SignUpForm['fieldErrors'] = {};
  if (name === '') fieldErrors.name = 'Enter your name.';
  else if (name.length > MAX_NAME_LENGTH) {
    fieldErrors.name = `Name must be at most ${MAX_NAME_LENGTH} characters.`;
  }
  const emailError = emailProblem(formText(form, 'email'));
  if (emailError !== undefined) fieldErrors.email = emailError;
  if (country === null) fieldErrors.country = 'Choose your country.';
  if (password === '') fieldErrors.password = 'Enter a password.';
  else if (password.length < MIN_PASSWORD_LENGTH) {
    fieldErrors.password = `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`;
  } else if (password.length > MAX_PASSWORD_LENGTH) {
    fieldErrors.password = `Password must be at most ${MAX_PASSWORD_LENGTH} characters.`;
  } else if (formText(form, 'confirmPassword') !== password) {
    fieldErrors.confirmPassword = 'Passwords do not match.';
  }

  if (Object.keys(fieldErrors).length > 0 || country === null) return { values, fieldErrors };
  return { values, fieldErrors, valid: { name, email, country, password } };
}
