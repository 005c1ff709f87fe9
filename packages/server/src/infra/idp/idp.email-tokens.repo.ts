import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { nowIso } from '../db/values.js';
import type { PendingCredentials } from './idp.accounts.repo.js';

/** What a mailed link is for. */
export type EmailTokenPurpose = 'verify' | 'reset';

/** How long a mailed link works. */
export const EMAIL_TOKEN_TTL_MS: Readonly<Record<EmailTokenPurpose, number>> = {
  verify: 24 * 60 * 60 * 1000,
  reset: 60 * 60 * 1000,
};

export interface EmailToken {
  purpose: EmailTokenPurpose;
  accountId: string;
  email: string;
  pending: PendingCredentials | null;
  expiresAt: string;
}

export interface IdpEmailTokensRepo {
  /** A new single-use token; returns the secret for the link (only its hash is stored). */
  issue(
    purpose: EmailTokenPurpose,
    accountId: string,
    email: string,
    now: Date,
    pending?: PendingCredentials,
  ): Promise<string>;
  /** The token if it is unused and unexpired, without using it (to show the page behind a link). */
  peek(purpose: EmailTokenPurpose, secret: string, now: Date): Promise<EmailToken | undefined>;
  /**
   * Uses the token: atomically, so two requests with one link cannot both succeed. Every other
   * unused token of the same purpose for the account stops working too.
   */
  use(purpose: EmailTokenPurpose, secret: string, now: Date): Promise<EmailToken | undefined>;
  /** The credentials of the newest unused confirmation link of a re-sign-up, if any. */
  newestPending(accountId: string, now: Date): Promise<PendingCredentials | null>;
  /** Removes used and expired tokens. */
  deleteStale(now: Date): Promise<number>;
}

/** 32 random bytes, base64url: what goes into a link. */
function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

function hashOf(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Secrets are 43 base64url characters; anything else is not worth a query. */
const SECRET = /^[A-Za-z0-9_-]{43}$/;

export function createIdpEmailTokensRepo(db: Kysely<DB>): IdpEmailTokensRepo {
  async function find(purpose: EmailTokenPurpose, secret: string, now: Date) {
    if (!SECRET.test(secret)) return undefined;
    return db
      .selectFrom('idp_email_tokens')
      .selectAll()
      .where('id', '=', hashOf(secret))
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', nowIso(now))
      .executeTakeFirst();
  }

  function toToken(row: NonNullable<Awaited<ReturnType<typeof find>>>): EmailToken {
    return {
      purpose: row.purpose,
      accountId: row.account_id,
      email: row.email,
      pending:
        row.pending_password_hash === null
          ? null
          : {
              passwordHash: row.pending_password_hash,
              name: row.pending_name ?? '',
              country: row.pending_country,
            },
      expiresAt: row.expires_at,
    };
  }

  return {
    async issue(purpose, accountId, email, now, pending) {
      const secret = newSecret();
      await db
        .insertInto('idp_email_tokens')
        .values({
          id: hashOf(secret),
          purpose,
          account_id: accountId,
          email,
          pending_password_hash: pending?.passwordHash ?? null,
          pending_name: pending?.name ?? null,
          pending_country: pending?.country ?? null,
          created_at: nowIso(now),
          expires_at: nowIso(new Date(now.getTime() + EMAIL_TOKEN_TTL_MS[purpose])),
          used_at: null,
        })
        .execute();
      return secret;
    },

    async peek(purpose, secret, now) {
      const row = await find(purpose, secret, now);
      return row === undefined ? undefined : toToken(row);
    },

    async use(purpose, secret, now) {
      if (!SECRET.test(secret)) return undefined;
      const at = nowIso(now);
      const row = await db
        .updateTable('idp_email_tokens')
        .set({ used_at: at })
        .where('id', '=', hashOf(secret))
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .where('expires_at', '>', at)
        .returningAll()
        .executeTakeFirst();
      if (row === undefined) return undefined;
      await db
        .updateTable('idp_email_tokens')
        .set({ used_at: at })
        .where('account_id', '=', row.account_id)
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .execute();
      return toToken(row);
    },

    async newestPending(accountId, now) {
      const row = await db
        .selectFrom('idp_email_tokens')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('purpose', '=', 'verify')
        .where('used_at', 'is', null)
        .where('expires_at', '>', nowIso(now))
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      return row === undefined ? null : toToken(row).pending;
    },

    async deleteStale(now) {
      const at = nowIso(now);
      const result = await db
        .deleteFrom('idp_email_tokens')
        .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', at)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
