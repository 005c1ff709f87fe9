/**
 * What every password-wrapped key holds once its JSON text is parsed (the RSA private key and the
 * signing key alike): AES-256-GCM under a key derived from the password with PBKDF2.
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

/** `iv`, `salt` and the wrapped `data`, whose description and size depend on the key. */
export const passwordWrapFields = (dataDescription: string, dataMaxLength: number) => ({
  iv: base64String('AES-GCM IV (12 bytes).', 64),
  salt: base64String('PBKDF2 salt (16 bytes).', 64),
  data: base64String(dataDescription, dataMaxLength),
});
