import type { StatsResponse } from '@coffer/contracts';

/**
 * True when the user has as many contacts as the subscription allows (spec: the Contacts screen then
 * shows 'You have reached your contact limit.'). Unknown while stats load, which counts as not reached:
 * the server enforces the limit anyway (403 QUOTA_EXCEEDED).
 */
export function isContactLimitReached(
  stats: Pick<StatsResponse, 'contacts' | 'subscription'> | undefined,
): boolean {
  if (stats === undefined) return false;
  return stats.contacts.count >= stats.subscription.limits.maxContacts;
}
