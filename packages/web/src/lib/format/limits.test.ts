import { BYTES_PER_GB, type StatsResponse } from '@coffer/contracts';
import { describe, expect, it } from 'vitest';
import { limitsViewOf } from './limits';

function stats(
  overrides: Partial<StatsResponse['subscription']['limits']> & {
    tier?: 'Free' | 'Personal';
    used?: number;
  } = {},
): StatsResponse {
  const { tier = 'Free', used = 0, ...limits } = overrides;
  return {
    subscription: {
      tier,
      limits: {
        storageLimit: 5,
        monthlyUploadLimit: 100,
        monthlyDownloadLimit: 500,
        maxContacts: 10,
        maxShares: 20,
        maxConcurrentUploads: 1,
        currentPeriodEnd: null,
        ...limits,
      },
    },
    storage: { used },
    transfers: { uploads: { count: 3 }, downloads: { count: 4 } },
    contacts: { count: 2 },
    sharing: { count: 7 },
  };
}

describe('limitsViewOf', () => {
  it('is the free tier with nothing known while stats load', () => {
    expect(limitsViewOf(undefined)).toEqual({
      tier: 'FREE',
      tierLabel: 'Free Tier',
      storage: null,
      contacts: null,
      shares: null,
      monthlyUploads: null,
      monthlyDownloads: null,
      nextBillingDate: null,
    });
  });

  it('labels the tiers', () => {
    expect(limitsViewOf(stats()).tierLabel).toBe('Free Tier');
    expect(limitsViewOf(stats({ tier: 'Personal' })).tierLabel).toBe('Personal Tier');
    expect(limitsViewOf(stats({ tier: 'Personal' })).tier).toBe('PAID');
  });

  it('counts contacts, shares and the monthly transfers against their limits', () => {
    const view = limitsViewOf(stats());
    expect(view.contacts).toEqual({ used: 2, limit: 10 });
    expect(view.shares).toEqual({ used: 7, limit: 20 });
    expect(view.monthlyUploads).toEqual({ used: 3, limit: 100 });
    expect(view.monthlyDownloads).toEqual({ used: 4, limit: 500 });
  });

  it('shows storage in GB with the spec percentage rule', () => {
    expect(limitsViewOf(stats({ used: 1.25 * BYTES_PER_GB })).storage).toEqual({
      usedText: '1.25 GB',
      limitText: '5 GB',
      percent: 25,
    });
    // Rounded up…
    expect(limitsViewOf(stats({ used: 0.0101 * 5 * BYTES_PER_GB })).storage?.percent).toBe(2);
    // …but 99 between 99 and 100, and capped at 100.
    expect(limitsViewOf(stats({ used: 0.995 * 5 * BYTES_PER_GB })).storage?.percent).toBe(99);
    expect(limitsViewOf(stats({ used: 5 * BYTES_PER_GB })).storage?.percent).toBe(100);
    expect(limitsViewOf(stats({ used: 6 * BYTES_PER_GB })).storage?.percent).toBe(100);
  });

  it('shows a small use in its own unit rather than 0.00 GB', () => {
    expect(limitsViewOf(stats({ used: 512 * 1024 })).storage?.usedText).toBe('512.00 KB');
    expect(limitsViewOf(stats({ used: 0 })).storage?.usedText).toBe('0.00 GB');
  });

  it('shows the next billing date on the paid tier only', () => {
    const end = new Date(2030, 0, 31, 12, 0, 0).toISOString();
    expect(limitsViewOf(stats({ tier: 'Personal', currentPeriodEnd: end })).nextBillingDate).toBe(
      '31/01/2030',
    );
    expect(limitsViewOf(stats({ tier: 'Free', currentPeriodEnd: end })).nextBillingDate).toBeNull();
    expect(limitsViewOf(stats({ tier: 'Personal', currentPeriodEnd: null })).nextBillingDate).toBeNull();
  });
});
