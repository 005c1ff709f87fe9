/**
 * What every password-wrapped key holds once its JSON text is parsed (the RSA private key and the
 * signing key alike): AES-256-GCM under a key derived from the password with PBKDF2 or Argon2id.
 */
import { Type } from 'typebox';
import { PBKDF2_HASH, PBKDF2_LEGACY_ITERATIONS } from '../constants.js';
import { base64String, closedObject } from './common.js';

/** PBKDF2 parameters; fewer than the legacy iterations is never accepted. */
export const Pbkdf2ParamsSchema = closedObject({
  name: Type.Literal('PBKDF2'),
  hash: Type.Literal(PBKDF2_HASH),
  iterations: Type.Integer({ minimum: PBKDF2_LEGACY_ITERATIONS, maximum: 10_000_000 }),
});

/**
 * Argon2id parameters (issue 29): what every record is written with now. Readers refuse less than
 * 64 MiB or 3 passes (a downgrade) and more than 1 GiB, 16 passes or 8 lanes.
 */
export const Argon2idParamsSchema = closedObject({
  name: Type.Literal('Argon2id'),
  version: Type.Literal(19),
  memoryKiB: Type.Integer({ minimum: 65_536, maximum: 1_048_576 }),
  passes: Type.Integer({ minimum: 3, maximum: 16 }),
  parallelism: Type.Integer({ minimum: 1, maximum: 8 }),
});

/** A record's key derivation: PBKDF2 (records before issue 29) or Argon2id. */
export const KeyWrapKdfSchema = Type.Union([Pbkdf2ParamsSchema, Argon2idParamsSchema]);

/**
 * The revision of an Argon2id record (authenticated by its AES-GCM additional data); PBKDF2 records
 * have none. The client refuses a record older than one it has seen.
 */
export const KeyRecordRevSchema = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

/** `iv`, `salt` and the wrapped `data`, whose description and size depend on the key. */
export const passwordWrapFields = (dataDescription: string, dataMaxLength: number) => ({
  iv: base64String('AES-GCM IV (12 bytes).', 64),
  salt: base64String('PBKDF2 or Argon2id salt (16 bytes).', 64),
  data: base64String(dataDescription, dataMaxLength),
});
