import { randomUUID } from 'node:crypto';
import { createHash } from 'node:crypto';
import type { AddSigningKeyRequest, CreateKeyRequest, KeyRecord, PublicKeyResponse } from '@coffer/contracts';
import {
  EncryptedPrivateKeyEnvelopeSchema,
  EncryptedSigningKeyEnvelopeSchema,
  ErrorCode,
  KeyBindingSchema,
} from '@coffer/contracts';
import { Value } from 'typebox/value';
import { ApiError, NotFoundError, ValidationError } from '../../http/errors.js';
import { isUniqueViolation } from '../../infra/db/errors.js';
import type { UserKeyRow } from '../../infra/db/schema.js';
import type { PinsRepo } from '../pins/pins.repo.js';
import type { UsersRepo } from '../users/users.repo.js';
import type { DriveKeyFields, KeysRepo } from './keys.repo.js';

export class KeysNotFoundError extends ApiError {
  constructor(message = 'No encryption keys found') {
    super(404, ErrorCode.KEYS_NOT_FOUND, message);
  }
}

export interface KeysService {
  /** `email` is the caller's verified address, which a key binding must name. */
  create(userId: string, email: string, body: CreateKeyRequest): Promise<KeyRecord>;
  addSigningKey(userId: string, email: string, keyId: string, body: AddSigningKeyRequest): Promise<KeyRecord>;
  list(userId: string): Promise<KeyRecord[]>;
  active(userId: string): Promise<KeyRecord>;
  delete(userId: string, keyId: string): Promise<void>;
  rewrap(
    userId: string,
    keyId: string,
    encryptedPrivateKey: string,
    encryptedSigningKey?: string,
  ): Promise<KeyRecord>;
  publicKeyOf(email: string): Promise<PublicKeyResponse>;
  /** Stores the drive key wrapped to a key record, with its signed record (issue 31): once; 409 when it has one. */
  setDriveKey(userId: string, keyId: string, driveKey: DriveKeyFields): Promise<KeyRecord>;
}

export function toKeyRecord(row: UserKeyRow): KeyRecord {
  return {
    keyId: row.id,
    publicKey: row.public_key,
    encryptedPrivateKey: row.encrypted_private_key,
    createdAt: row.created_at,
    ...signingOf(row),
    ...(row.wrapped_drive_key === null ? {} : { wrappedDriveKey: row.wrapped_drive_key }),
    ...(row.drive_key_record === null ? {} : { driveKeyRecord: row.drive_key_record }),
  };
}

/** The signing key fields of a record, absent (not null) on records from before signing keys. */
function signingOf(
  row: UserKeyRow,
): Pick<KeyRecord, 'signingPublicKey' | 'encryptedSigningKey' | 'keyBinding'> {
  if (row.signing_public_key === null || row.encrypted_signing_key === null || row.key_binding === null) {
    return {};
  }
  return {
    signingPublicKey: row.signing_public_key,
    encryptedSigningKey: row.encrypted_signing_key,
    keyBinding: row.key_binding,
  };
}

export function parsedJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError(`${what} must be JSON text`);
  }
}

function sha256Hex(b64: string): string {
  return createHash('sha256').update(Buffer.from(b64, 'base64')).digest('hex');
}

/**
 * The server cannot and need not verify signatures (clients do, against pinned keys), but it refuses
 * a signing key record that could never check out: a wrapped key or binding of the wrong shape, or a
 * binding that names another address, key id, or other keys than the ones it is stored with.
 */
function assertSigningFields(
  fields: { signingPublicKey?: string; encryptedSigningKey?: string; keyBinding?: string },
  expect: { email: string; keyId: string; publicKey: string },
): { signingPublicKey: string; encryptedSigningKey: string; keyBinding: string } | null {
  const { signingPublicKey, encryptedSigningKey, keyBinding } = fields;
  if (signingPublicKey === undefined && encryptedSigningKey === undefined && keyBinding === undefined)
    return null;
  if (signingPublicKey === undefined || encryptedSigningKey === undefined || keyBinding === undefined) {
    throw new ValidationError('signingPublicKey, encryptedSigningKey and keyBinding go together');
  }
  assertSigningEnvelope(encryptedSigningKey);
  const binding = parsedJson(keyBinding, 'keyBinding');
  if (!Value.Check(KeyBindingSchema, binding)) throw new ValidationError('keyBinding is not a key binding');
  if (
    binding.email !== expect.email ||
    binding.keyId !== expect.keyId ||
    binding.publicKeySha256Hex !== sha256Hex(expect.publicKey) ||
    binding.signingKeySha256Hex !== sha256Hex(signingPublicKey)
  ) {
    throw new ValidationError('keyBinding must name your address, this key id and these two public keys');
  }
  return { signingPublicKey, encryptedSigningKey, keyBinding };
}

/**
 * The server keeps key records opaque, but it refuses anything that is not a well-formed wrapped key, so
 * a client bug cannot store a record no one could ever unlock (or a private key in clear). An Argon2id
 * record carries its `rev`; a PBKDF2 record has none.
 */
