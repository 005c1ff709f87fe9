import type { Kysely } from 'kysely';
import type { DB, FileRow, NewShareRow, ShareRow } from '../../infra/db/schema.js';

/** A file shared with the caller, with the sender's email and the caller's wrapped key. */
export interface ReceivedShare {
  file: FileRow;
  ownerEmail: string | null;
  encryptedFileKey: string;
  keyVersion: string;
  sharedAt: string;
}

/** A recipient of one of the caller's files, with the names the owner may know them by. */
export interface ShareRecipient {
  email: string;
  contactName: string | null;
  accountName: string | null;
}

export interface SharesRepo {
  find(fileId: string, recipientId: string): Promise<ShareRow | undefined>;
  insert(row: NewShareRow): Promise<void>;
  /** Oldest first. Scoped to the owner. */
  recipientsOf(ownerId: string, fileId: string): Promise<ShareRecipient[]>;
  /** Revokes; false when the owner's file has no share with that (lower-cased) email. */
  deleteFor(ownerId: string, fileId: string, recipientEmail: string): Promise<boolean>;
  /** Files shared with `recipientId`, newest share first. */
  receivedBy(recipientId: string): Promise<ReceivedShare[]>;
  receivedFile(recipientId: string, fileId: string): Promise<ReceivedShare | undefined>;
}

export function createSharesRepo(db: Kysely<DB>): SharesRepo {
  const received = (recipientId: string) =>
    db
      .selectFrom('shares')
      .innerJoin('files', 'files.id', 'shares.file_id')
      .innerJoin('users', 'users.id', 'files.owner_id')
      .selectAll('files')
      .select([
        'users.email as owner_email',
        'shares.encrypted_file_key as share_encrypted_file_key',
        'shares.key_version as share_key_version',
        'shares.created_at as shared_at',
      ])
      .where('shares.recipient_id', '=', recipientId);

  type ReceivedRow = Awaited<ReturnType<ReturnType<typeof received>['executeTakeFirstOrThrow']>>;
  const toReceived = (row: ReceivedRow): ReceivedShare => {
    const { owner_email, share_encrypted_file_key, share_key_version, shared_at, ...file } = row;
    return {
      file,
      ownerEmail: owner_email,
      encryptedFileKey: share_encrypted_file_key,
      keyVersion: share_key_version,
      sharedAt: shared_at,
    };
  };

  return {
    find(fileId, recipientId) {
      return db
        .selectFrom('shares')
        .selectAll()
        .where('file_id', '=', fileId)
        .where('recipient_id', '=', recipientId)
        .executeTakeFirst();
    },

    async insert(row) {
      await db.insertInto('shares').values(row).execute();
    },

    async recipientsOf(ownerId, fileId) {
      const rows = await db
        .selectFrom('shares')
        .leftJoin('contacts', (join) =>
          join
            .onRef('contacts.user_id', '=', 'shares.owner_id')
            .onRef('contacts.email', '=', 'shares.recipient_email'),
        )
        .leftJoin('users', 'users.id', 'shares.recipient_id')
        .select(['shares.recipient_email', 'contacts.name as contact_name', 'users.name as account_name'])
        .where('shares.owner_id', '=', ownerId)
        .where('shares.file_id', '=', fileId)
        .orderBy('shares.created_at')
        .orderBy('shares.recipient_email')
        .execute();
      return rows.map((row) => ({
        email: row.recipient_email,
        contactName: row.contact_name,
        accountName: row.account_name,
      }));
    },

    async deleteFor(ownerId, fileId, recipientEmail) {
      const result = await db
        .deleteFrom('shares')
        .where('owner_id', '=', ownerId)
        .where('file_id', '=', fileId)
        .where('recipient_email', '=', recipientEmail)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async receivedBy(recipientId) {
      const rows = await received(recipientId)
        .orderBy('shares.created_at', 'desc')
        .orderBy('shares.file_id', 'desc')
        .execute();
      return rows.map(toReceived);
    },

    async receivedFile(recipientId, fileId) {
      const row = await received(recipientId).where('shares.file_id', '=', fileId).executeTakeFirst();
      return row === undefined ? undefined : toReceived(row);
    },
  };
}
