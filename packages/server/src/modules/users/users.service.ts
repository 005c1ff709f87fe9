import type { StatsResponse } from '@coffer/contracts';
import type { Kysely } from 'kysely';
import type { PlanLimits, Tier } from '../../config.js';
import type { AuthUser } from '../../infra/auth/auth.plugin.js';
import { isAdminIdentity } from '../../infra/auth/auth.plugin.js';
import type { Identity } from '../../infra/auth/identity.js';
import type { DB, UserRow } from '../../infra/db/schema.js';
import { limitsFor, periodStart } from './plans.js';
import type { UsersRepo } from './users.repo.js';
import { createUsageRepo } from './usage.repo.js';

/** The authenticated caller as every module sees it: the user row plus the admin flag. */
export interface CurrentUser extends AuthUser {
  row: UserRow;
}

export interface UsersService {
  resolve(identity: Identity): Promise<CurrentUser>;
  stats(user: UserRow): Promise<StatsResponse>;
}

export interface UsersServiceDeps {
  db: Kysely<DB>;
  repo: UsersRepo;
  adminEmails: readonly string[];
  plans: Record<Tier, PlanLimits>;
  now: () => Date;
}

export function createUsersService(deps: UsersServiceDeps): UsersService {
  const usage = createUsageRepo(deps.db);
  return {
    async resolve(identity) {
      const row = await deps.repo.upsertFromIdentity(identity, deps.now());
      return {
        id: row.id,
        email: row.email,
        name: row.name,
        // Only the account that holds the email may be admin through it.
        isAdmin:
          row.email !== null && row.email === identity.email && isAdminIdentity(identity, deps.adminEmails),
        row,
      };
    },

    async stats(user) {
      const now = deps.now();
      const { tier, limits } = limitsFor(user, deps.plans, now);
      const counts = await usage.countsFor(user.id, periodStart(user, now));
      return {
        subscription: { tier, limits },
        storage: { used: counts.storageUsed },
        transfers: { uploads: { count: counts.uploads }, downloads: { count: counts.downloads } },
        contacts: { count: counts.contacts },
        sharing: { count: counts.shares },
      };
    },
  };
}
