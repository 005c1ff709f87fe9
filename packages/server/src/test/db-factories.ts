/**
 * Rows with sensible defaults, for tests that need a user or a file to exist. Every call makes unique
 * ids, emails and object keys, so tests sharing one database never collide.
 */
import type { Kysely } from 'kysely';
import type {
  ContactRow,
  DB,
  FileRow,
  NewContactRow,
  NewFileRow,
  NewUserKeyRow,
  NewUserRow,
  UserKeyRow,
  UserRow,
} from '../infra/db/schema.js';
import { newId, nowIso } from '../infra/db/values.js';

export function buildUser(overrides: Partial<NewUserRow> = {}): NewUserRow {
  const id = newId();
  const now = nowIso();
  return {
    id,
    issuer: 'https://issuer.test',
    subject: `sub-${id}`,
    email: `user-${id}@example.test`,
    name: 'Test User',
    country: null,
    idp: 'local',
    current_period_start: now,
    current_period_end: null,
    stripe_customer_id: null,
    stripe_subscription_id: null,
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

export async function insertUser(db: Kysely<DB>, overrides: Partial<NewUserRow> = {}): Promise<UserRow> {
  return db.insertInto('users').values(buildUser(overrides)).returningAll().executeTakeFirstOrThrow();
}

export async function insertUserKey(
  db: Kysely<DB>,
  userId: string,
  overrides: Partial<NewUserKeyRow> = {},
): Promise<UserKeyRow> {
  const row: NewUserKeyRow = {
    id: newId(),
    user_id: userId,
    public_key: 'TUlJQklqQU5CZ2txaGtpRzl3MEJBUUVGQUFPQ0FROEFNSUlCQ2dLQ0FRRUE=',
    encrypted_private_key: JSON.stringify({ iv: 'aXY=', salt: 'c2FsdA==', data: 'ZGF0YQ==' }),
    created_at: nowIso(),
    ...overrides,
  };
  return db.insertInto('user_keys').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function insertContact(
  db: Kysely<DB>,
  userId: string,
  overrides: Partial<NewContactRow> = {},
): Promise<ContactRow> {
  const row: NewContactRow = {
    user_id: userId,
    email: `contact-${newId()}@example.test`,
    name: 'A Contact',
    color: '#228be6',
    image: null,
    invited_at: null,
    created_at: nowIso(),
    ...overrides,
  };
  return db.insertInto('contacts').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function insertFile(
  db: Kysely<DB>,
  ownerId: string,
  overrides: Partial<NewFileRow> = {},
): Promise<FileRow> {
  const id = newId();
  const row: NewFileRow = {
    id,
    owner_id: ownerId,
    name: 'report.pdf',
    content_type: 'application/pdf',
    size: 1000,
    stored_size: 1028,
    is_encrypted: 1,
    encryption_info: JSON.stringify({
      version: 'key-1',
      algorithm: 'AES-GCM',
      iv: '',
      encryptedFileKey: 'a2V5',
      format: 'coffer-v1',
      chunkSize: 99614720,
    }),
    object_key: `users/${ownerId}/files/${id}`,
    uploaded_at: nowIso(),
    ...overrides,
  };
  return db.insertInto('files').values(row).returningAll().executeTakeFirstOrThrow();
}
