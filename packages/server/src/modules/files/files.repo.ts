import { sql, type Kysely } from 'kysely';
import type { Page } from '../../http/page-cursor.js';
import type { DB, FileRow } from '../../infra/db/schema.js';
import { scopedTo, withUserLock } from '../../infra/db/user-scope.js';
import { newId } from '../../infra/db/values.js';
import type { ResignedShareGrant } from '@coffer/contracts';
import type { FileNodeColumns } from './file-views.js';
import { SEALED_NAME_COLUMNS } from './file-views.js';
import { manifestRefusal, shareGrantsRefusal, type ManifestRefusal } from './resigned-manifest.js';

/** What a file list shows of a row (not its key, manifest or object key). */
export type FileListRow = Pick<
  FileRow,
  'id' | 'owner_id' | 'name' | 'content_type' | 'size' | 'is_encrypted' | 'uploaded_at'
>;

/**
 * The columns of the owner's list: the list row, the file's node, and whether a placed file still
 * has a version 1 manifest (`clear_manifest`, 1 or 0): one that names it in clear, left by the
 * migration of an older client, which the owner's browser signs again (issue 31).
 */
export type OwnFileListRow = FileListRow &
  FileNodeColumns & { clear_manifest: number | string | boolean; shared: number | string | boolean };

/**
 * 1 when the file is shared with someone (a card's "Shared with" asks for the names only then): one
 * probe of the shares' primary key, which starts with file_id.
 */
const SHARED = sql<number>`case when exists (select 1 from shares where shares.file_id = files.id) then 1 else 0 end`;

/**
 * 1 when a placed file's stored manifest is version 1: it does not sign sealed metadata (only version
 * 2 has `metadataSha256Hex`). A hint for the owner's browser, which checks the manifest itself.
 */
const CLEAR_MANIFEST = sql<number>`case when node_record is not null and manifest is not null and manifest not like '%"metadataSha256Hex"%' then 1 else 0 end`;

/** A file's node as stored (FileNode with the columns' names). */
export interface FileNodeValues {
  nodeId: string;
  parentNodeId: string | null;
  wrappedKey: string;
  encryptedMetadata: string;
  nodeRecord: string;
  /** The file's manifest signed again (version 2) and its shares' grants over it (issue 31). */
  manifest?: string | undefined;
  shareGrants?: readonly ResignedShareGrant[] | undefined;
}

/** Why a batch of node updates changed nothing (the first refusal found). */
export type SetNodesRefusal =
  | { kind: 'file-missing'; fileId: string }
  | { kind: 'parent-missing'; fileId: string }
  | { kind: 'node-id-fixed'; fileId: string }
  | { kind: 'node-id-taken'; fileId: string }
  | ({ kind: 'manifest'; fileId: string } & ManifestRefusal);

/** Files, always scoped to their owner; shares are in the shares module. */
export interface FilesRepo {
  /**
   * The columns of the list, newest first (ties by id); at most `page.limit` after `page.after`, or all
   * without a page. One range scan of `files_owner_uploaded_id` per page.
   */
  listFor(ownerId: string, page?: Page): Promise<OwnFileListRow[]>;
  /**
   * Sets the node of each file, all or none, in one transaction under the owner's lock: the file must be
   * the owner's, keep its node id once it has one, and sit at the top or in a folder of the owner's; no
   * other file or folder of the owner may have the node id; a manifest signed again must be this file's
   * and come with a grant for each signed share (resigned-manifest.ts). The clear name and content type
   * are replaced (in the file row and its upload row), and the manifest and grants with the node.
   * Returns the refusal, or null when every file was set.
   */
  setNodes(
    ownerId: string,
    items: readonly { fileId: string; node: FileNodeValues }[],
  ): Promise<SetNodesRefusal | null>;
  findFor(ownerId: string, fileId: string): Promise<FileRow | undefined>;
  /** The signed grants of the owner's shares of a file (those from before signing keys have none). */
  shareGrantsOf(ownerId: string, fileId: string): Promise<ResignedShareGrant[]>;
  /** Whether a new file may take this node: its folder exists (or it is at the top) and the id is free. */
  newNodeRefusal(
    ownerId: string,
    nodeId: string,
    parentNodeId: string | null,
  ): Promise<'parent-missing' | 'node-id-taken' | null>;
  /** Removes the file row and its shares in one transaction; returns the removed row. */
  deleteFor(ownerId: string, fileId: string): Promise<FileRow | undefined>;
  /**
   * Counts one download against `userId`'s monthly limit if fewer than `limit` were counted since
   * `since`: check and count are one step under the user's lock. Returns the count's id (to release it
   * if the download cannot start), or null when the limit is reached.
   */
  reserveDownload(
    userId: string,
    window: { since: string; limit: number },
    download: { fileId: string; bytes: number; at: string },
  ): Promise<string | null>;
  /** Whether `userId` had a download of `fileId` counted at or after `since`. */
  downloadCountedSince(userId: string, fileId: string, since: string): Promise<boolean>;
  /** Takes back a download counted by {@link reserveDownload} that never started. */
  releaseDownload(userId: string, reservationId: string): Promise<void>;
}

