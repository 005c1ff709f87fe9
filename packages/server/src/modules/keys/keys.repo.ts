import type { Kysely } from 'kysely';
import type { DB, NewUserKeyRow, UserKeyRow } from '../../infra/db/schema.js';
import { scopedTo } from '../../infra/db/user-scope.js';
import { dropKitIn } from './recovery.repo.js';

export interface KeysRepo {
  insert(row: NewUserKeyRow): Promise<UserKeyRow>;
  /** Newest first. */
  listFor(userId: string): Promise<UserKeyRow[]>;
  newestFor(userId: string): Promise<UserKeyRow | undefined>;
  findFor(userId: string, keyId: string): Promise<UserKeyRow | undefined>;
  deleteFor(userId: string, keyId: string): Promise<boolean>;
  updateWrappedKey(
    userId: string,
    keyId: string,
    encryptedPrivateKey: string,
    encryptedSigningKey?: string,
  ): Promise<UserKeyRow | undefined>;
  /** Gives a record without a signing key its signing key; undefined when it has one (or is not found). */
  addSigningKey(userId: string, keyId: string, signing: SigningFields): Promise<UserKeyRow | undefined>;
  /** Sets the record's wrapped drive key and its signed record; undefined when it has one already (or is not found). */
  setDriveKey(userId: string, keyId: string, driveKey: DriveKeyFields): Promise<UserKeyRow | undefined>;
}

/** The drive key wrapped to a key record and the user's signed record of it (issue 31), as stored. */
export interface DriveKeyFields {
  wrappedDriveKey: string;
  driveKeyRecord: string;
}

/** The signing key of a key record, as stored (issue 13). */
export interface SigningFields {
  signingPublicKey: string;
  encryptedSigningKey: string;
  keyBinding: string;
}

export function createKeysRepo(db: Kysely<DB>): KeysRepo {
  const own = (userId: string) => scopedTo(db, userId);
  const byUser = (userId: string) =>
    own(userId)
      .selectFrom('user_keys')
      .selectAll()
      // Ties on the timestamp are broken by id so "newest" is stable.
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc');

  return {
    // Adding or deleting a key record drops the recovery kit in the same transaction: it no longer
    // covers the keys, and a kit that opens only some of them would recover a partial key set.
    async insert(row) {
      return db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('user_keys')
          .values(row)
          .returningAll()
          .executeTakeFirstOrThrow();
        await dropKitIn(trx, row.user_id);
        return inserted;
      });
    },
    listFor(userId) {
      return byUser(userId).execute();
    },
    newestFor(userId) {
      return byUser(userId).limit(1).executeTakeFirst();
    },
    findFor(userId, keyId) {
      return own(userId).selectFrom('user_keys').selectAll().where('id', '=', keyId).executeTakeFirst();
    },
    async deleteFor(userId, keyId) {
      return db.transaction().execute(async (trx) => {
        const result = await scopedTo(trx, userId)
          .deleteFrom('user_keys')
          .where('id', '=', keyId)
          .executeTakeFirst();
        if (result.numDeletedRows === 0n) return false;
        await dropKitIn(trx, userId);
        return true;
      });
    },
    addSigningKey(userId, keyId, signing) {
      return own(userId)
        .updateTable('user_keys')
        .set({
          signing_public_key: signing.signingPublicKey,
          encrypted_signing_key: signing.encryptedSigningKey,
          key_binding: signing.keyBinding,
        })
        .where('id', '=', keyId)
        .where('signing_public_key', 'is', null)
        .returningAll()
        .executeTakeFirst();
    },
    setDriveKey(userId, keyId, driveKey) {
      return own(userId)
        .updateTable('user_keys')
        .set({ wrapped_drive_key: driveKey.wrappedDriveKey, drive_key_record: driveKey.driveKeyRecord })
        .where('id', '=', keyId)
        .where('wrapped_drive_key', 'is', null)
        .returningAll()
        .executeTakeFirst();
    },
    updateWrappedKey(userId, keyId, encryptedPrivateKey, encryptedSigningKey) {
      return own(userId)
        .updateTable('user_keys')
        .set({
          encrypted_private_key: encryptedPrivateKey,
          ...(encryptedSigningKey === undefined ? {} : { encrypted_signing_key: encryptedSigningKey }),
        })
        .where('id', '=', keyId)
        .returningAll()
        .executeTakeFirst();
    },
  };
}
