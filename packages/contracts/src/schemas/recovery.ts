/**
 * The recovery kit (issue 29): the caller's private keys wrapped a second time, under a key derived
 * from 24 words only the person holds. The server keeps one kit per user, opaque, and drops it when
 * the key records it covers change (a key added or deleted) or when a new kit replaces it.
 */
import { Type, type Static } from 'typebox';
import { apiObject, DateTimeSchema, IdSchema, jsonObjectText } from './common.js';

/** The kit's public id: 32 lowercase hex characters (half of SHA-256 of a label and the secret). */
export const RecoveryKitIdSchema = Type.String({
  pattern: '^[0-9a-f]{32}$',
  description: 'Public id of the recovery kit (reveals nothing of its words).',
});

/** JSON text of one recovery wrap: `{"v":1,"kitId","iv","data"}`. */
export const RecoveryWrapJsonSchema = jsonObjectText(
  'JSON text {"v":1,"kitId","iv","data"}: a private key (PKCS#8) sealed under the recovery kit.',
  8192,
);

/** What a recovery wrap holds once parsed; the server checks its shape and kit id. */
export const RecoveryWrapEnvelopeSchema = apiObject(
  'RecoveryWrapEnvelope',
  {
    v: Type.Literal(1),
    kitId: RecoveryKitIdSchema,
    iv: Type.String({ pattern: '^[A-Za-z0-9+/]{16}$', description: 'AES-GCM IV (12 bytes), base64.' }),
    data: Type.String({
      pattern: '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$',
      minLength: 24,
      maxLength: 8000,
      description: 'AES-256-GCM(recoveryKey, iv, aad, PKCS#8 DER), base64.',
    }),
  },
  'The parsed content of a recovery wrap.',
);

/** One key record's wraps under the kit. */
export const RecoveryKeyWrapSchema = apiObject(
  'RecoveryKeyWrap',
  {
    keyId: IdSchema,
    encryptedPrivateKey: RecoveryWrapJsonSchema,
    /** Present exactly when the key record has a signing key. */
    encryptedSigningKey: Type.Optional(RecoveryWrapJsonSchema),
  },
  "A key record's private keys, wrapped under the recovery kit.",
);
export type RecoveryKeyWrap = Static<typeof RecoveryKeyWrapSchema>;

const kitFields = {
  kitId: RecoveryKitIdSchema,
  wraps: Type.Array(RecoveryKeyWrapSchema, { minItems: 1, maxItems: 100 }),
};

/** PUT /users/keys/recovery: replaces any previous kit; KEY_SET_CHANGED (409) unless the wraps name exactly the caller's key records. */
export const PutRecoveryKitRequestSchema = apiObject(
  'PutRecoveryKitRequest',
  kitFields,
  'Store a new recovery kit (the previous one is dropped).',
);
export type PutRecoveryKitRequest = Static<typeof PutRecoveryKitRequestSchema>;

/** GET /users/keys/recovery; NOT_FOUND (404) when the caller has no kit. */
export const RecoveryKitSchema = apiObject(
  'RecoveryKit',
  { ...kitFields, createdAt: DateTimeSchema },
  "The caller's current recovery kit.",
);
export type RecoveryKit = Static<typeof RecoveryKitSchema>;
