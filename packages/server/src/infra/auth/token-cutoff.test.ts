import { describe, expect, it } from 'vitest';
import { UnauthorizedError } from '../../http/errors.js';
import type { Identity } from './identity.js';
import { withSessionCutoff } from './token-cutoff.js';

const identity = (issuedAt?: number): Identity => ({
  issuer: 'https://idp.example',
  subject: 'ann',
  email: null,
  emailVerified: null,
  emails: [],
  name: null,
  country: null,
  idp: 'local',
  ...(issuedAt === undefined ? {} : { issuedAt }),
});

describe('withSessionCutoff', () => {
  const cutoff = new Date('2026-11-27T10:00:00.500Z');
  const seconds = cutoff.getTime() / 1000;
  const verify = (who: Identity, at: Date | undefined) =>
    withSessionCutoff({ verify: () => Promise.resolve(who) }, () => Promise.resolve(at)).verify('t');

  it('passes tokens of accounts that never signed out everywhere', async () => {
    await expect(verify(identity(1), undefined)).resolves.toMatchObject({ subject: 'ann' });
  });

  it('refuses tokens issued before the cutoff, and in its own second', async () => {
    await expect(verify(identity(Math.floor(seconds) - 60), cutoff)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    await expect(verify(identity(Math.floor(seconds)), cutoff)).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(verify(identity(), cutoff)).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('accepts tokens issued after it', async () => {
    await expect(verify(identity(Math.ceil(seconds)), cutoff)).resolves.toMatchObject({ subject: 'ann' });
  });
});
