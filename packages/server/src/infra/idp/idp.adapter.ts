import type { Kysely } from 'kysely';
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import type { DB } from '../db/schema.js';
import { nowIso } from '../db/values.js';

/**
 * oidc-provider's storage (sessions, interactions, grants, codes, refresh tokens…) in the app's database,
 * table `idp_payloads` keyed by (model, id). Every server behind a load balancer sees the same state,
 * and a restart signs nobody out. Expired rows are never returned and are removed by
 * {@link deleteExpiredIdpPayloads}.
 */
export function createIdpAdapterFactory(db: Kysely<DB>, now: () => Date = () => new Date()): AdapterFactory {
  return (model: string): Adapter => {
    async function find(
      column: 'id' | 'uid' | 'user_code',
      value: string,
    ): Promise<AdapterPayload | undefined> {
      const row = await db
        .selectFrom('idp_payloads')
        .select(['payload', 'consumed_at'])
        .where('model', '=', model)
        .where(column, '=', value)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowIso(now()))]))
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const payload = JSON.parse(row.payload) as AdapterPayload;
      if (row.consumed_at !== null) payload.consumed = Math.floor(Date.parse(row.consumed_at) / 1000);
      return payload;
    }

    return {
      async upsert(id, payload, expiresIn) {
        const row = {
          payload: JSON.stringify(payload),
          grant_id: payload.grantId ?? null,
          user_code: payload.userCode ?? null,
          uid: payload.uid ?? null,
          account_id: typeof payload.accountId === 'string' ? payload.accountId : null,
          expires_at:
            typeof expiresIn === 'number' ? nowIso(new Date(now().getTime() + expiresIn * 1000)) : null,
        };
        await db
          .insertInto('idp_payloads')
          .values({ id, model, consumed_at: null, ...row })
          .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(row))
          .execute();
      },
      find: (id) => find('id', id),
      findByUid: (uid) => find('uid', uid),
      findByUserCode: (userCode) => find('user_code', userCode),
      async consume(id) {
        await db
          .updateTable('idp_payloads')
          .set({ consumed_at: nowIso(now()) })
          .where('model', '=', model)
          .where('id', '=', id)
          .execute();
      },
      async destroy(id) {
        await db.deleteFrom('idp_payloads').where('model', '=', model).where('id', '=', id).execute();
      },
      async revokeByGrantId(grantId) {
        await db
          .deleteFrom('idp_payloads')
          .where('model', '=', model)
          .where('grant_id', '=', grantId)
          .execute();
      },
    };
  };
}

/** Deletes every expired provider record; returns how many went. */
export async function deleteExpiredIdpPayloads(db: Kysely<DB>, now: Date = new Date()): Promise<number> {
  const result = await db
    .deleteFrom('idp_payloads')
    .where('expires_at', '<=', nowIso(now))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