export function assertWrappedKey(encryptedPrivateKey: string): void {
  const parsed = parsedJson(encryptedPrivateKey, 'encryptedPrivateKey');
  if (!Value.Check(EncryptedPrivateKeyEnvelopeSchema, parsed) || !revMatchesKdf(parsed)) {
    throw new ValidationError(
      'encryptedPrivateKey must be {"iv","salt","data","kdf"} (PBKDF2) or {"iv","salt","data","kdf","rev"} (Argon2id) with base64 values',
    );
  }
}

/** The same check for a wrapped signing key. */
export function assertSigningEnvelope(encryptedSigningKey: string): void {
  const parsed = parsedJson(encryptedSigningKey, 'encryptedSigningKey');
  if (!Value.Check(EncryptedSigningKeyEnvelopeSchema, parsed) || !revMatchesKdf(parsed)) {
    throw new ValidationError(
      'encryptedSigningKey must be {"iv","salt","data","kdf","alg"} (PBKDF2) or {"iv","salt","data","kdf","alg","rev"} (Argon2id) with base64 values',
    );
  }
}

function revMatchesKdf(envelope: { kdf?: { name: string }; rev?: number }): boolean {
  return (envelope.kdf?.name === 'Argon2id') === (envelope.rev !== undefined);
}

function assertSpki(publicKeyB64: string): void {
  // RSA-2048 SPKI DER is 294 bytes; anything far off is not a public key of the format.
  const bytes = Buffer.from(publicKeyB64, 'base64');
  if (bytes.length < 200 || bytes[0] !== 0x30) throw new ValidationError('publicKey must be base64 SPKI DER');
}

export function createKeysService(deps: {
  repo: KeysRepo;
  users: UsersRepo;
  /** The sealed pin sets: a user's first key (after a reset) starts without the old keys' pins. */
  pins: Pick<PinsRepo, 'deleteFor'>;
  now: () => Date;
}): KeysService {
  const { repo } = deps;
  return {
    async create(userId, email, body) {
      assertWrappedKey(body.encryptedPrivateKey);
      assertSpki(body.publicKey);
      const id = body.keyId ?? randomUUID();
      const signing = assertSigningFields(body, { email, keyId: id, publicKey: body.publicKey });
      // The pins were sealed to (and signed by) keys that no longer exist: no client could ever open
      // them again, and every pin write would have to replace them. The client's high-water mark is
      // per signing key, so the new keys start from an empty pin set without a rollback alarm.
      if ((await repo.listFor(userId)).length === 0) await deps.pins.deleteFor(userId);
      try {
        const row = await repo.insert({
          id,
          user_id: userId,
          public_key: body.publicKey,
          encrypted_private_key: body.encryptedPrivateKey,
          created_at: deps.now().toISOString(),
          signing_public_key: signing?.signingPublicKey ?? null,
          encrypted_signing_key: signing?.encryptedSigningKey ?? null,
          key_binding: signing?.keyBinding ?? null,
        });
        return toKeyRecord(row);
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new ApiError(409, ErrorCode.INVALID_OPERATION, 'A key with this id exists already');
        }
        throw error;
      }
    },

    async addSigningKey(userId, email, keyId, body) {
      const row = await repo.findFor(userId, keyId);
      if (!row) throw new NotFoundError('Key not found', ErrorCode.KEYS_NOT_FOUND);
      const signing = assertSigningFields(body, { email, keyId, publicKey: row.public_key });
      if (signing === null) throw new ValidationError('A signing key is required');
      const updated = await repo.addSigningKey(userId, keyId, signing);
      if (!updated) {
        // Replacing a signing key would let whoever holds the session swap the identity others pinned.
        throw new ApiError(409, ErrorCode.INVALID_OPERATION, 'This key record has a signing key already');
      }
      return toKeyRecord(updated);
    },

    async list(userId) {
      return (await repo.listFor(userId)).map(toKeyRecord);
    },

    async setDriveKey(userId, keyId, driveKey) {
      const updated = await repo.setDriveKey(userId, keyId, driveKey);
      if (updated !== undefined) return toKeyRecord(updated);
      if ((await repo.findFor(userId, keyId)) === undefined) {
        throw new NotFoundError('Key not found', ErrorCode.KEYS_NOT_FOUND);
      }
      // Replacing it would let a stolen session hand the owner's browser a drive key of its choosing.
      throw new ApiError(409, ErrorCode.INVALID_OPERATION, 'This key record has a drive key already');
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

    async rewrap(userId, keyId, encryptedPrivateKey, encryptedSigningKey) {
      assertWrappedKey(encryptedPrivateKey);
      if (encryptedSigningKey !== undefined) assertSigningEnvelope(encryptedSigningKey);
      const row = await repo.updateWrappedKey(userId, keyId, encryptedPrivateKey, encryptedSigningKey);
      if (!row) throw new NotFoundError('Key not found', ErrorCode.KEYS_NOT_FOUND);
      return toKeyRecord(row);
    },

    async publicKeyOf(email) {
      const user = await deps.users.findByEmail(email);
      const row = user ? await repo.newestFor(user.id) : undefined;
      if (!row) throw new KeysNotFoundError('No public key found for this email');
      const { signingPublicKey, keyBinding } = signingOf(row);
      return {
        publicKey: row.public_key,
        keyId: row.id,
        ...(signingPublicKey === undefined || keyBinding === undefined
          ? {}
          : { signingPublicKey, keyBinding }),
      };
    },
  };
}
