import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../api/http';
import { addContactErrorMessage, isForbidden, retryUnlessClientError } from './contact-errors';

const answer = (status: number, code: string) =>
  new ApiRequestError(status, JSON.stringify({ code, message: code }));

describe('addContactErrorMessage', () => {
  it('names a duplicate, oneself and the contact limit, and is generic otherwise', () => {
    expect(addContactErrorMessage(answer(409, 'CONTACT_ALREADY_EXISTS'))).toBe(
      'A contact with this email already exists',
    );
    expect(addContactErrorMessage(answer(403, 'QUOTA_EXCEEDED'))).toBe(
      'You have reached your contact limit.',
    );
    expect(addContactErrorMessage(answer(400, 'CONTACT_IS_SELF'))).toBe(
      'That is your own email address. Add the people you want to exchange files with.',
    );
    expect(addContactErrorMessage(answer(400, 'VALIDATION_FAILED'))).toBe('Error adding contact!');
    expect(addContactErrorMessage(new TypeError('Failed to fetch'))).toBe('Error adding contact!');
  });
});

describe('isForbidden', () => {
  it('is true for 403 answers only', () => {
    expect(isForbidden(answer(403, 'FORBIDDEN'))).toBe(true);
    expect(isForbidden(new ApiRequestError(403, ''))).toBe(true);
    expect(isForbidden(answer(401, 'UNAUTHORIZED'))).toBe(false);
    expect(isForbidden(new Error('403'))).toBe(false);
  });
});

describe('retryUnlessClientError', () => {
  it('does not retry 4xx answers and retries anything else once', () => {
    expect(retryUnlessClientError(0, answer(404, 'KEYS_NOT_FOUND'))).toBe(false);
    expect(retryUnlessClientError(0, answer(403, 'FORBIDDEN'))).toBe(false);
    expect(retryUnlessClientError(0, answer(500, 'INTERNAL'))).toBe(true);
    expect(retryUnlessClientError(1, answer(500, 'INTERNAL'))).toBe(false);
    expect(retryUnlessClientError(0, new TypeError('Failed to fetch'))).toBe(true);
  });
});
