import type { Kysely } from 'kysely';
import type { DB, FileRow, FolderRow, FolderShareRow, NewFolderShareRow } from '../../infra/db/schema.js';
import { scopedTo, withUserLock } from '../../infra/db/user-scope.js';
import { deleteShareOf, recipientsOf, type ShareRecipient } from '../shares/share-recipients.js';
import { chunked, subtreeOf } from './folder-tree.js';
import { readTree } from './folders.repo.js';

/** A folder shared with the caller, with the folder's sealed name and the sender's email. */
export interface ReceivedFolder {
  share: FolderShareRow;
  folder: FolderRow;
  ownerEmail: string | null;
}

/** Everything below a shared folder: its folders (not itself) and the files with a node. */
export interface SharedSubtree {
  folders: FolderRow[];
  files: FileRow[];
}

export type InsertFolderShare = 'inserted' | 'limit' | 'missing';

export interface FolderSharesRepo {
  /**
   * Inserts the share if the owner's folder exists and the owner's shares (file shares and folder shares
   * together) stay within `max`: one step under the owner's lock.
   */
  insertWithinLimit(row: NewFolderShareRow, max: number): Promise<InsertFolderShare>;
  recipientsOf(ownerId: string, nodeId: string): Promise<ShareRecipient[]>;
  deleteFor(ownerId: string, nodeId: string, recipientEmail: string): Promise<boolean>;
  /** Folders shared with the recipient, newest share first. */
  receivedBy(recipientId: string): Promise<ReceivedFolder[]>;
  /** The recipient's share of a folder with that node id (from any owner: node ids per recipient are unique). */
  receivedFolder(recipientId: string, nodeId: string): Promise<ReceivedFolder | undefined>;
  /** Every folder and file below the owner's folder `nodeId` (files: only those with a node). */
  subtreeOf(ownerId: string, nodeId: string): Promise<SharedSubtree>;
  /** The owner's file `fileId` if it sits in the subtree of the owner's folder `nodeId`. */
  fileBelow(ownerId: string, nodeId: string, fileId: string): Promise<FileRow | undefined>;
}

export function createFolderSharesRepo(db: Kysely<DB>): FolderSharesRepo {
  const received = (recipientId: string) =>
    db
      .selectFrom('folder_shares')
      .innerJoin('folders', (join) =>
        join
          .onRef('folders.owner_id', '=', 'folder_shares.owner_id')
          .onRef('folders.node_id', '=', 'folder_shares.node_id'),
      )
      .innerJoin('users', 'users.id', 'folder_shares.owner_id')
      .selectAll('folder_shares')
      .select([
        'folders.parent_node_id',
        'folders.wrapped_key',
        'folders.encrypted_metadata',
        'folders.node_record',
        'folders.created_at as folder_created_at',
        'folders.updated_at as folder_updated_at',
        'users.email as owner_email',
      ])
      .where('folder_shares.recipient_id', '=', recipientId);
  type Row = Awaited<ReturnType<ReturnType<typeof received>['executeTakeFirstOrThrow']>>;
  const toReceived = (row: Row): ReceivedFolder => {
    const {
      parent_node_id,
      wrapped_key,
      encrypted_metadata,
      node_record,
      folder_created_at,
      folder_updated_at,
      owner_email,
      ...share
    } = row;
    return {
      share,
      folder: {
        owner_id: share.owner_id,
        node_id: share.node_id,
        parent_node_id,
        wrapped_key,
        encrypted_metadata,
        node_record,
        created_at: folder_created_at,
        updated_at: folder_updated_at,
      },
      ownerEmail: owner_email,
    };
  };

  const treeOf = (ownerId: string) => readTree(scopedTo(db, ownerId));

  return {
    insertWithinLimit(row, max) {
      return withUserLock(db, row.owner_id, async (own, trx) => {
        const folder = await own
          .selectFrom('folders')
          .select('node_id')
          .where('node_id', '=', row.node_id)
          .executeTakeFirst();
        if (folder === undefined) return 'missing';
        const count = async (table: 'shares' | 'folder_shares') => {
          const counted = await own
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<string | number>().as('n'))
            .executeTakeFirst();
          return Number(counted?.n ?? 0);
        };
        if ((await count('shares')) + (await count('folder_shares')) + 1 > max) return 'limit';
        await trx.insertInto('folder_shares').values(row).execute();
        return 'inserted';
      });
    },

    recipientsOf(ownerId, nodeId) {
      return recipientsOf(db, 'folder_shares', ownerId, nodeId);
    },

    deleteFor(ownerId, nodeId, recipientEmail) {
      return deleteShareOf(db, 'folder_shares', ownerId, nodeId, recipientEmail);
    },

    async receivedBy(recipientId) {
      const rows = await received(recipientId)
        .orderBy('folder_shares.created_at', 'desc')
        .orderBy('folder_shares.node_id', 'desc')
        .execute();
      return rows.map(toReceived);
    },

    async receivedFolder(recipientId, nodeId) {
      const row = await received(recipientId).where('folder_shares.node_id', '=', nodeId).executeTakeFirst();
      return row === undefined ? undefined : toReceived(row);
    },

    async subtreeOf(ownerId, nodeId) {
      const own = scopedTo(db, ownerId);
      const ids = subtreeOf(await treeOf(ownerId), nodeId);
      const below = ids.slice(1);
      const folders: FolderRow[] = [];
      for (const chunk of chunked(below)) {
        folders.push(
          ...(await own.selectFrom('folders').selectAll().where('node_id', 'in', chunk).execute()),
        );
      }
      const files: FileRow[] = [];
      for (const chunk of chunked(ids)) {
        files.push(
          ...(await own
            .selectFrom('files')
            .selectAll()
            .where('parent_node_id', 'in', chunk)
            .where('encrypted_metadata', 'is not', null)
            .execute()),
        );
      }
      return { folders, files };
    },

    async fileBelow(ownerId, nodeId, fileId) {
      const own = scopedTo(db, ownerId);
      const file = await own.selectFrom('files').selectAll().where('id', '=', fileId).executeTakeFirst();
      if (file?.parent_node_id === null || file?.parent_node_id === undefined) return undefined;
      // Walk up from the file's folder to the shared folder (or to the top: not below it).
      const tree = await treeOf(ownerId);
      let at: string | null | undefined = file.parent_node_id;
      for (let steps = 0; at !== null && at !== undefined && steps <= tree.size; steps += 1) {
        if (at === nodeId) return file;
        at = tree.get(at);
      }
      return undefined;
    },
  };
}
