import type { KeyRecord, PutRecoveryKitRequest, RecoveryKit, RewrapAllKeysRequest } from '@coffer/contracts';
import { ErrorCode, RecoveryWrapEnvelopeSchema } from '@coffer/contracts';
import { Value } from 'typebox/value';
import { ApiError, NotFoundError, ValidationError } from '../../http/errors.js';
import type { UserKeyRow } from '../../infra/db/schema.js';
import { assertSigningEnvelope, assertWrappedKey, parsedJson } from './keys.service.js';
import type { KeysRepo } from './keys.repo.js';
import type { RecoveryKitsRepo } from './recovery.repo.js';
import { toKeyRecord } from './keys.service.js';

/**
 * The calls that act on all of a user's key records at once (issue 29): re-wrapping them under a new
 * master unlock key, and the recovery kit. Each names every key record; the server refuses a list that
 * is not exactly the caller's records at that moment (KEY_SET_CHANGED), so a change interrupted
 * half-way, or raced by another device, leaves all old or all new records, never a mix.
 */
export interface RecoveryService {
  rewrapAll(userId: string, body: RewrapAllKeysRequest): Promise<KeyRecord[]>;
  getKit(userId: string): Promise<RecoveryKit>;
  putKit(userId: string, body: PutRecoveryKitRequest): Promise<RecoveryKit>;
  deleteKit(userId: string): Promise<void>;
}

class KeySetChangedError extends ApiError {
  constructor() {
    super(
      409,
      ErrorCode.KEY_SET_CHANGED,
      'The list must name exactly your current key records; reload them and try again',
    );
  }
}

interface NamedKeys {
  keyId: string;
  encryptedSigningKey?: string;
}

/** Ids once each; checked before the transaction. */
function assertDistinct(items: readonly NamedKeys[]): void {
  if (new Set(items.map((item) => item.keyId)).size !== items.length) {
    throw new ValidationError('Each key id may appear once');
  }
}

/** Inside the transaction: exactly the caller's records, each with a signing key exactly where it has one. */
function assertSameKeySet(rows: readonly UserKeyRow[], items: readonly NamedKeys[]): void {
  if (rows.length !== items.length) throw new KeySetChangedError();
  for (const row of rows) {
    const item = items.find((candidate) => candidate.keyId === row.id);
    if (item === undefined) throw new KeySetChangedError();
    if ((row.encrypted_signing_key !== null) !== (item.encryptedSigningKey !== undefined)) {
      throw new ValidationError(
        `Key ${row.id}: encryptedSigningKey goes with exactly the key records that have a signing key`,
      );
    }
  }
}

function assertRecoveryWrap(json: string, kitId: string, what: string): void {
  const parsed = parsedJson(json, what);
  if (!Value.Check(RecoveryWrapEnvelopeSchema, parsed)) {
    throw new ValidationError(`${what} must be {"v":1,"kitId","iv","data"} with base64 values`);
  }
  if (parsed.kitId !== kitId) throw new ValidationError(`${what} belongs to another kit than ${kitId}`);
}

export function createRecoveryService(deps: {
  keys: Pick<KeysRepo, 'listFor'>;
  kits: RecoveryKitsRepo;
  now: () => Date;
}): RecoveryService {
  const { kits } = deps;
  return {
    async rewrapAll(userId, body) {
      for (const item of body.keys) {
        assertWrappedKey(item.encryptedPrivateKey);
        if (item.encryptedSigningKey !== undefined) assertSigningEnvelope(item.encryptedSigningKey);
      }
      assertDistinct(body.keys);
      await kits.rewrapAll(userId, (rows) => {
        assertSameKeySet(rows, body.keys);
        return new Map(body.keys.map((item) => [item.keyId, item]));
      });
      return (await deps.keys.listFor(userId)).map(toKeyRecord);
    },

    async getKit(userId) {
      const row = await kits.findFor(userId);
      if (!row) throw new NotFoundError('No recovery kit', ErrorCode.NOT_FOUND);
      return {
        kitId: row.kit_id,
        wraps: JSON.parse(row.wraps) as RecoveryKit['wraps'],
        createdAt: row.created_at,
      };
    },

    async putKit(userId, body) {
      for (const wrap of body.wraps) {
        assertRecoveryWrap(wrap.encryptedPrivateKey, body.kitId, 'encryptedPrivateKey');
        if (wrap.encryptedSigningKey !== undefined) {
          assertRecoveryWrap(wrap.encryptedSigningKey, body.kitId, 'encryptedSigningKey');
        }
      }
      assertDistinct(body.wraps);
      const row = await kits.replace(
        userId,
        { kit_id: body.kitId, wraps: JSON.stringify(body.wraps), created_at: deps.now().toISOString() },
        (rows) => {
          assertSameKeySet(rows, body.wraps);
        },
      );
      return { kitId: row.kit_id, wraps: body.wraps, createdAt: row.created_at };
    },

    async deleteKit(userId) {
      await kits.deleteFor(userId);
    },
  };
}
