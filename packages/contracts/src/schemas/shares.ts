import { Type, type Static } from 'typebox';
import { NAME_MAX_LENGTH, SHARE_BATCH_MAX_FILES } from '../constants.js';
import { apiObject, EmailSchema, EncryptedFileKeySchema, IdSchema } from './common.js';
import { ShareGrantJsonSchema } from './signatures.js';

/** Who may view a file. `name` is the owner's name for that contact ('' when not a contact). */
export const FileShareSchema = apiObject(
  'FileShare',
  { email: EmailSchema, name: Type.String({ maxLength: NAME_MAX_LENGTH }) },
  'A recipient of a file.',
);
export type FileShare = Static<typeof FileShareSchema>;

export const FileSharesResponseSchema = apiObject(
  'FileSharesResponse',
  { shares: Type.Array(FileShareSchema) },
  'Answer of GET /users/files/:id/shares.',
);
export type FileSharesResponse = Static<typeof FileSharesResponseSchema>;

/** What one file's share carries, in the single-file call and in each item of a share action. */
const wrappedKeyFields = {
  encryptedFileKey: EncryptedFileKeySchema,
  /** The recipient's key id that wrapped the file key. */
  keyVersion: IdSchema,
  /** The owner's signature over what the recipient receives (optional for older clients). */
  shareGrant: Type.Optional(ShareGrantJsonSchema),
};

export const ShareFileRequestSchema = apiObject(
  'ShareFileRequest',
  { email: EmailSchema, ...wrappedKeyFields },
  "Share a file: its key wrapped with the recipient's public key.",
);
export type ShareFileRequest = Static<typeof ShareFileRequestSchema>;

/** One file of a share action: its key wrapped with the recipient's public key. */
export const ShareFilesItemSchema = apiObject(
  'ShareFilesItem',
  { fileId: IdSchema, ...wrappedKeyFields },
  'One file of a share action.',
);
export type ShareFilesItem = Static<typeof ShareFilesItemSchema>;

export const ShareFilesRequestSchema = apiObject(
  'ShareFilesRequest',
  {
    email: EmailSchema,
    files: Type.Array(ShareFilesItemSchema, { minItems: 1, maxItems: SHARE_BATCH_MAX_FILES }),
  },
  'Share several files with one person in one action: all or none, and one notification mail that tells how many.',
);
export type ShareFilesRequest = Static<typeof ShareFilesRequestSchema>;

export const ShareParamsSchema = apiObject(
  'ShareParams',
  { id: IdSchema, email: EmailSchema },
  "A file id and the recipient's email (URL-encoded) in the path.",
);
export type ShareParams = Static<typeof ShareParamsSchema>;
