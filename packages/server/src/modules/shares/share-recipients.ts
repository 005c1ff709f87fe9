import type { Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema.js';
import { scopedTo } from '../../infra/db/user-scope.js';

/** A recipient of one of the caller's files or folders, with the names the owner may know them by. */
export interface ShareRecipient {
  email: string;
  contactName: string | null;
  accountName: string | null;
}

/** The share tables and the column naming what each shares: a file share's file, a folder share's node. */
const SHARED_ITEM = { shares: 'shares.file_id', folder_shares: 'folder_shares.node_id' } as const;

export type ShareTable = keyof typeof SHARED_ITEM;

/**
 * The recipients of the owner's file or folder `itemId`, oldest share first, with the owner's contact
 * name and the recipient's account name. Scoped to the owner.
 */
export async function recipientsOf(
  db: Kysely<DB>,
  table: ShareTable,
  ownerId: string,
  itemId: string,
): Promise<ShareRecipient[]> {
  // With a table picked at run time Kysely types the query as if both were in FROM: every reference
  // below names `table` itself (or its entry in SHARED_ITEM), which keeps the SQL right.
  const rows = await scopedTo(db, ownerId)
    .selectFrom(table)
    .leftJoin('contacts', (join) =>
      join
        .onRef('contacts.user_id', '=', `${table}.owner_id`)
        .onRef('contacts.email', '=', `${table}.recipient_email`),
    )
    .leftJoin('users', 'users.id', `${table}.recipient_id`)
    .select([`${table}.recipient_email`, 'contacts.name as contact_name', 'users.name as account_name'])
    .where(SHARED_ITEM[table], '=', itemId)
    .orderBy(`${table}.created_at`)
    .orderBy(`${table}.recipient_email`)
    .execute();
  return rows.map((row) => ({
    email: row.recipient_email,
    contactName: row.contact_name,
    accountName: row.account_name,
  }));
}

/** Revokes the owner's share of `itemId` with that (lower-cased) email; false when there is none. */
export async function deleteShareOf(
  db: Kysely<DB>,
  table: ShareTable,
  ownerId: string,
  itemId: string,
  recipientEmail: string,
): Promise<boolean> {
  const result = await scopedTo(db, ownerId)
    .deleteFrom(table)
    .where(SHARED_ITEM[table], '=', itemId)
    .where(`${table}.recipient_email`, '=', recipientEmail)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
