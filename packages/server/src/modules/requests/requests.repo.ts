import type { Kysely, Selectable } from 'kysely';
import type { DB, FileRequestsTable } from '../../infra/db/schema.js';
import { scopedTo } from '../../infra/db/user-scope.js';

export type FileRequestRow = Selectable<FileRequestsTable>;

export interface NewFileRequest {
  id: string;
  ownerId: string;
  ownerKeyId: string;
  authKeyHash: string;
  expiresAt: string | null;
  maxFiles: number;
  maxBytes: number;
  message: string | null;
  signedInOnly: boolean;
  at: string;
}

/** File request rows: the owner's calls scoped to the owner; the public calls find one by id. */
export function createRequestsRepo(db: Kysely<DB>) {
  return {
    async ownerKeyId(ownerId: string): Promise<string | undefined> {
      const row = await scopedTo(db, ownerId)
        .selectFrom('user_keys')
        .select('id')
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row?.id;
    },

    async countOwned(ownerId: string): Promise<number> {
      const row = await scopedTo(db, ownerId)
        .selectFrom('file_requests')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return row.n;
    },

    /** False when the id is taken. */
    async insert(request: NewFileRequest): Promise<boolean> {
      const inserted = await db
        .insertInto('file_requests')
        .values({
          id: request.id,
          owner_id: request.ownerId,
          owner_key_id: request.ownerKeyId,
          auth_key_hash: request.authKeyHash,
          expires_at: request.expiresAt,
          max_files: request.maxFiles,
          max_bytes: request.maxBytes,
          message: request.message,
          signed_in_only: request.signedInOnly ? 1 : 0,
          closed_at: null,
          created_at: request.at,
          updated_at: request.at,
          last_used_at: null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .executeTakeFirst();
      return inserted !== undefined;
    },

    /** The owner's requests, newest first, with the files that came through each. */
    async listOwned(ownerId: string) {
      const requests = await scopedTo(db, ownerId)
        .selectFrom('file_requests')
        .selectAll()
        .orderBy('created_at', 'desc')
        .execute();
      if (requests.length === 0) return [];
      const files = await scopedTo(db, ownerId)
        .selectFrom('files')
        .select(['id', 'request_id', 'size', 'uploaded_by'])
        .where(
          'request_id',
          'in',
          requests.map((request) => request.id),
        )
        .execute();
      const senderIds = [
        ...new Set(files.flatMap((file) => (file.uploaded_by === null ? [] : [file.uploaded_by]))),
      ];
      const senders =
        senderIds.length === 0
          ? []
          : await db.selectFrom('users').select(['id', 'email']).where('id', 'in', senderIds).execute();
      const emailOf = new Map(senders.map((sender) => [sender.id, sender.email]));
      return requests.map((request) => {
        const received = files.filter((file) => file.request_id === request.id);
        return {
          ...request,
          fileIds: received.map((file) => file.id),
          receivedBytes: received.reduce((sum, file) => sum + file.size, 0),
          // Who sent what, where a signed-in person did (an account deleted since has no email).
          senders: received.flatMap((file) => {
            const email = file.uploaded_by === null ? undefined : emailOf.get(file.uploaded_by);
            return email === undefined || email === null ? [] : [{ fileId: file.id, email }];
          }),
        };
      });
    },

    async update(
      ownerId: string,
      requestId: string,
      set: { expires_at?: string | null; closed_at?: string },
      at: string,
    ): Promise<boolean> {
      const result = await scopedTo(db, ownerId)
        .updateTable('file_requests')
        .set({ ...set, updated_at: at })
        .where('id', '=', requestId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Deletes the request; the files that came through it stay the owner's files. */
    async delete(ownerId: string, requestId: string): Promise<boolean> {
      const result = await scopedTo(db, ownerId)
        .deleteFrom('file_requests')
        .where('id', '=', requestId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    findPublic(requestId: string) {
      return db.selectFrom('file_requests').selectAll().where('id', '=', requestId).executeTakeFirst();
    },

    /** Files received through the request and uploads to it in progress, with their plaintext bytes. */
    async usage(ownerId: string, requestId: string): Promise<{ files: number; bytes: number }> {
      const own = scopedTo(db, ownerId);
      const [files, uploads] = await Promise.all([
        own
          .selectFrom('files')
          .select((e) => [
            e.fn.countAll<string | number>().as('n'),
            e.fn.sum<string | number | null>('size').as('bytes'),
          ])
          .where('request_id', '=', requestId)
          .executeTakeFirstOrThrow(),
        own
          .selectFrom('uploads')
          .select((e) => [
            e.fn.countAll<string | number>().as('n'),
            e.fn.sum<string | number | null>('size').as('bytes'),
          ])
          .where('request_id', '=', requestId)
          .where('status', '=', 'pending')
          .executeTakeFirstOrThrow(),
      ]);
      return {
        files: Number(files.n) + Number(uploads.n),
        bytes: Number(files.bytes ?? 0) + Number(uploads.bytes ?? 0),
      };
    },

    async touch(requestId: string, at: string): Promise<void> {
      await db.updateTable('file_requests').set({ last_used_at: at }).where('id', '=', requestId).execute();
    },

    owner(ownerId: string, ownerKeyId: string) {
      return db
        .selectFrom('users')
        .innerJoin('user_keys', 'user_keys.user_id', 'users.id')
        .select(['users.email', 'user_keys.public_key'])
        .where('users.id', '=', ownerId)
        .where('user_keys.id', '=', ownerKeyId)
        .executeTakeFirst();
    },
  };
}

export type RequestsRepo = ReturnType<typeof createRequestsRepo>;
