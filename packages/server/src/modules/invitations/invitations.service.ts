import { scopedTo } from '../../infra/db/user-scope.js';
import { randomUUID } from 'node:crypto';
import { normalizeEmail } from '../../infra/db/values.js';
import type { Kysely } from 'kysely';
import { ApiError, ValidationError } from '../../http/errors.js';
import type { DB } from '../../infra/db/schema.js';
import { invitationMail } from '../../infra/mail/mail-templates.js';
import type { Mailer } from '../../infra/mail/mailer.js';
import { MailDeliveryError } from '../../infra/mail/mailer.js';
import type { ContactsRepo } from '../contacts/contacts.repo.js';
import type { CurrentUser } from '../users/users.service.js';
import { NAME_MAX_LENGTH, RECEIVED_INVITATIONS_LIMIT, type ReceivedInvitation } from '@coffer/contracts';

/** Invitations a user may send per rolling day: enough for real use, too few for spam. */
export const INVITATIONS_PER_DAY = 20;

export interface InvitationsService {
  invite(user: CurrentUser, to: string): Promise<void>;
  /** Who invited my (verified) email address, newest first, each once: the invite page prefills the name. */
  received(user: CurrentUser): Promise<ReceivedInvitation[]>;
}

export interface InvitationsLogger {
  warn(obj: object, msg: string): void;
}

export interface InvitationsServiceDeps {
  db: Kysely<DB>;
  contacts: ContactsRepo;
  mailer: Mailer;
  appUrl: string;
  logger: InvitationsLogger;
  now: () => Date;
}

export function createInvitationsService(deps: InvitationsServiceDeps): InvitationsService {
  const { db } = deps;

  async function sentToday(userId: string, now: Date): Promise<number> {
    const since = new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString();
    const row = await scopedTo(db, userId)
      .selectFrom('invitations')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('created_at', '>=', since)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  return {
    async invite(user, rawTo) {
      const to = normalizeEmail(rawTo);
      if (user.email === null) throw new ValidationError('Your account has no email address to invite from.');
      if (to === user.email) throw new ValidationError('You cannot invite yourself.');
      const now = deps.now();
      if ((await sentToday(user.id, now)) >= INVITATIONS_PER_DAY) {
        throw new ApiError(429, 'RATE_LIMITED', 'Too many invitations today. Please try again tomorrow.');
      }
      const message = invitationMail({
        inviterName: user.name ?? user.email,
        inviterEmail: user.email,
        to,
        appUrl: deps.appUrl,
      });
      try {
        await deps.mailer.send(message);
      } catch (err) {
        const reason = err instanceof MailDeliveryError ? err.reason : 'failed';
        deps.logger.warn({ reason, userId: user.id }, 'invitation mail not delivered');
        if (reason === 'invalid_recipient' || reason === 'rejected') {
          throw new ApiError(
            400,
            'INVALID_RECIPIENT',
            'The invitation could not be delivered to this address.',
          );
        }
        throw new ApiError(
          502,
          'MAIL_DELIVERY_FAILED',
          'The invitation email could not be sent. Please try again later.',
        );
      }
      const at = now.toISOString();
      await db
        .insertInto('invitations')
        .values({ id: randomUUID(), user_id: user.id, to_email: to, created_at: at })
        .execute();
      await deps.contacts.markInvited(user.id, to, at);
    },

    async received(user) {
      if (user.email === null) return [];
      // Only invitations addressed to me, so no one learns other people's names this way.
      const rows = await db
        .selectFrom('invitations')
        .innerJoin('users', 'users.id', 'invitations.user_id')
        .select(['users.email as email', 'users.name as name'])
        .where('invitations.to_email', '=', user.email)
        .where('users.email', 'is not', null)
        .orderBy('invitations.created_at', 'desc')
        .limit(INVITATIONS_PER_DAY * RECEIVED_INVITATIONS_LIMIT)
        .execute();
      const byEmail = new Map<string, ReceivedInvitation>();
      for (const row of rows) {
        if (row.email === null || byEmail.has(row.email)) continue;
        const name = row.name?.trim().slice(0, NAME_MAX_LENGTH) ?? '';
        byEmail.set(row.email, { email: row.email, name: name === '' ? row.email : name });
        if (byEmail.size === RECEIVED_INVITATIONS_LIMIT) break;
      }
      return [...byEmail.values()];
    },
  };
}