class NodesRefusedError extends Error {
  constructor(readonly refusal: SetNodesRefusal) {
    super(refusal.kind);
    this.name = 'NodesRefusedError';
  }
}

export function createFilesRepo(db: Kysely<DB>): FilesRepo {
  return {
    listFor(ownerId, page) {
      let query = scopedTo(db, ownerId)
        .selectFrom('files')
        .select([
          'id',
          'owner_id',
          'name',
          'content_type',
          'size',
          'is_encrypted',
          'uploaded_at',
          'node_id',
          'parent_node_id',
          'wrapped_key',
          'encrypted_metadata',
          'node_record',
          CLEAR_MANIFEST.as('clear_manifest'),
          SHARED.as('shared'),
        ])
        // Ties on the timestamp are broken by id so the order is stable and a cursor is exact.
        .orderBy('uploaded_at', 'desc')
        .orderBy('id', 'desc');
      if (page === undefined) return query.execute();
      const after = page.after;
      if (after !== undefined) {
        // A row comparison, which both databases answer with a range of the index.
        query = query.where((eb) => eb(eb.refTuple('uploaded_at', 'id'), '<', eb.tuple(after.at, after.id)));
      }
      return query.limit(page.limit).execute();
    },

    async setNodes(ownerId, items) {
      // A refusal is thrown inside the transaction, so a batch refused part-way rolls back what it set.
      const refuse = (refusal: SetNodesRefusal): never => {
        throw new NodesRefusedError(refusal);
      };
      try {
        await withUserLock(db, ownerId, async (own) => {
          for (const { fileId, node } of items) {
            const file = await own
              .selectFrom('files')
              .select(['id', 'node_id', 'size', 'encryption_info', 'manifest'])
              .where('id', '=', fileId)
              .executeTakeFirst();
            if (file === undefined) return refuse({ kind: 'file-missing', fileId });
            if (file.node_id !== null && file.node_id !== node.nodeId)
              refuse({ kind: 'node-id-fixed', fileId });
            const manifestRefused = manifestRefusal(file, node);
            if (manifestRefused !== null) refuse({ kind: 'manifest', fileId, ...manifestRefused });
            if (node.parentNodeId !== null) {
              const parent = await own
                .selectFrom('folders')
                .select('node_id')
                .where('node_id', '=', node.parentNodeId)
                .executeTakeFirst();
              if (parent === undefined) return refuse({ kind: 'parent-missing', fileId });
            }
            const folderTaken = await own
              .selectFrom('folders')
              .select('node_id')
              .where('node_id', '=', node.nodeId)
              .executeTakeFirst();
            const fileTaken = await own
              .selectFrom('files')
              .select('id')
              .where('node_id', '=', node.nodeId)
              .where('id', '!=', fileId)
              .executeTakeFirst();
            if (folderTaken !== undefined || fileTaken !== undefined)
              refuse({ kind: 'node-id-taken', fileId });
            await own
              .updateTable('files')
              .set({
                ...SEALED_NAME_COLUMNS,
                node_id: node.nodeId,
                parent_node_id: node.parentNodeId,
                wrapped_key: node.wrappedKey,
                encrypted_metadata: node.encryptedMetadata,
                node_record: node.nodeRecord,
                ...(node.manifest === undefined ? {} : { manifest: node.manifest }),
              })
              .where('id', '=', fileId)
              .execute();
            if (node.manifest !== undefined) {
              // Every grant names the manifest by hash: the old ones go with the old manifest.
              const shares = await own
                .selectFrom('shares')
                .select(['recipient_email', 'encrypted_file_key', 'key_version', 'share_grant'])
                .where('file_id', '=', fileId)
                .execute();
              const grants = node.shareGrants ?? [];
              const grantsRefused = shareGrantsRefusal(fileId, shares, grants);
              if (grantsRefused !== null) refuse({ kind: 'manifest', fileId, ...grantsRefused });
              for (const grant of grants) {
                await own
                  .updateTable('shares')
                  .set({ share_grant: grant.shareGrant })
                  .where('file_id', '=', fileId)
                  .where('recipient_email', '=', grant.email.toLowerCase())
                  .execute();
              }
            }
            // The upload that made the file still names it (and keeps the manifest it was sent with).
            await own
              .updateTable('uploads')
              .set({
                file_name: SEALED_NAME_COLUMNS.name,
                content_type: SEALED_NAME_COLUMNS.content_type,
                ...(node.manifest === undefined ? {} : { manifest: node.manifest }),
              })
              .where('file_id', '=', fileId)
              .execute();
          }
        });
        return null;
      } catch (error) {
        if (error instanceof NodesRefusedError) return error.refusal;
        throw error;
      }
    },

    async newNodeRefusal(ownerId, nodeId, parentNodeId) {
      const own = scopedTo(db, ownerId);
      if (parentNodeId !== null) {
        const parent = await own
          .selectFrom('folders')
          .select('node_id')
          .where('node_id', '=', parentNodeId)
          .executeTakeFirst();
        if (parent === undefined) return 'parent-missing';
      }
      const folder = await own
        .selectFrom('folders')
        .select('node_id')
        .where('node_id', '=', nodeId)
        .executeTakeFirst();
      const file = await own
        .selectFrom('files')
        .select('id')
        .where('node_id', '=', nodeId)
        .executeTakeFirst();
      return folder === undefined && file === undefined ? null : 'node-id-taken';
    },

    findFor(ownerId, fileId) {
      return scopedTo(db, ownerId)
        .selectFrom('files')
        .selectAll()
        .where('id', '=', fileId)
        .executeTakeFirst();
    },

    async shareGrantsOf(ownerId, fileId) {
      const rows = await scopedTo(db, ownerId)
        .selectFrom('shares')
        .select(['recipient_email', 'share_grant'])
        .where('file_id', '=', fileId)
        .where('share_grant', 'is not', null)
        .orderBy('recipient_email')
        .execute();
      return rows.flatMap((row) =>
        row.share_grant === null ? [] : [{ email: row.recipient_email, shareGrant: row.share_grant }],
      );
    },

    deleteFor(ownerId, fileId) {
      return db.transaction().execute(async (trx) => {
        const own = scopedTo(trx, ownerId);
        const row = await own.selectFrom('files').selectAll().where('id', '=', fileId).executeTakeFirst();
        if (row === undefined) return undefined;
        await own.deleteFrom('shares').where('file_id', '=', fileId).execute();
        const deleted = await own.deleteFrom('files').where('id', '=', fileId).executeTakeFirst();
        // A concurrent delete won the race: report the file as gone, like the other caller saw it.
        return deleted.numDeletedRows > 0n ? row : undefined;
      });
    },

    reserveDownload(userId, window, { fileId, bytes, at }) {
      return withUserLock(db, userId, async (own, trx) => {
        const counted = await own
          .selectFrom('transfer_events')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where('kind', '=', 'download')
          .where('created_at', '>=', window.since)
          .executeTakeFirst();
        if (Number(counted?.n ?? 0) >= window.limit) return null;
        const id = newId();
        await trx
          .insertInto('transfer_events')
          .values({ id, user_id: userId, kind: 'download', bytes, created_at: at, file_id: fileId })
          .execute();
        return id;
      });
    },

    async downloadCountedSince(userId, fileId, since) {
      const row = await scopedTo(db, userId)
        .selectFrom('transfer_events')
        .select('id')
        .where('kind', '=', 'download')
        .where('file_id', '=', fileId)
        .where('created_at', '>=', since)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    async releaseDownload(userId, reservationId) {
      await scopedTo(db, userId).deleteFrom('transfer_events').where('id', '=', reservationId).execute();
    },
  };
}
