import type { Kysely } from 'kysely';
import type { DB, TransferKind } from '../../infra/db/schema.js';
import { scopedTo } from '../../infra/db/user-scope.js';

export interface UsageCounts {
  /** Ciphertext bytes of the user's files: what the blob store actually holds. */
  storageUsed: number;
  uploads: number;
  downloads: number;
  contacts: number;
  /** Shares the user has granted on their own files. */
  shares: number;
}

export interface UsageRepo {
  countsFor(userId: string, since: Date): Promise<UsageCounts>;
  storageUsed(userId: string): Promise<number>;
  transfersSince(userId: string, kind: TransferKind, since: Date): Promise<number>;
  contactCount(userId: string): Promise<number>;
  shareCount(userId: string): Promise<number>;
}

function toNumber(value: string | number | bigint | null | undefined): number {
  if (value === null || value === undefined) return 0;
  return Number(value);
}

export function createUsageRepo(db: Kysely<DB>): UsageRepo {
  const repo: UsageRepo = {
    async storageUsed(userId) {
      const row = await scopedTo(db, userId)
        .selectFrom('files')
        .select((eb) => eb.fn.sum<string | number>('stored_size').as('total'))
        .executeTakeFirst();
      return toNumber(row?.total);
    },

    async transfersSince(userId, kind, since) {
      const row = await scopedTo(db, userId)
        .selectFrom('transfer_events')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('kind', '=', kind)
        .where('created_at', '>=', since.toISOString())
        .executeTakeFirst();
      return toNumber(row?.n);
    },

    async contactCount(userId) {
      const row = await scopedTo(db, userId)
        .selectFrom('contacts')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .executeTakeFirst();
      return toNumber(row?.n);
    },

    async shareCount(userId) {
      const row = await scopedTo(db, userId)
        .selectFrom('shares')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .executeTakeFirst();
      return toNumber(row?.n);
    },

    // One round trip for the stats screen (it is asked on every visit): five scoped subqueries.
    async countsFor(userId, since) {
      const own = scopedTo(db, userId);
      const at = since.toISOString();
      const transfers = (kind: TransferKind) =>
        own
          .selectFrom('transfer_events')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where('kind', '=', kind)
          .where('created_at', '>=', at);
      const row = await db
        .selectNoFrom([
          own
            .selectFrom('files')
            .select((inner) => inner.fn.sum<string | number>('stored_size').as('total'))
            .as('storage_used'),
          transfers('upload').as('uploads'),
          transfers('download').as('downloads'),
          own
            .selectFrom('contacts')
            .select((inner) => inner.fn.countAll<string | number>().as('n'))
            .as('contacts'),
          own
            .selectFrom('shares')
            .select((inner) => inner.fn.countAll<string | number>().as('n'))
            .as('shares'),
        ])
        .executeTakeFirstOrThrow();
      return {
        storageUsed: toNumber(row.storage_used),
        uploads: toNumber(row.uploads),
        downloads: toNumber(row.downloads),
        contacts: toNumber(row.contacts),
        shares: toNumber(row.shares),
      };
    },
  };
  return repo;
}
