import { randomUUID } from 'node:crypto';
import type { CreateKeyRequest, KeyRecord, PublicKeyResponse } from '@coffer/contracts';
import { EncryptedPrivateKeyEnvelopeSchema, ErrorCode } from '@coffer/contracts';
import { Value } from 'typebox/value';
import { ApiError, NotFoundError, ValidationError } from '../../http/errors.js';
import type { UserKeyRow } from '../../infra/db/schema.js';
import type { UsersRepo } from '../users/users.repo.js';
import type { KeysRepo } from './keys.repo.js';

export class KeysNotFoundError extends ApiError {
  constructor(message = 'No encryption keys found') {
    super(404, ErrorCode.KEYS_NOT_FOUND, message);
    this.name = 'KeysNotFoundError';
  }
}

export interface KeysService {
  create(userId: string, body: CreateKeyRequest): Promise<KeyRecord>;
  list(userId: string): Promise<KeyRecord[]>;
  active(userId: string): Promise<KeyRecord>;
  delete(userId: string, keyId: string): Promise<void>;
  rewrap(userId: string, keyId: string, encryptedPrivateKey: string): Promise<KeyRecord>;
  publicKeyOf(email: string): Promise<PublicKeyResponse>;
}

export function toKeyRecord(row: UserKeyRow): KeyRecord {
  return {
    keyId: row.id,
    publicKey: row.public_key,
    encryptedPrivateKey: row.encrypted_private_key,
    createdAt: row.created_at,
  };
}

/**
 * The server keeps key records opaque, but it refuses anything that is not a well-formed wrapped key, so
 * a client bug cannot store a record no one could ever unlock (or a private key in clear).
 */
function assertWrappedKey(encryptedPrivateKey: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(encryptedPrivateKey);
  } catch {
    throw new ValidationError('encryptedPrivateKey must be JSON text');
  }
  if (!Value.Check(EncryptedPrivateKeyEnvelopeSchema, parsed)) {
    throw new ValidationError('encryptedPrivateKey must be {"iv","salt","data","kdf"} with base64 values');
  }
}

function assertSpki(publicKeyB64: string): void {
  // RSA-2048 SPKI DER is 294 bytes; anything far off is not a public key of the format.
  const bytes = Buffer.from(publicKeyB64, 'base64');
  if (bytes.length < 200 || bytes[0] !== 0x30) throw new ValidationError('publicKey must be base64 SPKI DER');
}

export function createKeysService(deps: { repo: KeysRepo; users: UsersRepo; now: () => Date }): KeysService {
  const { repo } = deps;
  return {
    async create(userId, body) {
      assertWrappedKey(body.encryptedPrivateKey);
      assertSpki(body.publicKey);
      const row = await repo.insert({
        id: randomUUID(),
        user_id: userId,
        public_key: body.publicKey,
        encrypted_private_key: body.encryptedPrivateKey,
        created_at: deps.now().toISOString(),
      });
      return toKeyRecord(row);
    },

    async list(userId) {
      return (await repo.listFor(userId)).map(toKeyRecord);
    },

    async active(userId) {
      const row = await repo.newestFor(userId);
      if (!row) throw new KeysNotFoundError();
      return toKeyRecord(row);
    },

    async delete(userId, keyId) {
      if (!(await repo.deleteFor(userId, keyId)))
        throw new NotFoundError('Key not found', ErrorCode.KEYS_NOT_FOUND);
    },

    async rewrap(userId, keyId, encryptedPrivateKey) {
      assertWrappedKey(encryptedPrivateKey);
      const row = await repo.updateWrappedKey(userId, keyId, encryptedPrivateKey);
      if (!row) throw new NotFoundError('Key not found', ErrorCode.KEYS_NOT_FOUND);
      return toKeyRecord(row);
    },

    async publicKeyOf(email) {
      const user = await deps.users.findByEmail(email);
      const row = user ? await repo.newestFor(user.id) : undefined;
      if (!row) throw new KeysNotFoundError('No public key found for this email');
      return { publicKey: row.public_key, keyId: row.id };
    },
  };
}
