import type { DeleteResult, Kysely, UpdateResult } from 'kysely';
import type { DB } from '../db/schema.js';
import { nowIso } from '../db/values.js';
import type { IdpFactorsDB, IdpFactorTables, IdpPasskeysTable } from './idp.factors.tables.js';

/** A stored TOTP enrolment (secret still sealed). */
export interface TotpRecord {
  secretSealed: string;
  enabled: boolean;
  lastStep: number | null;
}

export interface NewPasskey {
  id: string;
  accountId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
}

export interface Passkey extends NewPasskey {
  createdAt: string;
  lastUsedAt: string | null;
}

export type ChallengePurpose = 'register' | 'authenticate';

/** Second factors of the embedded provider's accounts, and the WebAuthn challenges in flight. */
export interface IdpFactorsRepo {
  totpOf(accountId: string): Promise<TotpRecord | undefined>;
  /** Starts (or restarts) an enrolment; does nothing when TOTP is already on. Returns whether it started. */
  startTotp(accountId: string, secretSealed: string, now: Date): Promise<boolean>;
  /** Turns a pending enrolment on, recording the step of the code that confirmed it. */
  enableTotp(accountId: string, step: number, now: Date): Promise<boolean>;
  /**
   * Records that a code of `step` was used, atomically: true only when TOTP is on and no code of this or
   * a later step was accepted before, so a code (or an older one) cannot be replayed.
   */
  acceptStep(accountId: string, step: number): Promise<boolean>;
  deleteTotp(accountId: string): Promise<boolean>;

  replaceRecoveryCodes(accountId: string, codeHashes: readonly string[], now: Date): Promise<void>;
  /** Spends a recovery code, atomically: true once per code. */
  useRecoveryCode(accountId: string, codeHash: string, now: Date): Promise<boolean>;
  recoveryCodesLeft(accountId: string): Promise<number>;
  deleteRecoveryCodes(accountId: string): Promise<void>;

  passkeysOf(accountId: string): Promise<Passkey[]>;
  findPasskey(id: string): Promise<Passkey | undefined>;
  addPasskey(passkey: NewPasskey, now: Date): Promise<void>;
  /** Compare-and-set of the signature counter: false when another sign-in moved it first. */
  updatePasskeyCounter(id: string, from: number, to: number, now: Date): Promise<boolean>;
  removePasskey(accountId: string, id: string): Promise<boolean>;

  issueChallenge(
    challenge: string,
    purpose: ChallengePurpose,
    binding: string,
    accountId: string | null,
    expiresAt: Date,
  ): Promise<void>;
  /**
   * Takes a challenge out, atomically (a DELETE … RETURNING): it is answered once, only for its purpose
   * and binding, only before it expires. Returns the account it was issued for (null: any account).
   */
  consumeChallenge(
    challenge: string,
    purpose: ChallengePurpose,
    binding: string,
    now: Date,
  ): Promise<{ accountId: string | null } | undefined>;
  deleteExpiredChallenges(now: Date): Promise<void>;
}

