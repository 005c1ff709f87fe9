import {
  accountTierOf,
  formatGb,
  formatStorageUsed,
  storagePercent,
  tierLabels,
  type AccountTier,
  type StatsResponse,
} from '@coffer/contracts';
import { formatDate } from './date';

export interface UsageLine {
  used: number;
  limit: number;
}

/** What the Limits card shows (spec section 9), computed from GET /users/stats. */
export interface LimitsView {
  tier: AccountTier;
  /** 'Free Tier' or 'Personal Tier'. */
  tierLabel: string;
  /** null while stats load. */
  storage: { usedText: string; limitText: string; percent: number } | null;
  contacts: UsageLine | null;
  shares: UsageLine | null;
  /**
   * The spec computes the monthly transfer limits but does not display them; kept here so a later
   * screen (or the upload queue) can use them without another derivation.
   */
  monthlyUploads: UsageLine | null;
  monthlyDownloads: UsageLine | null;
  /** 'dd/mm/yyyy'; only on the paid tier with a known period end. */
  nextBillingDate: string | null;
}

/**
 * The Limits card's figures. The tier is FREE when stats say 'Free' and also while they load
 * (`stats` undefined), so the card never flashes the paid tier.
 */
export function limitsViewOf(stats: StatsResponse | undefined): LimitsView {
  const tier = accountTierOf(stats?.subscription.tier);
  const tierLabel = tier === 'FREE' ? tierLabels.Free : tierLabels.Personal;
  if (stats === undefined) {
    return {
      tier,
      tierLabel,
      storage: null,
      contacts: null,
      shares: null,
      monthlyUploads: null,
      monthlyDownloads: null,
      nextBillingDate: null,
    };
  }
  const { limits } = stats.subscription;
  const periodEnd = limits.currentPeriodEnd;
  const nextBillingDate = tier === 'PAID' && periodEnd !== null ? formatDate(periodEnd) || null : null;
  return {
    tier,
    tierLabel,
    storage: {
      usedText: formatStorageUsed(stats.storage.used),
      limitText: formatGb(limits.storageLimit),
      percent: storagePercent(stats.storage.used, limits.storageLimit),
    },
    contacts: { used: stats.contacts.count, limit: limits.maxContacts },
    shares: { used: stats.sharing.count, limit: limits.maxShares },
    monthlyUploads: { used: stats.transfers.uploads.count, limit: limits.monthlyUploadLimit },
    monthlyDownloads: { used: stats.transfers.downloads.count, limit: limits.monthlyDownloadLimit },
    nextBillingDate,
  };
}
