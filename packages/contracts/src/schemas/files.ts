import { Type, type Static } from 'typebox';
import { CHUNK_SIZE, ENCRYPTION_ALGORITHM, ENCRYPTION_FORMAT } from '../constants.js';
import {
  apiObject,
  closedObject,
  ContentTypeSchema,
  DateTimeSchema,
  EmailSchema,
  EncryptedFileKeySchema,
  FileNameSchema,
  FileSizeSchema,
  IdSchema,
  BASE64_PATTERN,
  CountSchema,
  CursorSchema,
} from './common.js';
import { fileNodeAnswerFields, ResignedShareGrantSchema } from './drive.js';
import { FileManifestJsonSchema, ShareGrantJsonSchema } from './signatures.js';

/**
 * Encryption info as stored and answered. `format` and `chunkSize` are absent on records
 * written before coffer-v1; `iv` is '' for coffer-v1 (every chunk carries its own IV).
 */
export const EncryptionInfoSchema = apiObject(
  'EncryptionInfo',
  {
    version: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'Id of the key that wraps the file key.',
    }),
    algorithm: Type.Literal(ENCRYPTION_ALGORITHM),
    iv: Type.String({ pattern: BASE64_PATTERN, maxLength: 64, description: "'' for coffer-v1." }),
    encryptedFileKey: EncryptedFileKeySchema,
    format: Type.Optional(Type.Literal(ENCRYPTION_FORMAT)),
    chunkSize: Type.Optional(Type.Integer({ minimum: 1, maximum: CHUNK_SIZE })),
  },
  "The owner's wrapped file key and the content format of a stored file.",
);
export type EncryptionInfo = Static<typeof EncryptionInfoSchema>;

/**
 * Encryption info of a new upload: coffer-v1 only, every field pinned. `format` and `chunkSize` may
 * be left out (the spec's shape, section 3, has only version, algorithm, iv and encryptedFileKey):
 * each has one allowed value, which the server stores in their place ({@link completeEncryptionInfo}).
 */
export const NewEncryptionInfoSchema = apiObject(
  'NewEncryptionInfo',
  {
    version: IdSchema,
    algorithm: Type.Literal(ENCRYPTION_ALGORITHM),
    iv: Type.Literal(''),
    encryptedFileKey: EncryptedFileKeySchema,
    format: Type.Optional(
      Type.Literal(ENCRYPTION_FORMAT, { description: `Optional; absent means '${ENCRYPTION_FORMAT}'.` }),
    ),
    chunkSize: Type.Optional(
      Type.Literal(CHUNK_SIZE, { description: `Optional; absent means ${CHUNK_SIZE}.` }),
    ),
  },
  'coffer-v1 encryption info sent with a new upload; version is the owner key id.',
);
export type NewEncryptionInfo = Static<typeof NewEncryptionInfoSchema>;

/** A new upload's encryption info with `format` and `chunkSize` filled in: what the server stores. */
export function completeEncryptionInfo(
  info: NewEncryptionInfo,
): NewEncryptionInfo & Required<Pick<NewEncryptionInfo, 'format' | 'chunkSize'>> {
  return { ...info, format: ENCRYPTION_FORMAT, chunkSize: CHUNK_SIZE };
}

export const FileListItemSchema = apiObject(
  'FileListItem',
  {
    fileId: IdSchema,
    name: FileNameSchema,
    contentType: ContentTypeSchema,
    isEncrypted: Type.Boolean(),
    size: FileSizeSchema,
    uploadedAt: DateTimeSchema,
    ownerId: Type.String({ minLength: 1, maxLength: 255 }),
    /** A file with encrypted metadata: `name` is 'encrypted', its real name is sealed in `encryptedMetadata`. */
    ...fileNodeAnswerFields,
    clearManifest: Type.Optional(
      Type.Literal(true, {
        description:
          "A placed file whose stored manifest is still version 1 (it names the file in clear), as an older client's migration left it: the owner's browser checks it and signs it again as version 2.",
      }),
    ),
    shared: Type.Optional(
      Type.Literal(true, {
        description:
          'The file is shared with someone; absent: with nobody (a card asks GET /users/files/{id}/shares only when true).',
      }),
    ),
  },
  'One of my files.',
);
export type FileListItem = Static<typeof FileListItemSchema>;

export const FileListResponseSchema = apiObject(
  'FileListResponse',
  {
    files: Type.Array(FileListItemSchema),
    count: CountSchema,
    /** Paged calls only: pass as `cursor` for the next page; absent on the last page. */
    nextCursor: Type.Optional(CursorSchema),
  },
  'Answer of GET /users/files.',
);
export type FileListResponse = Static<typeof FileListResponseSchema>;

/** GET /users/files/:id. `fileId` and `uploadedAt` are ours, beyond the spec's fields. */
export const FileMetadataSchema = apiObject(
  'FileMetadata',
  {
    fileId: IdSchema,
    name: FileNameSchema,
    originalFilename: FileNameSchema,
    contentType: ContentTypeSchema,
    size: FileSizeSchema,
    isEncrypted: Type.Boolean(),
    encryptionInfo: Type.Union([EncryptionInfoSchema, Type.Null()]),
    uploadedAt: DateTimeSchema,
    /** The owner's signed manifest; absent for files uploaded before signing keys. */
    manifest: Type.Optional(FileManifestJsonSchema),
    /**
     * Owner only (GET /users/files/{id}), issue 31: the signed grant of each share of the file that
     * has one, which the owner signs again when the file's manifest changes.
     */
    shareGrants: Type.Optional(Type.Array(ResignedShareGrantSchema)),
    /**
     * Node members (issue 31) when the file has them; a recipient of a file share gets only `nodeId`,
     * `encryptedMetadata` and `nodeRecord` (it opens the metadata with the file key).
     */
    ...fileNodeAnswerFields,
  },
  'Metadata of a file, with the encryption info needed to decrypt it.',
);
export type FileMetadata = Static<typeof FileMetadataSchema>;

export const SharedFileItemSchema = apiObject(
  'SharedFileItem',
  {
    fileId: IdSchema,
    owner: EmailSchema,
    file: closedObject({
      name: FileNameSchema,
      contentType: ContentTypeSchema,
      size: FileSizeSchema,
      uploadedAt: DateTimeSchema,
      isEncrypted: Type.Boolean(),
    }),
  },
  "A file shared with me; owner is the sender's email.",
);
export type SharedFileItem = Static<typeof SharedFileItemSchema>;

export const SharedFilesResponseSchema = apiObject(
  'SharedFilesResponse',
  { files: Type.Array(SharedFileItemSchema), nextCursor: Type.Optional(CursorSchema) },
  'Answer of GET /users/files/shared.',
);
export type SharedFilesResponse = Static<typeof SharedFilesResponseSchema>;

/**
 * GET /users/files/shared/:id. `encryptedFileKey` is the file key wrapped for me (the
 * recipient); `file.encryptionInfo` carries the same key and my key id as `version`, so a
 * client may read the key from either place.
 */
export const SharedFileMetadataSchema = apiObject(
  'SharedFileMetadata',
  {
    file: FileMetadataSchema,
    owner: EmailSchema,
    encryptedFileKey: EncryptedFileKeySchema,
    /** The owner's signed share grant; absent for shares made before signing keys. */
    shareGrant: Type.Optional(ShareGrantJsonSchema),
  },
  'Metadata of a file shared with me, with my wrapped copy of its key.',
);
export type SharedFileMetadata = Static<typeof SharedFileMetadataSchema>;
