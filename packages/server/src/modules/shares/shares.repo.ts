import type { Kysely } from 'kysely';
import type { Page } from '../../http/page-cursor.js';
import type { DB, FileRow, NewShareRow, ShareRow } from '../../infra/db/schema.js';
import type { FileListRow } from '../files/files.repo.js';
import { withUserLock } from '../../infra/db/user-scope.js';
import { deleteShareOf, recipientsOf, type ShareRecipient } from './share-recipients.js';

/** A file shared with the caller, with the sender's email and the caller's wrapped key. */
export interface ReceivedShare {
  file: FileRow;
  ownerEmail: string | null;
  encryptedFileKey: string;
  keyVersion: string;
  sharedAt: string;
  /** The owner's signed share grant; null for shares from before signing keys. */
  shareGrant: string | null;
}

/** What the shared-with-me list shows of one share. */
export interface ReceivedListEntry {
  file: FileListRow;
  ownerEmail: string | null;
  sharedAt: string;
}

export interface SharesRepo {
  find(fileId: string, recipientId: string): Promise<ShareRow | undefined>;
  /**
   * Inserts `rows` (one owner's) if the owner's shares stay within `max` with all of them: check and
   * inserts are one step under the owner's lock, all or none. False when the limit would be passed.
   */
  insertWithinLimit(rows: readonly NewShareRow[], max: number): Promise<boolean>;
  /** Oldest first. Scoped to the owner. */
  recipientsOf(ownerId: string, fileId: string): Promise<ShareRecipient[]>;
  /** Revokes; false when the owner's file has no share with that (lower-cased) email. */
  deleteFor(ownerId: string, fileId: string, recipientEmail: string): Promise<boolean>;
  /**
   * Files shared with `recipientId`, newest share first (ties by file id); a page, or all. One range scan
   * of `shares_recipient_created_file` per page.
   */
  receivedBy(recipientId: string, page?: Page): Promise<ReceivedListEntry[]>;
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
        'shares.share_grant as share_grant',
      ])
      .where('shares.recipient_id', '=', recipientId);

  type ReceivedRow = Awaited<ReturnType<ReturnType<typeof received>['executeTakeFirstOrThrow']>>;
  const toReceived = (row: ReceivedRow): ReceivedShare => {
    const { owner_email, share_encrypted_file_key, share_key_version, shared_at, share_grant, ...file } = row;
    return {
      shareGrant: share_grant,
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

    async insertWithinLimit(rows, max) {
      const [first] = rows;
      if (first === undefined) return true;
      if (rows.some((row) => row.owner_id !== first.owner_id)) {
        throw new Error('insertWithinLimit: the rows of one call belong to one owner');
      }
      return withUserLock(db, first.owner_id, async (own, trx) => {
        const counted = await own
          .selectFrom('shares')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .executeTakeFirst();
        if (Number(counted?.n ?? 0) + rows.length > max) return false;
        await trx
          .insertInto('shares')
          .values([...rows])
          .execute();
        return true;
      });
    },

    recipientsOf(ownerId, fileId) {
      return recipientsOf(db, 'shares', ownerId, fileId);
    },

    deleteFor(ownerId, fileId, recipientEmail) {
      return deleteShareOf(db, 'shares', ownerId, fileId, recipientEmail);
    },

    async receivedBy(recipientId, page) {
      let query = db
        .selectFrom('shares')
        .innerJoin('files', 'files.id', 'shares.file_id')
        .innerJoin('users', 'users.id', 'files.owner_id')
        .select([
          'files.id',
          'files.owner_id',
          'files.name',
          'files.content_type',
          'files.size',
          'files.is_encrypted',
          'files.uploaded_at',
          'users.email as owner_email',
          'shares.created_at as shared_at',
        ])
        .where('shares.recipient_id', '=', recipientId)
        .orderBy('shares.created_at', 'desc')
        .orderBy('shares.file_id', 'desc');
      const after = page?.after;
      if (after !== undefined) {
        query = query.where((eb) =>
          eb(eb.refTuple('shares.created_at', 'shares.file_id'), '<', eb.tuple(after.at, after.id)),
        );
      }
      const rows = await (page === undefined ? query : query.limit(page.limit)).execute();
      return rows.map(({ owner_email, shared_at, ...file }) => ({
        file,
        ownerEmail: owner_email,
        sharedAt: shared_at,
      }));
    },

    async receivedFile(recipientId, fileId) {
      const row = await received(recipientId).where('shares.file_id', '=', fileId).executeTakeFirst();
      return row === undefined ? undefined : toReceived(row);
    },
  };
}
