/** Form validation rules of spec section 5; each returns the first failing message, or null. */
import { EMAIL_MAX_LENGTH, FEEDBACK_MAX_LENGTH, MASTER_KEY_MIN_LENGTH } from './constants.js';
import { contactsMessages, feedbackMessages, passwordMessages } from './messages.js';

/**
 * The spec's "simple pattern" for emails, shared with the API schemas so that what the
 * form accepts the server accepts too: something@something.something, without whitespace,
 * control characters or a second '@'.
 */
export const EMAIL_PATTERN =
  '^[^\\s@\\u0000-\\u001F\\u007F]+@[^\\s@\\u0000-\\u001F\\u007F]+\\.[^\\s@\\u0000-\\u001F\\u007F]+$';
const emailRegExp = new RegExp(EMAIL_PATTERN, 'u');

export function isValidEmail(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && emailRegExp.test(email);
}

/**
 * Master unlock key rules in the spec's order. Letters and digits are Unicode-aware
 * (\p{Lu}, \p{Ll}, \p{Nd}); any character that is neither a letter nor a digit (spaces
 * included) counts as special. Length counts code points.
 */
export function validateMasterKey(password: string): string | null {
  if (password === '') return passwordMessages.required;
  if (Array.from(password).length < MASTER_KEY_MIN_LENGTH) return passwordMessages.tooShort;
  if (!/\p{Lu}/u.test(password)) return passwordMessages.uppercase;
  if (!/\p{Ll}/u.test(password)) return passwordMessages.lowercase;
  if (!/\p{Nd}/u.test(password)) return passwordMessages.number;
  if (!/[^\p{L}\p{N}]/u.test(password)) return passwordMessages.special;
  return null;
}

/** The set-up confirmation field. */
export function validateMasterKeyConfirmation(password: string, confirmation: string): string | null {
  if (confirmation === '') return passwordMessages.confirmRequired;
  if (confirmation !== password) return passwordMessages.mismatch;
  return null;
}

export function validateContactName(name: string): string | null {
  return name.trim() === '' ? contactsMessages.nameRequired : null;
}

/** The email is checked as typed, after trimming. */
export function validateContactEmail(email: string): string | null {
  return isValidEmail(email.trim()) ? null : contactsMessages.invalidEmail;
}

export interface ContactFormErrors {
  name?: string;
  email?: string;
}

/** Per-field errors of the add/edit contact form; an empty object when valid. */
export function validateContact(contact: { name: string; email: string }): ContactFormErrors {
  const errors: ContactFormErrors = {};
  const name = validateContactName(contact.name);
  const email = validateContactEmail(contact.email);
  if (name !== null) errors.name = name;
  if (email !== null) errors.email = email;
  return errors;
}

/** Feedback: non-blank, at most 2000 characters (UTF-16 units, stricter than the server's code points). */
export function validateFeedback(message: string): string | null {
  if (message.trim() === '') return feedbackMessages.required;
  if (message.length > FEEDBACK_MAX_LENGTH) return feedbackMessages.tooLong;
  return null;
}
