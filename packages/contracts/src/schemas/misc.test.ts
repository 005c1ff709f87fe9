import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../error-codes.js';
import { EmailParamsSchema, HealthResponseSchema, OkResponseSchema } from './common.js';
import {
  AddContactRequestSchema,
  ContactSchema,
  ContactsResponseSchema,
  UpdateContactRequestSchema,
} from './contacts.js';
import { FeedbackListResponseSchema, FeedbackRequestSchema } from './feedback.js';
import { encryptedFileKeyB64, isoDate } from './fixtures.test-helpers.js';
import { InvitationRequestSchema } from './invitations.js';
import { CheckoutRequestSchema, PortalRequestSchema, RedirectUrlResponseSchema } from './payments.js';
import { FileSharesResponseSchema, ShareFileRequestSchema, ShareParamsSchema } from './shares.js';
import { StatsResponseSchema } from './stats.js';

describe('shares', () => {
  const share = { email: 'ada@example.com', encryptedFileKey: encryptedFileKeyB64, keyVersion: 'k2' };

  it('accept good payloads', () => {
    expect(Value.Check(ShareFileRequestSchema, share)).toBe(true);
    expect(
      Value.Check(FileSharesResponseSchema, { shares: [{ email: 'ada@example.com', name: 'Ada' }] }),
    ).toBe(true);
    expect(Value.Check(ShareParamsSchema, { id: 'f1', email: 'ada@example.com' })).toBe(true);
  });

  it('reject bad emails, keys and extras', () => {
    expect(Value.Check(ShareFileRequestSchema, { ...share, email: 'ada' })).toBe(false);
    expect(Value.Check(ShareFileRequestSchema, { ...share, email: `${'a'.repeat(250)}@x.io` })).toBe(false);
    expect(Value.Check(ShareFileRequestSchema, { ...share, encryptedFileKey: 'raw-key' })).toBe(false);
    expect(Value.Check(ShareFileRequestSchema, { ...share, fileKey: 'AAAA' })).toBe(false);
    expect(
      Value.Check(ShareFileRequestSchema, { email: share.email, encryptedFileKey: share.encryptedFileKey }),
    ).toBe(false);
  });
});

describe('contacts and invitations', () => {
  const contact = { name: 'Ada', email: 'ada@example.com', color: '#1a2b3c', image: null, invited: false };

  it('accept good payloads', () => {
    expect(Value.Check(ContactSchema, contact)).toBe(true);
    expect(Value.Check(ContactsResponseSchema, { contacts: [contact] })).toBe(true);
    expect(Value.Check(AddContactRequestSchema, { email: 'ada@example.com', name: 'Ada' })).toBe(true);
    expect(Value.Check(UpdateContactRequestSchema, { name: 'Ada L.' })).toBe(true);
    expect(Value.Check(InvitationRequestSchema, { to: 'bob@example.org' })).toBe(true);
    expect(Value.Check(EmailParamsSchema, { email: 'a+b@example.org' })).toBe(true);
  });

  it('reject blank names, bad emails, email changes and extras', () => {
    expect(Value.Check(AddContactRequestSchema, { email: 'ada@example.com', name: '   ' })).toBe(false);
    expect(Value.Check(AddContactRequestSchema, { email: 'ada@example.com', name: 'x'.repeat(256) })).toBe(
      false,
    );
    expect(Value.Check(AddContactRequestSchema, { email: 'ada@example', name: 'Ada' })).toBe(false);
    expect(Value.Check(UpdateContactRequestSchema, { name: 'Ada', email: 'new@example.com' })).toBe(false);
    expect(Value.Check(InvitationRequestSchema, { to: 'bob' })).toBe(false);
    expect(Value.Check(ContactSchema, { ...contact, color: 'red' })).toBe(false);
  });
});

describe('feedback', () => {
  it('accepts non-blank messages up to 2000 characters', () => {
    expect(Value.Check(FeedbackRequestSchema, { message: 'Nice' })).toBe(true);
    expect(Value.Check(FeedbackRequestSchema, { message: 'x'.repeat(2000) })).toBe(true);
    expect(Value.Check(FeedbackRequestSchema, { message: '' })).toBe(false);
    expect(Value.Check(FeedbackRequestSchema, { message: '  \n ' })).toBe(false);
    expect(Value.Check(FeedbackRequestSchema, { message: 'x'.repeat(2001) })).toBe(false);
    expect(Value.Check(FeedbackRequestSchema, { message: 'x', userEmail: 'a@b.co' })).toBe(false);
  });

  it('lists entries for admins', () => {
    const entry = { id: 'fb1', userEmail: 'ada@example.com', message: '', timestamp: isoDate };
    expect(Value.Check(FeedbackListResponseSchema, { feedback: [entry] })).toBe(true);
  });
});

describe('payments', () => {
  it('accept http(s) URLs only', () => {
    expect(Value.Check(PortalRequestSchema, { returnUrl: 'https://coffer.example/profile' })).toBe(true);
    expect(Value.Check(PortalRequestSchema, { returnUrl: 'javascript:alert(1)' })).toBe(false);
    const checkout = {
      priceId: 'price_123',
      successUrl: 'http://localhost:3000/profile?ok=1',
      cancelUrl: 'http://localhost:3000/profile',
    };
    expect(Value.Check(CheckoutRequestSchema, checkout)).toBe(true);
    expect(Value.Check(CheckoutRequestSchema, { ...checkout, priceId: 'price 1' })).toBe(false);
    expect(Value.Check(RedirectUrlResponseSchema, { url: 'https://billing.example/session/1' })).toBe(true);
  });
});

describe('stats', () => {
  const stats = {
    subscription: {
      tier: 'Free',
      limits: {
        storageLimit: 5,
        monthlyUploadLimit: 100,
        monthlyDownloadLimit: 500,
        maxContacts: 10,
        maxShares: 20,
        maxConcurrentUploads: 1,
        currentPeriodEnd: null,
      },
    },
    storage: { used: 1234 },
    transfers: { uploads: { count: 3 }, downloads: { count: 4 } },
    contacts: { count: 2 },
    sharing: { count: 1 },
  };

  it('accepts the spec shape', () => {
    expect(Value.Check(StatsResponseSchema, stats)).toBe(true);
    const paid = {
      ...stats,
      subscription: {
        tier: 'Personal',
        limits: { ...stats.subscription.limits, currentPeriodEnd: isoDate },
      },
    };
    expect(Value.Check(StatsResponseSchema, paid)).toBe(true);
  });

  it('rejects unknown tiers and negative usage', () => {
    expect(
      Value.Check(StatsResponseSchema, { ...stats, subscription: { ...stats.subscription, tier: 'Gold' } }),
    ).toBe(false);
    expect(Value.Check(StatsResponseSchema, { ...stats, storage: { used: -1 } })).toBe(false);
  });
});

describe('generic answers', () => {
  it('checks ok, health and error bodies', () => {
    expect(Value.Check(OkResponseSchema, { ok: true })).toBe(true);
    expect(Value.Check(OkResponseSchema, { ok: false })).toBe(false);
    expect(Value.Check(HealthResponseSchema, { status: 'ok', version: '0.1.0' })).toBe(true);
    expect(Value.Check(ErrorBodySchema, { code: 'FILE_NOT_FOUND', message: 'File not found' })).toBe(true);
    expect(Value.Check(ErrorBodySchema, { code: 'TEAPOT', message: 'x' })).toBe(false);
  });
});
