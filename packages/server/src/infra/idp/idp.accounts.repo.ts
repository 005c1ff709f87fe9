import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../db/errors.js';
import type { DB, IdpAccountRow, IsoTimestamp } from '../db/schema.js';
import { fromDbBool, newId, normalizeEmail, nowIso } from '../db/values.js';
import { CodedError } from '../../coded-error.js';

/** Migration 0002: an upstream identity (provider, subject) linked to a local account. */
export interface IdpFederatedIdentitiesTable {
  provider: string;
  subject: string;
  account_id: string;
  /** Lower-cased; the upstream's verified address when the link was made. */
  email: string | null;
  created_at: IsoTimestamp;
}

type IdpDB = DB & { idp_federated_identities: IdpFederatedIdentitiesTable };

/** A local account of the embedded provider, as the rest of the provider sees it (no hash). */
export interface IdpAccount {
  id: string;
  email: string;
  name: string;
  /** ISO 3166-1 alpha-2, e.g. "NL"; null when unknown. */
  country: string | null;
  emailVerified: boolean;
  /** False for accounts made through Google: they cannot sign in with a password. */
  hasPassword: boolean;
}

/** Sign-up with an email that already has an account. */
export class EmailTakenError extends CodedError {
  readonly code = 'EMAIL_TAKEN';
  constructor() {
    super('An account with this email already exists');
  }
}

export interface NewLocalAccount {
  email: string;
  name: string;
  country: string | null;
  passwordHash: string;
}

export interface UpstreamIdentity {
  provider: string;
  subject: string;
  /** Verified by the upstream. */
  email: string;
  name: string | null;
  country: string | null;
}

export interface IdpAccountsRepo {
  findById(id: string): Promise<IdpAccount | undefined>;
  /** The account and its password hash (empty for accounts without a password), by email in any case. */
  findCredentialsByEmail(email: string): Promise<{ account: IdpAccount; passwordHash: string } | undefined>;
  /** Throws {@link EmailTakenError} when the email (in any case) already has an account. */
  createLocal(input: NewLocalAccount, now: Date): Promise<IdpAccount>;
  updatePasswordHash(id: string, passwordHash: string, now: Date): Promise<void>;
  /**
   * Marks the address confirmed. With `credentials` (a sign-up again with an address whose account was
   * never confirmed), the account takes the name, country and password of that sign-up, and every
   * earlier sign-in of the account ends: whoever controls the mailbox owns the account.
   */
  confirmEmail(id: string, now: Date, credentials?: PendingCredentials): Promise<void>;
  /** A new password from a mailed reset link: proves the address too; ends every sign-in. */
  resetPassword(id: string, passwordHash: string, now: Date): Promise<void>;
  /**
   * The account an upstream identity signs in to: the one already linked, else the account with the
   * same (upstream-verified) email, now linked, else a new account without a password. An existing
   * account whose address was never confirmed is claimed rather than shared: its password is removed
   * and its sign-ins end, since whoever made it did not prove the address.
   */
  resolveUpstream(identity: UpstreamIdentity, now: Date): Promise<IdpAccount>;
  /** Ends every session, grant, code and refresh token of the account. */
  endSignIns(id: string): Promise<void>;
  /** Deletes accounts whose address was not confirmed by `cutoff` (their sign-ins and links go too). */
  deleteUnconfirmedBefore(cutoff: Date): Promise<number>;
}

/** Credentials chosen at a sign-up that take effect when its mailed link confirms the address. */
export interface PendingCredentials {
  passwordHash: string;
  name: string;
  country: string | null;
}

function toAccount(row: IdpAccountRow): IdpAccount {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    country: row.country,
    emailVerified: fromDbBool(row.email_verified),
    hasPassword: row.password_hash !== '',
  };
}

