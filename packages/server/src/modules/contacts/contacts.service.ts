import { createHash } from 'node:crypto';
import { normalizeEmail } from '../../infra/db/values.js';
import type { AddContactRequest, Contact } from '@coffer/contracts';
import { avatarColorFor, ErrorCode } from '@coffer/contracts';
import { ApiError, NotFoundError, ValidationError } from '../../http/errors.js';
import { isUniqueViolation } from '../../infra/db/errors.js';
import type { ContactRow, UserRow } from '../../infra/db/schema.js';
import type { CurrentUser } from '../users/users.service.js';
import type { ContactsRepo } from './contacts.repo.js';

/** A contact's colour is picked from its email so it stays the same everywhere. */
export function contactColor(email: string): string {
  return avatarColorFor(createHash('sha256').update(email).digest()[0] ?? 0);
}

export const CONTACT_LIMIT_MESSAGE = 'You have reached your contact limit.';

export function toContact(row: ContactRow): Contact {
  return {
    name: row.name,
    email: row.email,
    color: row.color,
    image: row.image,
    invited: row.invited_at !== null,
  };
}

export interface ContactsService {
  list(userId: string): Promise<Contact[]>;
  add(user: CurrentUser, body: AddContactRequest): Promise<Contact>;
  rename(userId: string, email: string, name: string): Promise<Contact>;
  delete(userId: string, email: string): Promise<void>;
}

export interface ContactsServiceDeps {
  repo: ContactsRepo;
  maxContactsOf: (user: UserRow) => number;
  now: () => Date;
}

export function createContactsService(deps: ContactsServiceDeps): ContactsService {
  const { repo } = deps;
  const alreadyExists = () =>
    new ApiError(409, ErrorCode.CONTACT_ALREADY_EXISTS, 'A contact with this email already exists');

  return {
    async list(userId) {
      return (await repo.listFor(userId)).map(toContact);
    },

    async add(user, body) {
      const email = normalizeEmail(body.email);
      const name = body.name.trim();
      if (name === '') throw new ValidationError('Name is required.');
      if (user.email !== null && email === user.email)
        throw new ApiError(400, ErrorCode.CONTACT_IS_SELF, 'You cannot add yourself as a contact.');
      if (await repo.findFor(user.id, email)) throw alreadyExists();
      try {
        const row = await repo.insertWithinLimit(
          {
            user_id: user.id,
            email,
            name,
            color: contactColor(email),
            image: null,
            invited_at: null,
            created_at: deps.now().toISOString(),
          },
          deps.maxContactsOf(user.row),
        );
        if (row === null) throw new ApiError(403, ErrorCode.QUOTA_EXCEEDED, CONTACT_LIMIT_MESSAGE);
        return toContact(row);
      } catch (err) {
        if (isUniqueViolation(err)) throw alreadyExists();
        throw err;
      }
    },

    async rename(userId, email, name) {
      const trimmed = name.trim();
      if (trimmed === '') throw new ValidationError('Name is required.');
      const row = await repo.rename(userId, normalizeEmail(email), trimmed);
      if (!row) throw new NotFoundError('Contact not found');
      return toContact(row);
    },

    async delete(userId, email) {
      if (!(await repo.deleteFor(userId, normalizeEmail(email))))
        throw new NotFoundError('Contact not found');
    },
  };
}
