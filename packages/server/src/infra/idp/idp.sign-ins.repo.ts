import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { nowIso } from '../db/values.js';
import type { IdpFactorsDB, IdpFactorTables } from './idp.factors.tables.js';

/** A live provider session of an account, as the security page lists it. */
export interface SignInRecord {
  sessionUid: string;
  userAgent: string;
  createdAt: string;
  lastSeenAt: string;
}

export interface IdpSignInsRepo {
  /**
   * Records a provider session (first sight) or refreshes its last-seen time. Returns whether it is a
   * new session from a browser (device cookie) this account never signed in from.
   */
  record(
    input: { sessionUid: string; accountId: string; deviceHash: string; userAgent: string },
    now: Date,
  ): Promise<{ newDevice: boolean }>;
  /** The session was used (a token refresh). */
  touch(sessionUid: string, now: Date): Promise<void>;
  /** The account's sessions that still exist at the provider, newest first. */
  listLive(accountId: string, now: Date): Promise<SignInRecord[]>;
  /** "Sign out everywhere": access tokens issued before `now` are refused from now on. */
  setCutoff(accountId: string, now: Date): Promise<void>;
  /** The cutoff, or undefined when the account never signed out everywhere. */
  cutoffOf(accountId: string): Promise<Date | undefined>;
  /** Forgets sign-ins not seen since `cutoff` (their browsers count as new again). */
  deleteStale(cutoff: Date): Promise<void>;
}

/** How much of a user agent is kept: enough to name the browser and system. */
const MAX_USER_AGENT = 400;

export function createIdpSignInsRepo(database: Kysely<DB>): IdpSignInsRepo {
  const db: Kysely<IdpFactorsDB> = database.withTables<IdpFactorTables>();

  return {
    async record(input, now) {
      const at = nowIso(now);
      const known = await db
        .selectFrom('idp_sign_ins')
        .select('session_uid')
        .where('account_id', '=', input.accountId)
        .where('device_hash', '=', input.deviceHash)
        .limit(1)
        .executeTakeFirst();
      const result = await db
        .insertInto('idp_sign_ins')
        .values({
          session_uid: input.sessionUid,
          account_id: input.accountId,
          device_hash: input.deviceHash,
          user_agent: input.userAgent.slice(0, MAX_USER_AGENT),
          created_at: at,
          last_seen_at: at,
        })
        .onConflict((oc) => oc.column('session_uid').doNothing())
        .executeTakeFirst();
      const inserted = Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
      if (!inserted) {
        await db
          .updateTable('idp_sign_ins')
          .set({ last_seen_at: at })
          .where('session_uid', '=', input.sessionUid)
          .execute();
      }
      return { newDevice: inserted && known === undefined };
    },

    async touch(sessionUid, now) {
      await db
        .updateTable('idp_sign_ins')
        .set({ last_seen_at: nowIso(now) })
        .where('session_uid', '=', sessionUid)
        .execute();
    },

    async listLive(accountId, now) {
      const rows = await db
        .selectFrom('idp_sign_ins as s')
        .select(['s.session_uid', 's.user_agent', 's.created_at', 's.last_seen_at'])
        .where('s.account_id', '=', accountId)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('idp_payloads as p')
              .select('p.id')
              .where('p.model', '=', 'Session')
              .whereRef('p.uid', '=', 's.session_uid')
              .where('p.account_id', '=', accountId)
              .where((inner) =>
                inner.or([inner('p.expires_at', 'is', null), inner('p.expires_at', '>', nowIso(now))]),
              ),
          ),
        )
        .orderBy('s.last_seen_at', 'desc')
        .execute();
      return rows.map((row) => ({
        sessionUid: row.session_uid,
        userAgent: row.user_agent,
        createdAt: row.created_at,
        lastSeenAt: row.last_seen_at,
      }));
    },

    async setCutoff(accountId, now) {
      const at = nowIso(now);
      await db
        .insertInto('idp_session_cutoffs')
        .values({ account_id: accountId, valid_after: at })
        .onConflict((oc) => oc.column('account_id').doUpdateSet({ valid_after: at }))
        .execute();
    },

    async cutoffOf(accountId) {
      const row = await db
        .selectFrom('idp_session_cutoffs')
        .select('valid_after')
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return row === undefined ? undefined : new Date(row.valid_after);
    },

    async deleteStale(cutoff) {
      await db.deleteFrom('idp_sign_ins').where('last_seen_at', '<', nowIso(cutoff)).execute();
    },
  };
}
