/**
 * Share links (issue 30, docs/key-hierarchy.md "Links"). The link secret `S` never reaches the
 * server: the owner sends each file key wrapped under the link key `K` (derived from `S`, and a
 * password), the metadata sealed under `K`, SHA-256 of the proof `A` and a signed link record. A
 * recipient proves `A` in the `X-Link-Auth` header (base64url) to get the wrapped keys.
 */
import { Type, type Static } from 'typebox';
import { NODE_METADATA_MAX_LENGTH, NODE_WRAPPED_KEY_MAX_LENGTH } from '../constants.js';
import {
  apiObject,
  base64String,
  closedObject,
  CountSchema,
  DateTimeSchema,
  EmailSchema,
  FileSizeSchema,
} from './common.js';
import { NodeIdSchema } from './drive.js';
import { Argon2idParamsSchema } from './password-wrap.js';
import { FileManifestJsonSchema } from './signatures.js';

/** The header that carries `A` (base64url, 43 characters) on every public link call but the first. */
export const LINK_AUTH_HEADER = 'x-link-auth';
/** The header a counted link download answers with; a resumed Range download sends it back. */
export const LINK_DOWNLOAD_HEADER = 'x-link-download';
/** Files one link grants at most. */
export const LINK_MAX_ITEMS = 100;
/** The largest download limit a link may set. */
export const LINK_MAX_DOWNLOADS = 1_000_000;

/** Link and request ids: 16 random bytes as base64url (22 characters), chosen by the client. */
export const LinkIdSchema = Type.String({
  pattern: '^[A-Za-z0-9_-]{21}[AQgw]$',
  minLength: 22,
  maxLength: 22,
  description: 'A link or request id: 16 random bytes, base64url without padding (22 characters).',
});

export const Sha256HexSchema = Type.String({ pattern: '^[0-9a-f]{64}$', minLength: 64, maxLength: 64 });

export const LinkPasswordSchema = closedObject(
  { salt: base64String('Argon2id salt (16 bytes).', 24), kdf: Argon2idParamsSchema },
  {
    description: "What a recipient needs to derive a password link's key: the salt and Argon2id parameters.",
  },
);

export const ExpiresAtSchema = Type.Union([DateTimeSchema, Type.Null()], {
  description: 'null: never expires.',
});
export const MaxDownloadsSchema = Type.Union(
  [Type.Integer({ minimum: 1, maximum: LINK_MAX_DOWNLOADS }), Type.Null()],
  {
    description: 'null: no limit.',
  },
);
const SealedLabelSchema = Type.Union([
  base64String("The label, sealed under the owner's drive key.", 600),
  Type.Null(),
]);
const LinkRecordJsonSchema = Type.String({
  minLength: 2,
  maxLength: 16_384,
  pattern: '^\\{[^\\u0000-\\u001F]*\\}$',
  description: 'JSON text of the link record (signed by the owner).',
});

export const LinkItemSchema = closedObject({
  fileId: NodeIdSchema,
  wrappedKey: base64String('iv(12) || AES-256-GCM(K, iv, aad, file key).', NODE_WRAPPED_KEY_MAX_LENGTH),
  encryptedMetadata: base64String(
    'iv(12) || AES-256-GCM(K, iv, aad, {name, contentType}).',
    NODE_METADATA_MAX_LENGTH,
  ),
});

export const CreateLinkRequestSchema = apiObject(
  'CreateLinkRequest',
  {
    linkId: LinkIdSchema,
    items: Type.Array(LinkItemSchema, { minItems: 1, maxItems: LINK_MAX_ITEMS }),
    expiresAt: ExpiresAtSchema,
    maxDownloads: MaxDownloadsSchema,
    label: SealedLabelSchema,
    authKeyHash: Sha256HexSchema,
    password: Type.Union([LinkPasswordSchema, Type.Null()]),
    linkRecord: LinkRecordJsonSchema,
  },
  'A new share link for one or more of my files. The id is chosen by the client (it is in the AADs and the signed record).',
);
export type CreateLinkRequest = Static<typeof CreateLinkRequestSchema>;

