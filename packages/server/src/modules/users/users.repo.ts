import { randomUUID } from 'node:crypto';
import { normalizeEmail } from '../../infra/db/values.js';
import type { Kysely } from 'kysely';
import type { Identity } from '../../infra/auth/identity.js';
import { isUniqueViolation } from '../../infra/db/errors.js';
import type { DB, UserRow } from '../../infra/db/schema.js';

export interface UsersRepo {
  /**
   * Creates the user on first sight of (issuer, subject); refreshes name, email, country, idp after.
   * `users.email` holds a *verified* address only: an unverified one is never stored there, so nobody
   * finds, shares with or invites an account through an address it has not proved.
   */
  upsertFromIdentity(identity: Identity, emailVerified: boolean, now: Date): Promise<UserRow>;
  findById(id: string): Promise<UserRow | undefined>;
  findByEmail(email: string): Promise<UserRow | undefined>;
}

/**
 * Whether `row` already says what the identity says (name, country, provider, and the proven address or
 * none), so that `upsertFromIdentity` would return it unchanged without another query.
 */
export function holdsIdentity(row: UserRow, identity: Identity, emailVerified: boolean): boolean {
  const provenEmail = emailVerified ? identity.email : null;
  return (
    row.email === provenEmail &&
    row.name === identity.name &&
    row.country === identity.country &&
    row.idp === identity.idp
  );
}

export function createUsersRepo(db: Kysely<DB>): UsersRepo {
  async function findBySubject(issuer: string, subject: string): Promise<UserRow | undefined> {
    return db
      .selectFrom('users')
      .selectAll()
      .where('issuer', '=', issuer)
      .where('subject', '=', subject)
      .executeTakeFirst();
  }

  /**
   * An email belongs to one account. When another account already holds it (say the person signed in
   * through a second identity provider), this account keeps working without the email rather than
   * taking it over: shares and contacts address people by email.
   */
  async function emailFreeFor(email: string | null, userId: string | null): Promise<string | null> {
    if (email === null) return null;
    const holder = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    return holder === undefined || holder.id === userId ? email : null;
  }

  return {
    async upsertFromIdentity(identity, emailVerified, now) {
      const existing = await findBySubject(identity.issuer, identity.subject);
      const at = now.toISOString();
      const provenEmail = emailVerified ? identity.email : null;
      if (existing) {
        // The common case, every request of a signed-in person: nothing to write, and no second query.
        if (holdsIdentity(existing, identity, emailVerified)) return existing;
        // The row already holds this address, so no other row can (a unique index): no second query.
        const email =
          provenEmail !== null && existing.email === provenEmail
            ? provenEmail
            : await emailFreeFor(provenEmail, existing.id);
        const changed =
          existing.name !== identity.name ||
          existing.country !== identity.country ||
          existing.idp !== identity.idp ||
          existing.email !== email;
        if (!changed) return existing;
        return db
          .updateTable('users')
          .set({
            name: identity.name,
            country: identity.country,
            idp: identity.idp,
            email,
            updated_at: at,
          })
          .where('id', '=', existing.id)
          .returningAll()
          .executeTakeFirstOrThrow();
      }
      try {
        return await db
          .insertInto('users')
          .values({
            id: randomUUID(),
            issuer: identity.issuer,
            subject: identity.subject,
            email: await emailFreeFor(provenEmail, null),
            name: identity.name,
            country: identity.country,
            idp: identity.idp,
            current_period_start: at,
            current_period_end: null,
            stripe_customer_id: null,
            stripe_subscription_id: null,
            created_at: at,
            updated_at: at,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      } catch (err) {
        // Two first requests of a new user raced; the other one created the row.
        if (!isUniqueViolation(err)) throw err;
        const row = await findBySubject(identity.issuer, identity.subject);
        if (!row) throw err;
        return row;
      }
    },

    findById(id) {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    findByEmail(email) {
      return db.selectFrom('users').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
    },
  };
}
