import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { DB, LinkDownloadsTable, LinksTable } from '../../infra/db/schema.js';
import { scopedTo } from '../../infra/db/user-scope.js';

export type LinkRow = Selectable<LinksTable>;

/**
 * A download session's or file mark's row (`link_downloads`), once: a row of the same hash that expired
 * by `at` is dropped first; true when this call inserted it, false when the hash is held.
 */
async function insertUnlessHeld(
  db: Kysely<DB>,
  row: Insertable<LinkDownloadsTable>,
  at: string,
): Promise<boolean> {
  await db
    .deleteFrom('link_downloads')
    .where('token_hash', '=', row.token_hash)
    .where('expires_at', '<=', at)
    .execute();
  const inserted = await db
    .insertInto('link_downloads')
    .values(row)
    .onConflict((oc) => oc.column('token_hash').doNothing())
    .returning('token_hash')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** One granted file with what a download needs. */
export interface LinkItemRow {
  file_id: string;
  wrapped_key: string;
  encrypted_metadata: string;
  size: number;
  stored_size: number;
  object_key: string;
  manifest: string | null;
}

export interface NewLink {
  id: string;
  ownerId: string;
  ownerKeyId: string;
  authKeyHash: string;
  passwordSalt: string | null;
  passwordKdf: string | null;
  expiresAt: string | null;
  maxDownloads: number | null;
  label: string | null;
  linkRecord: string;
  at: string;
  items: readonly { fileId: string; wrappedKey: string; encryptedMetadata: string }[];
}

/** Thrown inside a session's transaction to roll its row back when the count is refused. */
class SessionRefused extends Error {}

/** The count's UPDATE with its checks (see `countDownload`), on the database or in a transaction. */
async function countDownloadIn(db: Kysely<DB>, linkId: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('links')
    .set({ downloads_used: sql<number>`downloads_used + 1`, last_used_at: at })
    .where('id', '=', linkId)
    .where((eb) =>
      eb.or([eb('max_downloads', 'is', null), eb('downloads_used', '<', eb.ref('max_downloads'))]),
    )
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Link rows: the owner's calls are scoped to the owner; the public calls find a link by its id only. */
export function createLinksRepo(db: Kysely<DB>) {
  return {
    /** The key record a new link belongs to: the owner's newest, with its signing key. */
    async ownerKey(ownerId: string) {
      return scopedTo(db, ownerId)
        .selectFrom('user_keys')
        .select(['id', 'signing_public_key'])
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    /** How many of `fileIds` are the owner's encrypted files. */
    async ownedEncryptedCount(ownerId: string, fileIds: readonly string[]): Promise<number> {
      const row = await scopedTo(db, ownerId)
        .selectFrom('files')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('id', 'in', fileIds)
        .where('is_encrypted', '=', 1)
        .executeTakeFirstOrThrow();
      return row.n;
    },

    async countOwned(ownerId: string): Promise<number> {
      const row = await scopedTo(db, ownerId)
        .selectFrom('links')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return row.n;
    },

    /** Inserts the link and its items in one transaction; false when the id is taken. */
    async insert(link: NewLink): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('links')
          .values({
            id: link.id,
            owner_id: link.ownerId,
            owner_key_id: link.ownerKeyId,
            auth_key_hash: link.authKeyHash,
            password_salt: link.passwordSalt,
            password_kdf: link.passwordKdf,
            expires_at: link.expiresAt,
            max_downloads: link.maxDownloads,
            label: link.label,
            link_record: link.linkRecord,
            created_at: link.at,
            updated_at: link.at,
            last_used_at: null,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (inserted === undefined) return false;
        await trx
          .insertInto('link_items')
          .values(
            link.items.map((item, position) => ({
              link_id: link.id,
              file_id: item.fileId,
              position,
              wrapped_key: item.wrappedKey,
              encrypted_metadata: item.encryptedMetadata,
            })),
          )
          .execute();
        return true;
      });
    },

    /** The owner's links, newest first, with their items' file ids; only those granting `fileId` if given. */
    async listOwned(ownerId: string, fileId?: string) {
      let query = scopedTo(db, ownerId).selectFrom('links').selectAll().orderBy('created_at', 'desc');
      if (fileId !== undefined) {
        query = query.where((eb) =>
          eb.exists(
            eb
              .selectFrom('link_items')
              .select('link_items.file_id')
              .whereRef('link_items.link_id', '=', 'links.id')
              .where('link_items.file_id', '=', fileId),
          ),
        );
      }
      const links = await query.execute();
      if (links.length === 0) return [];
      const items = await db
        .selectFrom('link_items')
        .select(['link_id', 'file_id'])
        .where(
          'link_id',
          'in',
          links.map((link) => link.id),
        )
        .orderBy('position')
        .execute();
      return links.map((link) => ({
        ...link,
        fileIds: items.filter((item) => item.link_id === link.id).map((item) => item.file_id),
      }));
    },

    async update(
      ownerId: string,
      linkId: string,
      set: {
        expires_at?: string | null;
        max_downloads?: number | null;
        label?: string | null;
        link_record?: string;
      },
      at: string,
    ): Promise<boolean> {
      const result = await scopedTo(db, ownerId)
        .updateTable('links')
        .set({ ...set, updated_at: at })
        .where('id', '=', linkId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Revokes: the link, its wrapped keys and its download tokens go (cascade). */
    async delete(ownerId: string, linkId: string): Promise<boolean> {
      const result = await scopedTo(db, ownerId)
        .deleteFrom('links')
        .where('id', '=', linkId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    findPublic(linkId: string) {
      return db.selectFrom('links').selectAll().where('id', '=', linkId).executeTakeFirst();
    },

    items(linkId: string): Promise<LinkItemRow[]> {
      return db
        .selectFrom('link_items')
        .innerJoin('files', 'files.id', 'link_items.file_id')
        .select([
          'link_items.file_id',
          'link_items.wrapped_key',
          'link_items.encrypted_metadata',
          'files.size',
          'files.stored_size',
          'files.object_key',
          'files.manifest',
        ])
        .where('link_items.link_id', '=', linkId)
        .orderBy('link_items.position')
        .execute();
    },

    /** The owner's email and the signing key and key binding of the key record the link was made under. */
    owner(ownerId: string, ownerKeyId: string) {
      return db
        .selectFrom('users')
        .innerJoin('user_keys', 'user_keys.user_id', 'users.id')
        .select(['users.email', 'user_keys.signing_public_key', 'user_keys.key_binding'])
        .where('users.id', '=', ownerId)
        .where('user_keys.id', '=', ownerKeyId)
        .executeTakeFirst();
    },

    /**
     * Counts one download, atomically with its checks: the link still exists, has not expired and has
     * a download left (`downloads_used < max_downloads` in the UPDATE). Of two clients racing for the
     * last download, the database lets exactly one update the row.
     */
    async countDownload(linkId: string, at: string): Promise<boolean> {
      return countDownloadIn(db, linkId, at);
    },

    /** Gives back a count taken for a download that could not start. */
    async releaseDownload(linkId: string): Promise<void> {
      await db
        .updateTable('links')
        .set({ downloads_used: sql<number>`downloads_used - 1` })
        .where('id', '=', linkId)
        .where('downloads_used', '>', 0)
        .execute();
    },

    /**
     * Claims a download session for a link, in one transaction with its count: a session hash not
     * seen before (or only expired) is inserted and the link's download counted (the UPDATE of
     * {@link countDownload}); if the count is refused, nothing is kept (`unavailable`). A hash the
     * link already holds is `mine` (not counted again); one of another link is `other`. Of two requests
     * racing with the same new session, the second waits on the first's row and finds it `mine`.
     */
    async claimDownloadSession(
      sessionHash: string,
      linkId: string,
      expiresAt: string,
      at: string,
    ): Promise<{ kind: 'new' | 'mine'; expiresAt: string } | { kind: 'other' | 'unavailable' }> {
      try {
        return await db.transaction().execute(async (trx) => {
          const row = { token_hash: sessionHash, link_id: linkId, file_id: '', expires_at: expiresAt };
          if (await insertUnlessHeld(trx, row, at)) {
            if (!(await countDownloadIn(trx, linkId, at))) throw new SessionRefused();
            return { kind: 'new' as const, expiresAt };
          }
          const held = await trx
            .selectFrom('link_downloads')
            .select(['link_id', 'expires_at'])
            .where('token_hash', '=', sessionHash)
            .executeTakeFirst();
          return held?.link_id === linkId
            ? { kind: 'mine' as const, expiresAt: held.expires_at }
            : { kind: 'other' as const };
        });
      } catch (error) {
        if (error instanceof SessionRefused) return { kind: 'unavailable' };
        throw error;
      }
    },

    /** Records that a session started a file (its mark); false when it already had (a restart). */
    async markFileStart(markHash: string, linkId: string, fileId: string, expiresAt: string, at: string) {
      return insertUnlessHeld(
        db,
        { token_hash: markHash, link_id: linkId, file_id: fileId, expires_at: expiresAt },
        at,
      );
    },

    async deleteDownloadRows(hashes: readonly string[]): Promise<void> {
      if (hashes.length === 0) return;
      await db.deleteFrom('link_downloads').where('token_hash', 'in', hashes).execute();
    },

    /** Deletes download sessions and marks that expired before `at`, at most `batch`; how many. */
    async sweepExpiredDownloads(at: string, batch: number): Promise<number> {
      const stale = await db
        .selectFrom('link_downloads')
        .select('token_hash')
        .where('expires_at', '<=', at)
        .limit(batch)
        .execute();
      if (stale.length === 0) return 0;
      const result = await db
        .deleteFrom('link_downloads')
        .where(
          'token_hash',
          'in',
          stale.map((row) => row.token_hash),
        )
        .where('expires_at', '<=', at)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async touch(linkId: string, at: string): Promise<void> {
      await db.updateTable('links').set({ last_used_at: at }).where('id', '=', linkId).execute();
    },
  };
}

export type LinksRepo = ReturnType<typeof createLinksRepo>;
