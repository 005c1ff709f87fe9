import type { Kysely } from 'kysely';
import type { DB, UserRow, UserUpdate } from '../../infra/db/schema.js';

/** How a billing event finds its user: by our user id (checkout) or by the provider's customer id. */
export interface EventSubject {
  userId: string | null;
  customerId: string | null;
}

export type ApplyOutcome = 'applied' | 'unchanged' | 'duplicate' | 'no-user';

export interface PaymentsRepo {
  findUser(id: string): Promise<UserRow | undefined>;
  /**
   * Stores `customerId` as the user's customer unless another usable one is stored already (`replaceable`
   * is the stored id that may be overwritten, e.g. a demo customer after a switch to Stripe); returns
   * the stored one. Two checkouts racing keep the first customer.
   */
  claimCustomerId(userId: string, customerId: string, replaceable: string | null): Promise<string>;
  /** Whether an event id has been applied (or consumed) already. */
  eventSeen(id: string): Promise<boolean>;
  /**
   * In one transaction: records the event id (a duplicate stops here), locks the user it concerns and
   * writes what `decide` returns. An event for no known user is still recorded, so replays stay no-ops.
   */
  applyOnce(
    event: { id: string; type: string; at: Date },
    subject: EventSubject,
    decide: (user: UserRow) => UserUpdate | null,
  ): Promise<ApplyOutcome>;
  /** Paid users whose renewing subscription (with the given id prefix) has a period that ended by `now`. */
  dueRenewals(subscriptionPrefix: string, now: Date): Promise<UserRow[]>;
}

export function createPaymentsRepo(db: Kysely<DB>): PaymentsRepo {
  return {
    findUser(id) {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async claimCustomerId(userId, customerId, replaceable) {
      await db
        .updateTable('users')
        .set({ stripe_customer_id: customerId })
        .where('id', '=', userId)
        .where((eb) =>
          replaceable === null
            ? eb('stripe_customer_id', 'is', null)
            : eb.or([eb('stripe_customer_id', 'is', null), eb('stripe_customer_id', '=', replaceable)]),
        )
        .execute();
      const row = await db
        .selectFrom('users')
        .select('stripe_customer_id')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      return row.stripe_customer_id ?? customerId;
    },

    async eventSeen(id) {
      const row = await db.selectFrom('payment_events').select('id').where('id', '=', id).executeTakeFirst();
      return row !== undefined;
    },

    applyOnce(event, subject, decide) {
      return db.transaction().execute(async (trx) => {
        const recorded = await trx
          .insertInto('payment_events')
          .values({ id: event.id, type: event.type, processed_at: event.at.toISOString() })
          .onConflict((oc) => oc.column('id').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (recorded === undefined) return 'duplicate';

        // A no-op write that returns the row: it locks the user in PostgreSQL (SQLite already holds the
        // database's write lock after the insert), so two events for one user apply one after the other.
        const lock = (column: 'id' | 'stripe_customer_id', value: string) =>
          trx
            .updateTable('users')
            .set((eb) => ({ updated_at: eb.ref('updated_at') }))
            .where(column, '=', value)
            .returningAll()
            .executeTakeFirst();
        let user: UserRow | undefined;
        if (subject.userId !== null) user = await lock('id', subject.userId);
        if (user === undefined && subject.customerId !== null)
          user = await lock('stripe_customer_id', subject.customerId);
        if (user === undefined) return 'no-user';

        const update = decide(user);
        if (update === null) return 'unchanged';
        await trx
          .updateTable('users')
          .set({ ...update, updated_at: event.at.toISOString() })
          .where('id', '=', user.id)
          .execute();
        return 'applied';
      });
    },

    dueRenewals(subscriptionPrefix, now) {
      return db
        .selectFrom('users')
        .selectAll()
        .where('tier', '!=', 'Free')
        .where('stripe_subscription_id', 'like', `${subscriptionPrefix}%`)
        .where('current_period_end', '<=', now.toISOString())
        .limit(500)
        .execute();
    },
  };
}
