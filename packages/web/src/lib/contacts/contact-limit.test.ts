import { describe, expect, it } from 'vitest';
import { isContactLimitReached } from './contact-limit';

const at = (count: number, maxContacts: number) => ({
  contacts: { count },
  subscription: {
    tier: 'Free' as const,
    limits: {
      storageLimit: 5,
      monthlyUploadLimit: 100,
      monthlyDownloadLimit: 500,
      maxContacts,
      maxShares: 20,
      maxConcurrentUploads: 1,
      currentPeriodEnd: null,
    },
  },
});

describe('isContactLimitReached', () => {
  it('is reached at or above the maximum', () => {
    expect(isContactLimitReached(at(9, 10))).toBe(false);
    expect(isContactLimitReached(at(10, 10))).toBe(true);
    expect(isContactLimitReached(at(11, 10))).toBe(true);
    expect(isContactLimitReached(at(0, 0))).toBe(true);
  });

  it('is not reached while stats load', () => {
    expect(isContactLimitReached(undefined)).toBe(false);
  });
});
