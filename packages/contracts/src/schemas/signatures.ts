/**
 * Signing keys, signed records and pins (docs/encryption.md sections 7–10). Every record travels
 * as JSON text written by @coffer/crypto; the server stores and serves it unchanged. All of these
 * fields are optional in the spec's calls, so clients and data from before signing keys keep
 * working (the app shows their files and shares as "unsigned").
 */
import { Type, type Static, type TProperties } from 'typebox';
import { apiObject, base64String, EmailSchema, IdSchema, jsonObjectText } from './common.js';
import { KeyRecordRevSchema, KeyWrapKdfSchema, passwordWrapFields } from './password-wrap.js';

const SHA256_HEX_PATTERN = '^[0-9a-f]{64}$';
const ISO_MS_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$';
const sha256Hex = (description: string) => Type.String({ pattern: SHA256_HEX_PATTERN, description });
const signatureB64 = base64String('Signature: Ed25519, or ECDSA P-256 as r || s (64 bytes).', 88);
const isoMs = (description: string) => Type.String({ pattern: ISO_MS_PATTERN, description });
/** Canonical email in signed records: lower case. */
const LOWER_EMAIL_PATTERN = '^[^A-Z]*$';
const canonicalEmail = Type.Intersect([EmailSchema, Type.String({ pattern: LOWER_EMAIL_PATTERN })]);

/** base64(SPKI DER) of a signing public key: 44 bytes (Ed25519) or 91 bytes (ECDSA P-256). */
export const SigningPublicKeySchema = base64String(
  'base64(SPKI DER) of the Ed25519 or P-256 signing key.',
  128,
);

export const SigningAlgorithmSchema = Type.Union([Type.Literal('Ed25519'), Type.Literal('ECDSA-P256')]);

/** JSON text {"iv","salt","data","kdf","alg"}: the password-wrapped signing private key. */
export const EncryptedSigningKeyJsonSchema = jsonObjectText(
  'JSON text {"iv","salt","data","kdf","alg"} of the password-wrapped PKCS#8 signing key.',
  4096,
);
/** JSON text of a KeyBinding. */
export const KeyBindingJsonSchema = jsonObjectText(
  'JSON text of the key binding (signed by the signing key).',
  2048,
);
/** JSON text of a FileManifest. */
export const FileManifestJsonSchema = jsonObjectText(
  'JSON text of the file manifest (signed by the owner).',
  4096,
);
/** JSON text of a ShareGrant. */
export const ShareGrantJsonSchema = jsonObjectText(
  'JSON text of the share grant (signed by the owner).',
  2048,
);
/**
 * JSON text of a DriveKeyRecord: the user's own signature on a `wrappedDriveKey` (issue 31). RSA-OAEP
 * wraps to a public key, so only this record tells the user's browser that the drive key is its own.
 */
export const DriveKeyRecordJsonSchema = jsonObjectText(
  'JSON text of the drive key record (signed by the key owner).',
  4096,
);
/** JSON text of a sealed pin set. Room for thousands of pins. */
export const PinSetJsonSchema = jsonObjectText('JSON text of the sealed pin set.', 1_048_576);

/** What `encryptedSigningKey` holds once parsed. */
export const EncryptedSigningKeyEnvelopeSchema = apiObject(
  'EncryptedSigningKeyEnvelope',
  {
    ...passwordWrapFields('AES-256-GCM(wrapKey, iv, aad, PKCS#8 DER).', 1024),
    kdf: KeyWrapKdfSchema,
    alg: SigningAlgorithmSchema,
    rev: Type.Optional(KeyRecordRevSchema),
  },
  'The parsed encryptedSigningKey.',
);

/**
 * A signed record once parsed: format version 1, its `type`, the signed fields, then the signature
 * over them. The next records (links, folders, recovery) take the same form.
 */
const signedRecordSchema = <T extends string, P extends TProperties>(
  title: string,
  type: T,
  fields: P,
  description: string,
  version = 1,
) =>
  apiObject(
    title,
    { v: Type.Literal(version), type: Type.Literal(type), ...fields, signatureB64 },
    description,
  );

export const KeyBindingSchema = signedRecordSchema(
  'KeyBinding',
  'key-binding',
  {
    email: canonicalEmail,
    keyId: IdSchema,
    publicKeySha256Hex: sha256Hex('SHA-256 of the RSA SPKI.'),
    signingKeySha256Hex: sha256Hex('SHA-256 of the signing SPKI.'),
    signingAlgorithm: SigningAlgorithmSchema,
    createdAt: isoMs('When the binding was made.'),
  },
  'The parsed keyBinding.',
);
export type KeyBinding = Static<typeof KeyBindingSchema>;