function toPasskey(row: IdpPasskeysTable): Passkey {
  let transports: string[] = [];
  if (row.transports !== null) {
    const parsed: unknown = JSON.parse(row.transports);
    if (Array.isArray(parsed)) transports = parsed.filter((t): t is string => typeof t === 'string');
  }
  return {
    id: row.id,
    accountId: row.account_id,
    publicKey: row.public_key,
    counter: row.counter,
    transports,
    name: row.name,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

/** A compare-and-set update's outcome: whether it changed the one row it aimed at. */
async function updatedOne(query: { executeTakeFirst(): Promise<UpdateResult> }): Promise<boolean> {
  return Number((await query.executeTakeFirst()).numUpdatedRows) === 1;
}

/** Whether a delete found anything to delete. */
async function deletedAny(query: { executeTakeFirst(): Promise<DeleteResult> }): Promise<boolean> {
  return Number((await query.executeTakeFirst()).numDeletedRows) > 0;
}

export function createIdpFactorsRepo(database: Kysely<DB>): IdpFactorsRepo {
  const db: Kysely<IdpFactorsDB> = database.withTables<IdpFactorTables>();

  return {
    async totpOf(accountId) {
      const row = await db
        .selectFrom('idp_totp')
        .selectAll()
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      return {
        secretSealed: row.secret_enc,
        enabled: row.enabled_at !== null,
        lastStep: row.last_step,
      };
    },

    async startTotp(accountId, secretSealed, now) {
      await db
        .deleteFrom('idp_totp')
        .where('account_id', '=', accountId)
        .where('enabled_at', 'is', null)
        .execute();
      const result = await db
        .insertInto('idp_totp')
        .values({
          account_id: accountId,
          secret_enc: secretSealed,
          enabled_at: null,
          last_step: null,
          created_at: nowIso(now),
        })
        .onConflict((oc) => oc.column('account_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    enableTotp: (accountId, step, now) =>
      updatedOne(
        db
          .updateTable('idp_totp')
          .set({ enabled_at: nowIso(now), last_step: step })
          .where('account_id', '=', accountId)
          .where('enabled_at', 'is', null),
      ),

    acceptStep: (accountId, step) =>
      updatedOne(
        db
          .updateTable('idp_totp')
          .set({ last_step: step })
          .where('account_id', '=', accountId)
          .where('enabled_at', 'is not', null)
          .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)])),
      ),

    deleteTotp: (accountId) => deletedAny(db.deleteFrom('idp_totp').where('account_id', '=', accountId)),

    async replaceRecoveryCodes(accountId, codeHashes, now) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('idp_recovery_codes').where('account_id', '=', accountId).execute();
        if (codeHashes.length === 0) return;
        await trx
          .insertInto('idp_recovery_codes')
          .values(
            codeHashes.map((hash) => ({
              code_hash: hash,
              account_id: accountId,
              used_at: null,
              created_at: nowIso(now),
            })),
          )
          .execute();
      });
    },

    useRecoveryCode: (accountId, codeHash, now) =>
      updatedOne(
        db
          .updateTable('idp_recovery_codes')
          .set({ used_at: nowIso(now) })
          .where('code_hash', '=', codeHash)
          .where('account_id', '=', accountId)
          .where('used_at', 'is', null),
      ),

    async recoveryCodesLeft(accountId) {
      const rows = await db
        .selectFrom('idp_recovery_codes')
        .select('code_hash')
        .where('account_id', '=', accountId)
        .where('used_at', 'is', null)
        .execute();
      return rows.length;
    },

    async deleteRecoveryCodes(accountId) {
      await db.deleteFrom('idp_recovery_codes').where('account_id', '=', accountId).execute();
    },

    async passkeysOf(accountId) {
      const rows = await db
        .selectFrom('idp_passkeys')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('created_at')
        .execute();
      return rows.map(toPasskey);
    },

    async findPasskey(id) {
      const row = await db.selectFrom('idp_passkeys').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toPasskey(row);
    },

    async addPasskey(passkey, now) {
      await db
        .insertInto('idp_passkeys')
        .values({
          id: passkey.id,
          account_id: passkey.accountId,
          public_key: passkey.publicKey,
          counter: passkey.counter,
          transports: passkey.transports.length === 0 ? null : JSON.stringify(passkey.transports),
          name: passkey.name,
          created_at: nowIso(now),
          last_used_at: null,
        })
        .execute();
    },

    updatePasskeyCounter: (id, from, to, now) =>
      updatedOne(
        db
          .updateTable('idp_passkeys')
          .set({ counter: to, last_used_at: nowIso(now) })
          .where('id', '=', id)
          .where('counter', '=', from),
      ),

    removePasskey: (accountId, id) =>
      deletedAny(db.deleteFrom('idp_passkeys').where('account_id', '=', accountId).where('id', '=', id)),

    async issueChallenge(challenge, purpose, binding, accountId, expiresAt) {
      await db
        .insertInto('idp_webauthn_challenges')
        .values({ id: challenge, purpose, binding, account_id: accountId, expires_at: nowIso(expiresAt) })
        .execute();
    },

    async consumeChallenge(challenge, purpose, binding, now) {
      const row = await db
        .deleteFrom('idp_webauthn_challenges')
        .where('id', '=', challenge)
        .where('purpose', '=', purpose)
        .where('binding', '=', binding)
        .where('expires_at', '>', nowIso(now))
        .returning('account_id')
        .executeTakeFirst();
      return row === undefined ? undefined : { accountId: row.account_id };
    },

    async deleteExpiredChallenges(now) {
      await db.deleteFrom('idp_webauthn_challenges').where('expires_at', '<=', nowIso(now)).execute();
    },
  };
}
