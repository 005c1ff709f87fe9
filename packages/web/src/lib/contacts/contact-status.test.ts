import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../api/http';
import { contactActionOf, isKeyNotFound, keyLookupOf, toContactView } from './contact-status';

const ada = { name: 'Ada', email: 'ada@example.com', color: '#0ca678', image: null, invited: false };
const notFound = new ApiRequestError(404, JSON.stringify({ code: 'KEYS_NOT_FOUND', message: 'No keys' }));
const serverError = new ApiRequestError(500, JSON.stringify({ code: 'INTERNAL', message: 'Boom' }));

describe('key lookup', () => {
  it('reads a query result', () => {
    expect(keyLookupOf(undefined)).toEqual({ state: 'pending' });
    expect(keyLookupOf({ data: undefined, error: null })).toEqual({ state: 'pending' });
    expect(keyLookupOf({ data: { publicKey: 'AAAA', keyId: 'k1' }, error: null })).toEqual({
      state: 'found',
      publicKey: 'AAAA',
      keyId: 'k1',
    });
    expect(keyLookupOf({ data: undefined, error: notFound })).toEqual({ state: 'missing' });
    expect(keyLookupOf({ data: undefined, error: serverError })).toEqual({ state: 'failed' });
    expect(keyLookupOf({ data: undefined, error: new TypeError('Failed to fetch') })).toEqual({
      state: 'failed',
    });
  });

  it('treats only a 404 as "no key"', () => {
    expect(isKeyNotFound(notFound)).toBe(true);
    expect(isKeyNotFound(new ApiRequestError(404, ''))).toBe(true);
    expect(isKeyNotFound(serverError)).toBe(false);
    expect(isKeyNotFound(new Error('x'))).toBe(false);
  });
});

describe('contact view', () => {
  it('is checking while the lookup runs, with no action', () => {
    const view = toContactView(ada, { state: 'pending' });
    expect(view.status).toBe('checking');
    expect(contactActionOf(view)).toBe('none');
  });

  it('is verified with a key, and offers Share files', () => {
    const view = toContactView(ada, { state: 'found', publicKey: 'AAAA', keyId: 'k1' });
    expect(view).toMatchObject({ status: 'verified', publicKey: 'AAAA', keyId: 'k1' });
    expect(contactActionOf(view)).toBe('share');
  });

  it('is unverified without a key: Invite, or Invited once the server recorded an invitation', () => {
    const fresh = toContactView(ada, { state: 'missing' });
    expect(fresh).toMatchObject({ status: 'unverified', publicKey: null, invited: false });
    expect(contactActionOf(fresh)).toBe('invite');
    expect(contactActionOf(toContactView({ ...ada, invited: true }, { state: 'missing' }))).toBe('invited');
    expect(contactActionOf(toContactView(ada, { state: 'missing' }, true))).toBe('invited');
  });

  it('marks a contact whose lookup failed as not invited (spec section 4)', () => {
    const view = toContactView({ ...ada, invited: true }, { state: 'failed' });
    expect(view).toMatchObject({ status: 'unverified', invited: false, publicKey: null });
    expect(contactActionOf(view)).toBe('invite');
    // Inviting from the screen still shows 'Invited'.
    expect(contactActionOf(toContactView(ada, { state: 'failed' }, true))).toBe('invited');
  });
});