export const FileManifestSchema = signedRecordSchema(
  'FileManifest',
  'file-manifest',
  {
    ownerEmail: canonicalEmail,
    ownerKeyId: IdSchema,
    ownerWrappedKeySha256Hex: sha256Hex("SHA-256 of the owner's encryptedFileKey bytes."),
    name: Type.String({ minLength: 1, maxLength: 255 }),
    contentType: Type.String({ minLength: 1, maxLength: 255 }),
    size: Type.Integer({ minimum: 0 }),
    chunkSize: Type.Integer({ minimum: 1 }),
    chunkCount: Type.Integer({ minimum: 1 }),
    signedAt: isoMs('When the owner signed.'),
  },
  'The parsed manifest.',
);
export type FileManifest = Static<typeof FileManifestSchema>;

/**
 * A file manifest, version 2 (issue 31): the SHA-256 of the file's `encryptedMetadata` in place of
 * the name and type, so the manifest the server stores holds no clear name (docs/encryption.md §9).
 */
export const FileManifestV2Schema = signedRecordSchema(
  'FileManifestV2',
  'file-manifest',
  {
    ownerEmail: canonicalEmail,
    ownerKeyId: IdSchema,
    ownerWrappedKeySha256Hex: sha256Hex("SHA-256 of the owner's encryptedFileKey bytes."),
    metadataSha256Hex: sha256Hex("SHA-256 of the file's encryptedMetadata bytes."),
    size: Type.Integer({ minimum: 0 }),
    chunkSize: Type.Integer({ minimum: 1 }),
    chunkCount: Type.Integer({ minimum: 1 }),
    signedAt: isoMs('When the owner signed.'),
  },
  'The parsed manifest, version 2 (sealed metadata).',
  2,
);
export type FileManifestV2 = Static<typeof FileManifestV2Schema>;

export const ShareGrantSchema = signedRecordSchema(
  'ShareGrant',
  'share-grant',
  {
    fileId: IdSchema,
    ownerEmail: canonicalEmail,
    recipientEmail: canonicalEmail,
    recipientKeyId: IdSchema,
    recipientKeySha256Hex: sha256Hex("SHA-256 of the recipient's RSA SPKI."),
    wrappedKeySha256Hex: sha256Hex("SHA-256 of the recipient's encryptedFileKey bytes."),
    manifestSha256Hex: Type.Union([sha256Hex("SHA-256 of the manifest's signed message."), Type.Literal('')]),
    signedAt: isoMs('When the owner signed.'),
  },
  'The parsed shareGrant.',
);
export type ShareGrant = Static<typeof ShareGrantSchema>;

export const PinSetEnvelopeSchema = signedRecordSchema(
  'PinSetEnvelope',
  'pin-set',
  {
    version: Type.Integer({ minimum: 1 }),
    wrappedKeyB64: base64String('RSA-OAEP(own public key, pin key).', 1024),
    ivB64: base64String('AES-GCM IV (12 bytes).', 16),
    dataB64: base64String('AES-256-GCM(pin key, iv, aad, pins JSON).', 1_040_000),
  },
  'The parsed pin set blob.',
);
export type PinSetEnvelope = Static<typeof PinSetEnvelopeSchema>;

/**
 * GET /users/pins: the caller's sealed pin set, or null before the first pin.
 */
export const PinSetResponseSchema = apiObject(
  'PinSetResponse',
  { pinSet: Type.Union([PinSetJsonSchema, Type.Null()]) },
  "The caller's sealed pin set.",
);
export type PinSetResponse = Static<typeof PinSetResponseSchema>;

/**
 * PUT /users/pins: store a new sealed pin set. `previousVersion` is the version the client
 * opened (null for the first): the server answers 409 if its stored version differs, so two devices
 * cannot silently overwrite each other. The server reads `version` from the envelope and refuses
 * one that does not grow; clients still check (the server is not trusted with it).
 */
export const PutPinSetRequestSchema = apiObject(
  'PutPinSetRequest',
  { pinSet: PinSetJsonSchema, previousVersion: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]) },
  'Replace the sealed pin set.',
);
export type PutPinSetRequest = Static<typeof PutPinSetRequestSchema>;

/**
 * PUT /users/keys/:keyId/signing: give an existing key record (set up before signing keys) its
 * signing key, once (409 when it has one).
 */
export const AddSigningKeyRequestSchema = apiObject(
  'AddSigningKeyRequest',
  {
    signingPublicKey: SigningPublicKeySchema,
    encryptedSigningKey: EncryptedSigningKeyJsonSchema,
    keyBinding: KeyBindingJsonSchema,
  },
  'Add a signing key to a key record.',
);
export type AddSigningKeyRequest = Static<typeof AddSigningKeyRequestSchema>;