export const LinkIdResponseSchema = apiObject(
  'LinkIdResponse',
  { linkId: LinkIdSchema },
  'The id of the new link or request.',
);
export type LinkIdResponse = Static<typeof LinkIdResponseSchema>;

export const UpdateLinkRequestSchema = apiObject(
  'UpdateLinkRequest',
  {
    expiresAt: Type.Optional(ExpiresAtSchema),
    maxDownloads: Type.Optional(MaxDownloadsSchema),
    label: Type.Optional(SealedLabelSchema),
    linkRecord: Type.Optional(LinkRecordJsonSchema),
  },
  'Change a link: a new expiry or download limit comes with a new signed link record.',
);
export type UpdateLinkRequest = Static<typeof UpdateLinkRequestSchema>;

export const LinkIdParamsSchema = apiObject(
  'LinkIdParams',
  { linkId: LinkIdSchema },
  'A link or request id in the path.',
);
export type LinkIdParams = Static<typeof LinkIdParamsSchema>;

export const LinkFileParamsSchema = apiObject(
  'LinkFileParams',
  { linkId: LinkIdSchema, fileId: NodeIdSchema },
  'A file of a link in the path.',
);
export type LinkFileParams = Static<typeof LinkFileParamsSchema>;

export const LinksQuerySchema = apiObject(
  'LinksQuery',
  { fileId: Type.Optional(NodeIdSchema) },
  'Only the links of this file.',
);
export type LinksQuery = Static<typeof LinksQuerySchema>;

/** A link's state: `active`, or why it no longer serves anything. */
export const LinkStateSchema = Type.Enum(['active', 'expired', 'exhausted', 'empty'], {
  description: 'Whether a link serves its files, or why not.',
});
export type LinkState = Static<typeof LinkStateSchema>;

export const OwnerLinkSchema = apiObject(
  'OwnerLink',
  {
    linkId: LinkIdSchema,
    state: LinkStateSchema,
    fileIds: Type.Array(NodeIdSchema),
    label: SealedLabelSchema,
    hasPassword: Type.Boolean(),
    expiresAt: ExpiresAtSchema,
    maxDownloads: MaxDownloadsSchema,
    downloadsUsed: CountSchema,
    downloadsLeft: Type.Union([CountSchema, Type.Null()]),
    linkRecord: LinkRecordJsonSchema,
    createdAt: DateTimeSchema,
    lastUsedAt: Type.Union([DateTimeSchema, Type.Null()]),
  },
  'One of my share links.',
);
export type OwnerLink = Static<typeof OwnerLinkSchema>;

export const PublicLinkInfoSchema = apiObject(
  'PublicLinkInfo',
  { password: Type.Union([LinkPasswordSchema, Type.Null()]) },
  'What a link page needs to derive A. Unknown, expired, revoked, exhausted: 404 LINK_UNAVAILABLE.',
);
export type PublicLinkInfo = Static<typeof PublicLinkInfoSchema>;

export const OpenedLinkItemSchema = closedObject({
  fileId: NodeIdSchema,
  size: FileSizeSchema,
  wrappedKey: Type.String(),
  encryptedMetadata: Type.String(),
  manifestJson: Type.Optional(FileManifestJsonSchema),
});

export const OpenedLinkSchema = apiObject(
  'OpenedLink',
  {
    items: Type.Array(OpenedLinkItemSchema),
    ownerEmail: EmailSchema,
    ownerSigningPublicKey: Type.Union([Type.String(), Type.Null()]),
    ownerKeyBinding: Type.Union([Type.String(), Type.Null()]),
    expiresAt: ExpiresAtSchema,
    maxDownloads: MaxDownloadsSchema,
    downloadsLeft: Type.Union([CountSchema, Type.Null()]),
    linkRecord: LinkRecordJsonSchema,
  },
  'What a link grants, for a caller that proved A (X-Link-Auth).',
);
export type OpenedLink = Static<typeof OpenedLinkSchema>;
