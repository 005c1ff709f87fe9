import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, LinksTable } from '../../infra/db/schema.js';
import { scopedTo } from '../../infra/db/user-scope.js';

export type LinkRow = Selectable<LinksTable>;

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

    async addDownloadToken(
      tokenHash: string,
      linkId: string,
      fileId: string,
      expiresAt: string,
    ): Promise<void> {
      await db
        .insertInto('link_downloads')
        .values({ token_hash: tokenHash, link_id: linkId, file_id: fileId, expires_at: expiresAt })
        .execute();
    },

    /** Whether a token names a counted download of this file through this link that has not expired. */
    async hasDownloadToken(tokenHash: string, linkId: string, fileId: string, at: string): Promise<boolean> {
      const row = await db
        .selectFrom('link_downloads')
        .select('token_hash')
        .where('token_hash', '=', tokenHash)
        .where('link_id', '=', linkId)
        .where('file_id', '=', fileId)
        .where('expires_at', '>', at)
        .executeTakeFirst();
      return row !== undefined;
    },

    async deleteDownloadToken(tokenHash: string): Promise<void> {
      await db.deleteFrom('link_downloads').where('token_hash', '=', tokenHash).execute();
    },

    async touch(linkId: string, at: string): Promise<void> {
      await db.updateTable('links').set({ last_used_at: at }).where('id', '=', linkId).execute();
    },
  };
}

export type LinksRepo = ReturnType<typeof createLinksRepo>;
