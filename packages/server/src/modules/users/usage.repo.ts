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

    async countsFor(userId, since) {
      const [storageUsed, uploads, downloads, contacts, shares] = await Promise.all([
        repo.storageUsed(userId),
        repo.transfersSince(userId, 'upload', since),
        repo.transfersSince(userId, 'download', since),
        repo.contactCount(userId),
        repo.shareCount(userId),
      ]);
      return { storageUsed, uploads, downloads, contacts, shares };
    },
  };
  return repo;
}
