import type { MeResponse } from '@coffer/contracts';
import { describe, expect, it, vi } from 'vitest';
import { apiError, createFakeApi } from '../../test/fake-api';
import {
  confirmVerification,
  createEmailVerificationSignal,
  resendErrorMessage,
  verifyEmailMessages,
  watchEmailVerification,
} from './email-verification';

const me = (emailVerified: boolean): MeResponse => ({
  email: 'a@example.com',
  emailVerified,
  isAdmin: false,
  canResendVerification: true,
});

describe('watchEmailVerification', () => {
  it('signals an EMAIL_NOT_VERIFIED answer and still rejects with it', async () => {
    const signal = createEmailVerificationSignal();
    const heard = vi.fn();
    signal.subscribe(heard);
    const refused = apiError(403, 'EMAIL_NOT_VERIFIED');
    const api = watchEmailVerification(
      createFakeApi({
        'GET /users/keys': () => {
          throw refused;
        },
      }),
      signal,
    );
    await expect(api.request('GET', '/users/keys')).rejects.toBe(refused);
    expect(heard).toHaveBeenCalledOnce();
  });

  it('stays quiet for other answers', async () => {
    const signal = createEmailVerificationSignal();
    const heard = vi.fn();
    signal.subscribe(heard);
    const api = watchEmailVerification(
      createFakeApi({
        'GET /users/contacts': () => ({ contacts: [] }),
        'GET /users/keys': () => {
          throw apiError(403, 'FORBIDDEN');
        },
      }),
      signal,
    );
    await expect(api.request('GET', '/users/contacts')).resolves.toEqual({ contacts: [] });
    await expect(api.request('GET', '/users/keys')).rejects.toThrow();
    expect(heard).not.toHaveBeenCalled();
  });
});

describe('confirmVerification', () => {
  it('renews the tokens before asking the server', async () => {
    const order: string[] = [];
    const outcome = await confirmVerification({
      renewTokens: () => {
        order.push('renew');
        return Promise.resolve(true);
      },
      fetchMe: () => {
        order.push('me');
        return Promise.resolve(me(true));
      },
    });
    expect(order).toEqual(['renew', 'me']);
    expect(outcome.type).toBe('verified');
  });

  it('reports still unverified, signed out and failures', async () => {
    await expect(
      confirmVerification({
        renewTokens: () => Promise.resolve(true),
        fetchMe: () => Promise.resolve(me(false)),
      }),
    ).resolves.toMatchObject({ type: 'unverified' });
    const fetchMe = vi.fn(() => Promise.resolve(me(true)));
    await expect(
      confirmVerification({ renewTokens: () => Promise.resolve(false), fetchMe }),
    ).resolves.toEqual({
      type: 'signed-out',
    });
    expect(fetchMe).not.toHaveBeenCalled();
    await expect(
      confirmVerification({
        renewTokens: () => Promise.resolve(true),
        fetchMe: () => Promise.reject(new Error('x')),
      }),
    ).resolves.toMatchObject({ type: 'failed' });
  });
});

describe('resendErrorMessage', () => {
  it('asks to wait on a rate limit, else says the mail could not be sent', () => {
    expect(resendErrorMessage(apiError(429, 'RATE_LIMITED'))).toBe(verifyEmailMessages.resendRateLimited);
    expect(resendErrorMessage(apiError(500, 'INTERNAL'))).toBe(verifyEmailMessages.resendFailed);
    expect(resendErrorMessage(new Error('offline'))).toBe(verifyEmailMessages.resendFailed);
  });
});
