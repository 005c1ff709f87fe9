import type { StatsResponse } from '@coffer/contracts';
import type { Kysely } from 'kysely';
import type { PlanLimits, Tier } from '../../config.js';
import type { AuthUser } from '../../infra/auth/auth.plugin.js';
import { isAdminEmail } from '../../infra/auth/auth.plugin.js';
import type { Identity } from '../../infra/auth/identity.js';
import type { DB, UserRow } from '../../infra/db/schema.js';
import { limitsFor, periodStart } from './plans.js';
import { createRecentUsers } from './recent-users.js';
import type { UsersRepo } from './users.repo.js';
import { holdsIdentity } from './users.repo.js';
import { createUsageRepo } from './usage.repo.js';

/** The authenticated caller as every module sees it: the user row plus the admin flag. */
export interface CurrentUser extends AuthUser {
  row: UserRow;
  /** Whether the identity's address is verified; until it is, `email` is null. */
  emailVerified: boolean;
  /** The address the token names, verified or not (for the "verify your email" screen only). */
  claimedEmail: string | null;
}

/**
 * `current`: the caller's row as the database holds it now. `recent`: a row this instance read for the
 * same identity within RECENT_USER_MS will do (for routes that grant nothing from the row).
 */
export type UserFreshness = 'current' | 'recent';

export interface UsersService {
  resolve(identity: Identity, freshness?: UserFreshness): Promise<CurrentUser>;
  stats(user: UserRow): Promise<StatsResponse>;
}

export interface UsersServiceDeps {
  db: Kysely<DB>;
  repo: UsersRepo;
  adminEmails: readonly string[];
  /** OIDC_EMAIL_VERIFIED_WHEN_ABSENT: how to read a token without an `email_verified` claim. */
  emailVerifiedWhenAbsent: boolean;
  plans: Record<Tier, PlanLimits>;
  now: () => Date;
}

export function createUsersService(deps: UsersServiceDeps): UsersService {
  const usage = createUsageRepo(deps.db);
  const recentUsers = createRecentUsers(deps.now);
  return {
    async resolve(identity, freshness = 'current') {
      const emailVerified =
        identity.email !== null && (identity.emailVerified ?? deps.emailVerifiedWhenAbsent);
      const recent = freshness === 'recent' ? recentUsers.get(identity) : undefined;
      // A remembered row that no longer matches the token (new name, address now verified) is written first.
      let row: UserRow;
      if (recent !== undefined && holdsIdentity(recent, identity, emailVerified)) {
        row = recent;
      } else {
        row = await deps.repo.upsertFromIdentity(identity, emailVerified, deps.now());
        recentUsers.remember(identity, row);
      }
      return {
        id: row.id,
        email: row.email,
        name: row.name,
        // Only the account that holds the verified email may be admin through it.
        isAdmin:
          emailVerified &&
          row.email !== null &&
          row.email === identity.email &&
          isAdminEmail(identity.email, deps.adminEmails),
        row,
        emailVerified: emailVerified && row.email !== null,
        claimedEmail: identity.email,
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
