import { Type, type Static } from 'typebox';
import { NODE_WRAPPED_KEY_MAX_LENGTH } from '../constants.js';
import { apiObject, base64String, DateTimeSchema, IdSchema, jsonObjectText } from './common.js';
import { KeyRecordRevSchema, KeyWrapKdfSchema, passwordWrapFields } from './password-wrap.js';
import {
  DriveKeyRecordJsonSchema,
  EncryptedSigningKeyJsonSchema,
  KeyBindingJsonSchema,
  SigningPublicKeySchema,
} from './signatures.js';

/** The signing key of a key record; absent on records made before signing keys. */
const signingFields = {
  signingPublicKey: Type.Optional(SigningPublicKeySchema),
  encryptedSigningKey: Type.Optional(EncryptedSigningKeyJsonSchema),
  keyBinding: Type.Optional(KeyBindingJsonSchema),
};

/** base64(SPKI DER) of an RSA-OAEP public key (294 bytes for RSA-2048; room for larger keys). */
export const PublicKeySchema = base64String('base64(SPKI DER) of the RSA-OAEP public key.', 4096);

/**
 * The wrapped private key: the JSON text of an EncryptedPrivateKeyEnvelope. The server
 * stores it opaquely but should parse it and check it against that schema.
 */
export const EncryptedPrivateKeyJsonSchema = jsonObjectText(
  'JSON text {"iv","salt","data","kdf"} of the password-wrapped PKCS#8 private key.',
  16_384,
);

/**
 * What `encryptedPrivateKey` holds once parsed. A record without `kdf` means PBKDF2 with 100000
 * iterations; an Argon2id record has `rev` (and PBKDF2 records none: the server checks that).
 */
export const EncryptedPrivateKeyEnvelopeSchema = apiObject(
  'EncryptedPrivateKeyEnvelope',
  {
    ...passwordWrapFields('AES-256-GCM(wrapKey, iv, aad, PKCS#8 DER).', 12_000),
    kdf: Type.Optional(KeyWrapKdfSchema),
    rev: Type.Optional(KeyRecordRevSchema),
  },
  'The parsed content of encryptedPrivateKey.',
);
export type EncryptedPrivateKeyEnvelope = Static<typeof EncryptedPrivateKeyEnvelopeSchema>;

/** The key pair as the client stores it: the public key and the password-wrapped private key. */
const keyPairFields = {
  publicKey: PublicKeySchema,
  encryptedPrivateKey: EncryptedPrivateKeyJsonSchema,
};

export const KeyRecordSchema = apiObject(
  'KeyRecord',
  {
    keyId: IdSchema,
    ...keyPairFields,
    createdAt: DateTimeSchema,
    ...signingFields,
    /** base64 RSA-OAEP of the drive key to this key pair (issue 31); absent until set. */
    wrappedDriveKey: Type.Optional(
      base64String('base64(RSA-OAEP(publicKey, drive key)).', NODE_WRAPPED_KEY_MAX_LENGTH),
    ),
    /** The user's signed drive key record for `wrappedDriveKey`; present whenever it is. */
    driveKeyRecord: Type.Optional(DriveKeyRecordJsonSchema),
  },
  "One of the user's key pairs.",
);
export type KeyRecord = Static<typeof KeyRecordSchema>;

/** POST /users/keys. The server assigns keyId and createdAt and answers with the KeyRecord. */
export const CreateKeyRequestSchema = apiObject(
  'CreateKeyRequest',
  {
    /**
     * A key id the client chose (a UUID), so the key binding it signs before sending can name it.
     * Required with `keyBinding`; the server makes one up otherwise.
     */
    keyId: Type.Optional(
      Type.String({
        pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
        description: 'A lower-case UUID chosen by the client.',
      }),
    ),
    ...keyPairFields,
    ...signingFields,
  },
  'Store a new key pair.',
);
export type CreateKeyRequest = Static<typeof CreateKeyRequestSchema>;

export const KeysResponseSchema = apiObject(
  'KeysResponse',
  { keys: Type.Array(KeyRecordSchema) },
  'Answer of GET /users/keys.',
);
export type KeysResponse = Static<typeof KeysResponseSchema>;

/**
 * A key record's password-wrapped keys after a change of master unlock key; the signing key is
 * required when the record has one, re-wrapped with the same new salt.
 */
const rewrappedFields = {
  encryptedPrivateKey: EncryptedPrivateKeyJsonSchema,
  encryptedSigningKey: Type.Optional(EncryptedSigningKeyJsonSchema),
};

/**
 * PUT /users/keys/:keyId — the password change: the same private key re-wrapped under the
 * new password. The public key never changes. Answered with the updated KeyRecord.
 */
export const RewrapKeyRequestSchema = apiObject(
  'RewrapKeyRequest',
  rewrappedFields,
  'Replace the wrapped private key after a password change.',
);
export type RewrapKeyRequest = Static<typeof RewrapKeyRequestSchema>;

export const KeyIdParamsSchema = apiObject(
  'KeyIdParams',
  { keyId: IdSchema },
  'A key id (URL-encoded) in the path.',
);
export type KeyIdParams = Static<typeof KeyIdParamsSchema>;

export const PublicKeyResponseSchema = apiObject(
  'PublicKeyResponse',
  {
    publicKey: PublicKeySchema,
    keyId: IdSchema,
    signingPublicKey: Type.Optional(SigningPublicKeySchema),
    keyBinding: Type.Optional(KeyBindingJsonSchema),
  },
  "A contact's active public key; KEYS_NOT_FOUND (404) when the contact has none.",
);
export type PublicKeyResponse = Static<typeof PublicKeyResponseSchema>;

/** One key record re-wrapped: its id and its new password-wrapped keys. */
export const RewrappedKeySchema = apiObject(
  'RewrappedKey',
  { keyId: IdSchema, ...rewrappedFields },
  'A key record re-wrapped under a new master unlock key.',
);
export type RewrappedKey = Static<typeof RewrappedKeySchema>;

/**
 * PUT /users/keys — a change of master unlock key or a recovery: every key record of the caller,
 * re-wrapped, replaced in one transaction. KEY_SET_CHANGED (409) unless the list names exactly the
 * caller's key records; then nothing changes.
 */
export const RewrapAllKeysRequestSchema = apiObject(
  'RewrapAllKeysRequest',
  { keys: Type.Array(RewrappedKeySchema, { minItems: 1, maxItems: 100 }) },
  "Replace every key record's wrapped keys at once.",
);
export type RewrapAllKeysRequest = Static<typeof RewrapAllKeysRequestSchema>;
