/**
 * File requests (issue 30, docs/key-hierarchy.md "File requests"): an upload-only link. Whoever
 * holds its secret proves `A` (X-Link-Auth) and uploads files encrypted to the owner's public key,
 * whose fingerprint the link's fragment carries; the server counts files and bytes atomically
 * against the request's limits and the owner's quota.
 */
import { Type, type Static } from 'typebox';
import {
  apiObject,
  base64String,
  CountSchema,
  DateTimeSchema,
  EmailSchema,
  IdSchema,
  PartNumberSchema,
  UploadIdSchema,
} from './common.js';
import { EncryptedMetadataSchema, NodeIdSchema } from './drive.js';
import { ExpiresAtSchema, LinkIdSchema, OwnerLinkSchema, Sha256HexSchema } from './links.js';

/** Files one request may set as its limit at most. */
export const REQUEST_MAX_FILES = 10_000;

const SealedMessageSchema = Type.Union([
  base64String('The message to uploaders, sealed under the request key K.', 6000),
  Type.Null(),
]);
const MaxBytesSchema = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

export const CreateRequestRequestSchema = apiObject(
  'CreateRequestRequest',
  {
    requestId: LinkIdSchema,
    expiresAt: ExpiresAtSchema,
    maxFiles: Type.Integer({ minimum: 1, maximum: REQUEST_MAX_FILES }),
    maxBytes: MaxBytesSchema,
    message: SealedMessageSchema,
    signedInOnly: Type.Boolean(),
    authKeyHash: Sha256HexSchema,
  },
  'A new file request. The id is chosen by the client (its message is sealed with it in the AAD).',
);
export type CreateRequestRequest = Static<typeof CreateRequestRequestSchema>;

export const UpdateRequestRequestSchema = apiObject(
  'UpdateRequestRequest',
  { closed: Type.Optional(Type.Literal(true)), expiresAt: Type.Optional(ExpiresAtSchema) },
  'Close a request (for good), or change its expiry.',
);
export type UpdateRequestRequest = Static<typeof UpdateRequestRequestSchema>;

export const RequestStateSchema = Type.Enum(['active', 'expired', 'full', 'closed'], {
  description: 'Whether a request takes files, or why not.',
});
export type RequestState = Static<typeof RequestStateSchema>;

export const OwnerRequestSchema = apiObject(
  'OwnerRequest',
  {
    requestId: LinkIdSchema,
    state: RequestStateSchema,
    expiresAt: ExpiresAtSchema,
    maxFiles: CountSchema,
    maxBytes: CountSchema,
    filesUsed: CountSchema,
    bytesUsed: CountSchema,
    message: SealedMessageSchema,
    signedInOnly: Type.Boolean(),
    fileIds: Type.Array(IdSchema),
    /** Files sent by a signed-in person (a signed-in-only request), with their address. */
    senders: Type.Array(
      apiObject(
        'RequestSender',
        { fileId: IdSchema, email: EmailSchema },
        'Who sent one file through a signed-in-only request.',
      ),
    ),
    createdAt: DateTimeSchema,
    lastUsedAt: Type.Union([DateTimeSchema, Type.Null()]),
  },
  'One of my file requests, with the files that came through it.',
);
export type OwnerRequest = Static<typeof OwnerRequestSchema>;

export const LinksResponseSchema = apiObject(
  'LinksResponse',
  { links: Type.Array(OwnerLinkSchema), requests: Type.Array(OwnerRequestSchema) },
  'Answer of GET /users/links: my links and file requests, newest first.',
);
export type LinksResponse = Static<typeof LinksResponseSchema>;

export const PublicRequestSchema = apiObject(
  'PublicRequest',
  {
    ownerEmail: EmailSchema,
    ownerPublicKey: Type.String(),
    ownerKeyId: IdSchema,
    message: SealedMessageSchema,
    expiresAt: ExpiresAtSchema,
    filesLeft: CountSchema,
    bytesLeft: CountSchema,
    signedInOnly: Type.Boolean(),
  },
  'A file request as its uploader sees it, for a caller that proved A (X-Link-Auth).',
);
export type PublicRequest = Static<typeof PublicRequestSchema>;

/**
 * What a file request's upload carries of the file's name: its metadata sealed in the uploader's
 * browser under the file key, as the owner's own uploads seal it (docs/encryption.md section 17),
 * for a node id the uploader chose. No place, wrap or record (the uploader holds no key of the
 * owner's drive): the owner's browser places the file at its next listing. The public upload calls
 * require it and refuse a clear name.
 */
export const RequestFileMetadataSchema = apiObject(
  'RequestFileMetadata',
  { nodeId: NodeIdSchema, encryptedMetadata: EncryptedMetadataSchema },
  "A file request upload's sealed name and type, for the owner's browser to place.",
);
export type RequestFileMetadata = Static<typeof RequestFileMetadataSchema>;

export const RequestUploadParamsSchema = apiObject(
  'RequestUploadParams',
  { linkId: LinkIdSchema, uploadId: UploadIdSchema },
  "A file request's id and one of its uploads in the path.",
);
export type RequestUploadParams = Static<typeof RequestUploadParamsSchema>;

export const RequestPartParamsSchema = apiObject(
  'RequestPartParams',
  { linkId: LinkIdSchema, uploadId: UploadIdSchema, n: PartNumberSchema },
  "A file request's id, one of its uploads and a part number (1..10000) in the path.",
);
export type RequestPartParams = Static<typeof RequestPartParamsSchema>;
