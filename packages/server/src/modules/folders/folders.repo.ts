import type { Kysely } from 'kysely';
import type { DB, FolderRow } from '../../infra/db/schema.js';
import type { UserScope } from '../../infra/db/user-scope.js';
import { scopedTo, withUserLock } from '../../infra/db/user-scope.js';
import type { FolderTree } from './folder-tree.js';
import { chunked, subtreeOf } from './folder-tree.js';

/** What a create or a move may change of a folder. */
export interface FolderValues {
  parentNodeId: string | null;
  wrappedKey: string;
  encryptedMetadata: string;
  nodeRecord: string;
}

/** A rule checked against the owner's tree under the owner's lock; a refusal (any value) stops the write. */
export type TreeCheck<R> = (tree: FolderTree, context: { nodeIdUsedByFile: boolean }) => R | null;

/** The result of a guarded write: the row, or the check's refusal, or 'missing' (no such folder). */
export type Guarded<R> = { row: FolderRow } | { refused: R } | 'missing';

/** Writes the owner's folder `nodeId` with `values` at `at` if `check` passes, under the owner's lock. */
export type GuardedWrite = <R>(
  ownerId: string,
  nodeId: string,
  values: FolderValues,
  at: string,
  check: TreeCheck<R>,
) => Promise<Guarded<R>>;

/** Files and blobs a folder delete removed: the blobs go once the transaction has committed. */
export interface DeletedTree {
  objectKeys: string[];
  folders: number;
  files: number;
}

/** Folders, always scoped to their owner. */
export interface FoldersRepo {
  /** Every folder of the owner, oldest first. */
  listFor(ownerId: string): Promise<FolderRow[]>;
  /** The owner's whole tree (node id → parent id), outside a transaction (reads for recipients). */
  treeOf(ownerId: string): Promise<FolderTree>;
  findFor(ownerId: string, nodeId: string): Promise<FolderRow | undefined>;
  create: GuardedWrite;
  update: GuardedWrite;
  /**
   * Deletes the folder, every folder and file below it, their file shares and folder shares, in one
   * transaction. Undefined when the owner has no such folder.
   */
  deleteTree(ownerId: string, nodeId: string): Promise<DeletedTree | undefined>;
}

/** The owner's tree (node id → parent id), read through `own` (in a transaction or not). */
export async function readTree(own: UserScope): Promise<FolderTree> {
  const rows = await own.selectFrom('folders').select(['node_id', 'parent_node_id']).execute();
  return new Map(rows.map((row) => [row.node_id, row.parent_node_id]));
}

async function usedByFile(own: UserScope, nodeId: string): Promise<boolean> {
  const row = await own.selectFrom('files').select('id').where('node_id', '=', nodeId).executeTakeFirst();
  return row !== undefined;
}

const columnsOf = (values: FolderValues) => ({
  parent_node_id: values.parentNodeId,
  wrapped_key: values.wrappedKey,
  encrypted_metadata: values.encryptedMetadata,
  node_record: values.nodeRecord,
});

export function createFoldersRepo(db: Kysely<DB>): FoldersRepo {
  return {
    listFor(ownerId) {
      return scopedTo(db, ownerId)
        .selectFrom('folders')
        .selectAll()
        .orderBy('created_at')
        .orderBy('node_id')
        .execute();
    },

    treeOf(ownerId) {
      return readTree(scopedTo(db, ownerId));
    },

    findFor(ownerId, nodeId) {
      return scopedTo(db, ownerId)
        .selectFrom('folders')
        .selectAll()
        .where('node_id', '=', nodeId)
        .executeTakeFirst();
    },

    create(ownerId, nodeId, values, at, check) {
      return withUserLock(db, ownerId, async (own, trx) => {
        const refused = check(await readTree(own), { nodeIdUsedByFile: await usedByFile(own, nodeId) });
        if (refused !== null) return { refused };
        const row = await trx
          .insertInto('folders')
          .values({
            owner_id: ownerId,
            node_id: nodeId,
            ...columnsOf(values),
            created_at: at,
            updated_at: at,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return { row };
      });
    },

    update(ownerId, nodeId, values, at, check) {
      return withUserLock(db, ownerId, async (own) => {
        const tree = await readTree(own);
        if (!tree.has(nodeId)) return 'missing' as const;
        const refused = check(tree, { nodeIdUsedByFile: false });
        if (refused !== null) return { refused };
        const row = await own
          .updateTable('folders')
          .set({ ...columnsOf(values), updated_at: at })
          .where('node_id', '=', nodeId)
          .returningAll()
          .executeTakeFirstOrThrow();
        return { row };
      });
    },

    deleteTree(ownerId, nodeId) {
      return withUserLock(db, ownerId, async (own) => {
        const tree = await readTree(own);
        if (!tree.has(nodeId)) return undefined;
        const folderIds = subtreeOf(tree, nodeId);
        const objectKeys: string[] = [];
        let files = 0;
        for (const ids of chunked(folderIds)) {
          const rows = await own
            .selectFrom('files')
            .select(['id', 'object_key'])
            .where('parent_node_id', 'in', ids)
            .execute();
          files += rows.length;
          for (const fileIds of chunked(rows.map((row) => row.id))) {
            await own.deleteFrom('shares').where('file_id', 'in', fileIds).execute();
            await own.deleteFrom('files').where('id', 'in', fileIds).execute();
          }
          objectKeys.push(...rows.map((row) => row.object_key));
          await own.deleteFrom('folder_shares').where('node_id', 'in', ids).execute();
        }
        // Deepest first would matter only with a parent foreign key; there is none, so one pass per chunk.
        for (const ids of chunked(folderIds)) {
          await own.deleteFrom('folders').where('node_id', 'in', ids).execute();
        }
        return { objectKeys, folders: folderIds.length, files };
      });
    },
  };
}
