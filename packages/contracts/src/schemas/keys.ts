import { Type, type Static } from 'typebox';
import { PBKDF2_HASH, PBKDF2_LEGACY_ITERATIONS } from '../constants.js';
import { base64String, DateTimeSchema, IdSchema } from './common.js';
import { EncryptedSigningKeyJsonSchema, KeyBindingJsonSchema, SigningPublicKeySchema } from './signatures.js';

/** The signing key of a key record; absent on records made before signing keys. */
const signingFields = {
  signingPublicKey: Type.Optional(SigningPublicKeySchema),
  encryptedSigningKey: Type.Optional(EncryptedSigningKeyJsonSchema),
  keyBinding: Type.Optional(KeyBindingJsonSchema),
};

/** base64(SPKI DER) of an RSA-OAEP public key (294 bytes for RSA-2048; room for larger keys). */
export const PublicKeySchema = base64String('base64(SPKI DER) of the RSA-OAEP public key.', 4096);

/** A JSON object serialised as a string, without raw control characters. */
export const JSON_OBJECT_TEXT_PATTERN = '^\\{[^\\u0000-\\u001F]*\\}$';

/**
 * The wrapped private key: the JSON text of an EncryptedPrivateKeyEnvelope. The server
 * stores it opaquely but should parse it and check it against that schema.
 */
export const EncryptedPrivateKeyJsonSchema = Type.String({
  pattern: JSON_OBJECT_TEXT_PATTERN,
  minLength: 2,
  maxLength: 16_384,
  description: 'JSON text {"iv","salt","data","kdf"} of the password-wrapped PKCS#8 private key.',
});

/** What `encryptedPrivateKey` holds once parsed. A record without `kdf` means 100000 iterations. */
export const EncryptedPrivateKeyEnvelopeSchema = Type.Object(
  {
    iv: base64String('AES-GCM IV (12 bytes).', 64),
    salt: base64String('PBKDF2 salt (16 bytes).', 64),
    data: base64String('AES-256-GCM(wrapKey, iv, PKCS#8 DER).', 12_000),
    kdf: Type.Optional(
      Type.Object(
        {
          name: Type.Literal('PBKDF2'),
          hash: Type.Literal(PBKDF2_HASH),
          iterations: Type.Integer({ minimum: PBKDF2_LEGACY_ITERATIONS, maximum: 10_000_000 }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  {
    additionalProperties: false,
    title: 'EncryptedPrivateKeyEnvelope',
    description: 'The parsed content of encryptedPrivateKey.',
  },
);
export type EncryptedPrivateKeyEnvelope = Static<typeof EncryptedPrivateKeyEnvelopeSchema>;

export const KeyRecordSchema = Type.Object(
  {
    keyId: IdSchema,
    publicKey: PublicKeySchema,
    encryptedPrivateKey: EncryptedPrivateKeyJsonSchema,
    createdAt: DateTimeSchema,
    ...signingFields,
  },
  { additionalProperties: false, title: 'KeyRecord', description: "One of the user's key pairs." },
);
export type KeyRecord = Static<typeof KeyRecordSchema>;

/** POST /users/keys. The server assigns keyId and createdAt and answers with the KeyRecord. */
export const CreateKeyRequestSchema = Type.Object(
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
    publicKey: PublicKeySchema,
    encryptedPrivateKey: EncryptedPrivateKeyJsonSchema,
    ...signingFields,
  },
  { additionalProperties: false, title: 'CreateKeyRequest', description: 'Store a new key pair.' },
);
export type CreateKeyRequest = Static<typeof CreateKeyRequestSchema>;

export const KeysResponseSchema = Type.Object(
  { keys: Type.Array(KeyRecordSchema) },
  { additionalProperties: false, title: 'KeysResponse', description: 'Answer of GET /users/keys.' },
);
export type KeysResponse = Static<typeof KeysResponseSchema>;

/**
 * PUT /users/keys/:keyId — the password change: the same private key re-wrapped under the
 * new password. The public key never changes. Answered with the updated KeyRecord.
 */
export const RewrapKeyRequestSchema = Type.Object(
  {
    encryptedPrivateKey: EncryptedPrivateKeyJsonSchema,
    /** Re-wrapped with the same new salt, when the record has a signing key. */
    encryptedSigningKey: Type.Optional(EncryptedSigningKeyJsonSchema),
  },
  {
    additionalProperties: false,
    title: 'RewrapKeyRequest',
    description: 'Replace the wrapped private key after a password change.',
  },
);
export type RewrapKeyRequest = Static<typeof RewrapKeyRequestSchema>;

export const KeyIdParamsSchema = Type.Object(
  { keyId: IdSchema },
  { additionalProperties: false, title: 'KeyIdParams', description: 'A key id (URL-encoded) in the path.' },
);
export type KeyIdParams = Static<typeof KeyIdParamsSchema>;

export const PublicKeyResponseSchema = Type.Object(
  {
    publicKey: PublicKeySchema,
    keyId: IdSchema,
    signingPublicKey: Type.Optional(SigningPublicKeySchema),
    keyBinding: Type.Optional(KeyBindingJsonSchema),
  },
  {
    additionalProperties: false,
    title: 'PublicKeyResponse',
    description: "A contact's active public key; KEYS_NOT_FOUND (404) when the contact has none.",
  },
);
export type PublicKeyResponse = Static<typeof PublicKeyResponseSchema>;
