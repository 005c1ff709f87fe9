import { Type, type Static } from 'typebox';
import { NAME_MAX_LENGTH, SHARE_BATCH_MAX_FILES } from '../constants.js';
import { EmailSchema, EncryptedFileKeySchema, IdSchema } from './common.js';
import { ShareGrantJsonSchema } from './signatures.js';

/** Who may view a file. `name` is the owner's name for that contact ('' when not a contact). */
export const FileShareSchema = Type.Object(
  { email: EmailSchema, name: Type.String({ maxLength: NAME_MAX_LENGTH }) },
  { additionalProperties: false, title: 'FileShare', description: 'A recipient of a file.' },
);
export type FileShare = Static<typeof FileShareSchema>;

export const FileSharesResponseSchema = Type.Object(
  { shares: Type.Array(FileShareSchema) },
  {
    additionalProperties: false,
    title: 'FileSharesResponse',
    description: 'Answer of GET /users/files/:id/shares.',
  },
);
export type FileSharesResponse = Static<typeof FileSharesResponseSchema>;

export const ShareFileRequestSchema = Type.Object(
  {
    email: EmailSchema,
    encryptedFileKey: EncryptedFileKeySchema,
    /** The recipient's key id that wrapped the file key. */
    keyVersion: IdSchema,
    /** The owner's signature over what the recipient receives (optional for older clients). */
    shareGrant: Type.Optional(ShareGrantJsonSchema),
  },
  {
    additionalProperties: false,
    title: 'ShareFileRequest',
    description: "Share a file: its key wrapped with the recipient's public key.",
  },
);
export type ShareFileRequest = Static<typeof ShareFileRequestSchema>;

/** One file of a share action: its key wrapped with the recipient's public key. */
export const ShareFilesItemSchema = Type.Object(
  {
    fileId: IdSchema,
    encryptedFileKey: EncryptedFileKeySchema,
    /** The recipient's key id that wrapped the file key. */
    keyVersion: IdSchema,
    shareGrant: Type.Optional(ShareGrantJsonSchema),
  },
  { additionalProperties: false, title: 'ShareFilesItem', description: 'One file of a share action.' },
);
export type ShareFilesItem = Static<typeof ShareFilesItemSchema>;

export const ShareFilesRequestSchema = Type.Object(
  {
    email: EmailSchema,
    files: Type.Array(ShareFilesItemSchema, { minItems: 1, maxItems: SHARE_BATCH_MAX_FILES }),
  },
  {
    additionalProperties: false,
    title: 'ShareFilesRequest',
    description:
      'Share several files with one person in one action: all or none, and one notification mail that tells how many.',
  },
);
export type ShareFilesRequest = Static<typeof ShareFilesRequestSchema>;

export const ShareParamsSchema = Type.Object(
  { id: IdSchema, email: EmailSchema },
  {
    additionalProperties: false,
    title: 'ShareParams',
    description: "A file id and the recipient's email (URL-encoded) in the path.",
  },
);
export type ShareParams = Static<typeof ShareParamsSchema>;