export function createIdpAccountsRepo(database: Kysely<DB>): IdpAccountsRepo {
  const db: Kysely<IdpDB> = database.withTables<{ idp_federated_identities: IdpFederatedIdentitiesTable }>();

  async function findRowByEmail(email: string): Promise<IdpAccountRow | undefined> {
    return db
      .selectFrom('idp_accounts')
      .selectAll()
      .where('email', '=', normalizeEmail(email))
      .executeTakeFirst();
  }

  async function findLinked(provider: string, subject: string): Promise<IdpAccountRow | undefined> {
    return db
      .selectFrom('idp_federated_identities as f')
      .innerJoin('idp_accounts as a', 'a.id', 'f.account_id')
      .selectAll('a')
      .where('f.provider', '=', provider)
      .where('f.subject', '=', subject)
      .executeTakeFirst();
  }

  async function insertAccount(
    values: { email: string; name: string; country: string | null; passwordHash: string; verified: boolean },
    now: Date,
  ): Promise<IdpAccountRow> {
    const at = nowIso(now);
    try {
      return await db
        .insertInto('idp_accounts')
        .values({
          id: newId(),
          email: normalizeEmail(values.email),
          password_hash: values.passwordHash,
          name: values.name,
          country: values.country,
          // A local account proves its address by the mailed link; an upstream one was verified there.
          email_verified: values.verified ? 1 : 0,
          created_at: at,
          updated_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (error) {
      if (isUniqueViolation(error)) throw new EmailTakenError();
      throw error;
    }
  }

  async function link(identity: UpstreamIdentity, accountId: string, now: Date): Promise<void> {
    await db
      .insertInto('idp_federated_identities')
      .values({
        provider: identity.provider,
        subject: identity.subject,
        account_id: accountId,
        email: normalizeEmail(identity.email),
        created_at: nowIso(now),
      })
      .onConflict((oc) => oc.columns(['provider', 'subject']).doNothing())
      .execute();
  }

  async function endSignIns(id: string): Promise<void> {
    await db.deleteFrom('idp_payloads').where('account_id', '=', id).execute();
  }

  return {
    async findById(id) {
      const row = await db.selectFrom('idp_accounts').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toAccount(row);
    },

    async findCredentialsByEmail(email) {
      const row = await findRowByEmail(email);
      return row === undefined ? undefined : { account: toAccount(row), passwordHash: row.password_hash };
    },

    async createLocal(input, now) {
      return toAccount(await insertAccount({ ...input, verified: false }, now));
    },

    async confirmEmail(id, now, credentials) {
      const at = nowIso(now);
      await db
        .updateTable('idp_accounts')
        .set({
          email_verified: 1,
          updated_at: at,
          ...(credentials === undefined
            ? {}
            : {
                password_hash: credentials.passwordHash,
                name: credentials.name,
                country: credentials.country,
              }),
        })
        .where('id', '=', id)
        .execute();
      if (credentials !== undefined) await endSignIns(id);
    },

    async resetPassword(id, passwordHash, now) {
      await db
        .updateTable('idp_accounts')
        .set({ password_hash: passwordHash, email_verified: 1, updated_at: nowIso(now) })
        .where('id', '=', id)
        .execute();
      await endSignIns(id);
    },

    endSignIns,

    async deleteUnconfirmedBefore(cutoff) {
      const stale = db
        .selectFrom('idp_accounts')
        .select('id')
        .where('email_verified', '=', 0)
        .where('created_at', '<', nowIso(cutoff));
      await db.deleteFrom('idp_payloads').where('account_id', 'in', stale).execute();
      await db.deleteFrom('idp_email_tokens').where('account_id', 'in', stale).execute();
      await db.deleteFrom('idp_federated_identities').where('account_id', 'in', stale).execute();
      const result = await db
        .deleteFrom('idp_accounts')
        .where('email_verified', '=', 0)
        .where('created_at', '<', nowIso(cutoff))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async updatePasswordHash(id, passwordHash, now) {
      await db
        .updateTable('idp_accounts')
        .set({ password_hash: passwordHash, updated_at: nowIso(now) })
        .where('id', '=', id)
        .execute();
    },

    async resolveUpstream(identity, now) {
      const linked = await findLinked(identity.provider, identity.subject);
      if (linked !== undefined) return toAccount(linked);
      let account = await findRowByEmail(identity.email);
      if (account === undefined) {
        const name = identity.name ?? normalizeEmail(identity.email).split('@')[0] ?? identity.email;
        try {
          account = await insertAccount(
            { email: identity.email, name, country: identity.country, passwordHash: '', verified: true },
            now,
          );
        } catch (error) {
          // Two first sign-ins at once: the other one created the account.
          if (!(error instanceof EmailTakenError)) throw error;
          account = await findRowByEmail(identity.email);
          if (account === undefined) throw error;
        }
      }
      if (!fromDbBool(account.email_verified)) {
        // Someone made this account without proving the address; Google has just proved it.
        await db
          .updateTable('idp_accounts')
          .set({ password_hash: '', email_verified: 1, updated_at: nowIso(now) })
          .where('id', '=', account.id)
          .execute();
        await endSignIns(account.id);
        await db.deleteFrom('idp_email_tokens').where('account_id', '=', account.id).execute();
      }
      await link(identity, account.id, now);
      // Whoever won a race to link this identity decides the account.
      const winner = await findLinked(identity.provider, identity.subject);
      return toAccount(winner ?? account);
    },
  };
}
