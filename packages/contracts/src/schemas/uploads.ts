import { Type, type Static } from 'typebox';
import { DIRECT_UPLOAD_THRESHOLD, MAX_PARTS, uploadRecordStatuses } from '../constants.js';
import {
  ContentTypeSchema,
  CountSchema,
  DateTimeSchema,
  EtagSchema,
  FileNameSchema,
  FileSizeSchema,
  ObjectKeySchema,
  PartNumberSchema,
  UploadIdSchema,
} from './common.js';
import { EncryptionInfoSchema, NewEncryptionInfoSchema } from './files.js';
import { FileManifestJsonSchema } from './signatures.js';

/** See `uploadRecordStatuses` for what each status means. */
export const UploadStatusSchema = Type.Enum(uploadRecordStatuses, {
  description: 'Server-side upload status.',
});

export const UploadItemSchema = Type.Object(
  {
    uploadId: UploadIdSchema,
    fileName: FileNameSchema,
    contentType: ContentTypeSchema,
    isEncrypted: Type.Boolean(),
    size: FileSizeSchema,
    createdAt: DateTimeSchema,
    userId: Type.String({ minLength: 1, maxLength: 255 }),
    status: UploadStatusSchema,
    parts: Type.Integer({ minimum: 1, maximum: MAX_PARTS, description: 'Number of parts declared.' }),
    completedParts: Type.Integer({ minimum: 0, maximum: MAX_PARTS, description: 'Parts received so far.' }),
    encryptionInfo: EncryptionInfoSchema,
    objectKey: ObjectKeySchema,
  },
  { additionalProperties: false, title: 'UploadItem', description: 'A recent upload of mine.' },
);
export type UploadItem = Static<typeof UploadItemSchema>;

export const UploadsResponseSchema = Type.Object(
  { uploads: Type.Array(UploadItemSchema), count: CountSchema },
  { additionalProperties: false, title: 'UploadsResponse', description: 'Answer of GET /users/uploads.' },
);
export type UploadsResponse = Static<typeof UploadsResponseSchema>;

/** One part the server holds for an unfinished multipart upload. */
export const HeldPartSchema = Type.Object(
  {
    partNumber: PartNumberSchema,
    size: Type.Integer({ minimum: 0, description: 'Bytes of the stored part (one encrypted chunk).' }),
    etag: EtagSchema,
  },
  { additionalProperties: false, title: 'HeldPart', description: 'A part received and stored.' },
);
export type HeldPart = Static<typeof HeldPartSchema>;

/**
 * One of my unfinished multipart uploads as the server holds it, for resuming it: the parts it has
 * and the upload's encryption info (with the owner-wrapped file key). Only pending uploads that have
 * not expired are answered; any other id is answered 404.
 */
export const MultipartUploadStateSchema = Type.Object(
  {
    uploadId: UploadIdSchema,
    objectKey: ObjectKeySchema,
    fileName: FileNameSchema,
    contentType: ContentTypeSchema,
    size: FileSizeSchema,
    createdAt: DateTimeSchema,
    parts: Type.Integer({ minimum: 1, maximum: MAX_PARTS, description: 'Number of parts declared.' }),
    heldParts: Type.Array(HeldPartSchema, {
      maxItems: MAX_PARTS,
      description: 'Parts received so far, by ascending part number.',
    }),
    encryptionInfo: EncryptionInfoSchema,
  },
  {
    additionalProperties: false,
    title: 'MultipartUploadState',
    description: 'Answer of GET /users/uploads/multipart/{uploadId}: what an unfinished upload holds.',
  },
);
export type MultipartUploadState = Static<typeof MultipartUploadStateSchema>;

/**
 * Start a multipart upload. Only encrypted uploads are accepted (the server never stores
 * plaintext), and `parts` must equal chunkCountFor(size), which the server checks.
 */
export const CreateMultipartUploadRequestSchema = Type.Object(
  {
    name: FileNameSchema,
    contentType: ContentTypeSchema,
    size: FileSizeSchema,
    parts: Type.Integer({ minimum: 1, maximum: MAX_PARTS }),
    isEncrypted: Type.Literal(true),
    encryptionInfo: NewEncryptionInfoSchema,
    /** The owner's signed manifest of this file (optional for older clients). */
    manifest: Type.Optional(FileManifestJsonSchema),
  },
  {
    additionalProperties: false,
    title: 'CreateMultipartUploadRequest',
    description: 'Declare a file to upload in parts; part n is encrypted chunk n-1.',
  },
);
export type CreateMultipartUploadRequest = Static<typeof CreateMultipartUploadRequestSchema>;

export const CreateMultipartUploadResponseSchema = Type.Object(
  { uploadId: UploadIdSchema, objectKey: ObjectKeySchema },
  {
    additionalProperties: false,
    title: 'CreateMultipartUploadResponse',
    description: 'Identifies the upload in the part, complete and abort calls.',
  },
);
export type CreateMultipartUploadResponse = Static<typeof CreateMultipartUploadResponseSchema>;

export const UploadIdParamsSchema = Type.Object(
  { uploadId: UploadIdSchema },
  { additionalProperties: false, title: 'UploadIdParams', description: 'A multipart upload id in the path.' },
);
export type UploadIdParams = Static<typeof UploadIdParamsSchema>;

export const UploadPartParamsSchema = Type.Object(
  { uploadId: UploadIdSchema, n: PartNumberSchema },
  {
    additionalProperties: false,
    title: 'UploadPartParams',
    description: 'Upload id and part number (1..10000) in the path.',
  },
);
export type UploadPartParams = Static<typeof UploadPartParamsSchema>;

export const UploadPartQuerySchema = Type.Object(
  { objectKey: ObjectKeySchema },
  {
    additionalProperties: false,
    title: 'UploadPartQuery',
    description: 'The objectKey returned by the create call.',
  },
);
export type UploadPartQuery = Static<typeof UploadPartQuerySchema>;

export const UploadPartResponseSchema = Type.Object(
  { etag: EtagSchema },
  { additionalProperties: false, title: 'UploadPartResponse', description: 'The ETag of the stored part.' },
);
export type UploadPartResponse = Static<typeof UploadPartResponseSchema>;

export const CompletedPartSchema = Type.Object(
  { partNumber: PartNumberSchema, etag: EtagSchema },
  { additionalProperties: false, title: 'CompletedPart' },
);
export type CompletedPart = Static<typeof CompletedPartSchema>;

/** Parts must be listed once each, in ascending order, all of them: the server checks. */
export const CompleteMultipartUploadRequestSchema = Type.Object(
  {
    uploadId: UploadIdSchema,
    objectKey: ObjectKeySchema,
    parts: Type.Array(CompletedPartSchema, { minItems: 1, maxItems: MAX_PARTS }),
  },
  {
    additionalProperties: false,
    title: 'CompleteMultipartUploadRequest',
    description: 'Finish a multipart upload; answered with the new file list item.',
  },
);
export type CompleteMultipartUploadRequest = Static<typeof CompleteMultipartUploadRequestSchema>;

/** Decimal digits without leading zeros, as multipart form fields carry numbers. */
export const DECIMAL_PATTERN = '^(?:0|[1-9][0-9]{0,15})$';

/**
 * The text fields of POST /users/uploads/direct (multipart/form-data, next to the `file`
 * part holding the encrypted object). Form fields are strings: validate them with this,
 * then parse `size` and `encryptionInfo` and validate the result with DirectUploadMetadataSchema.
 */
export const DirectUploadFieldsSchema = Type.Object(
  {
    name: FileNameSchema,
    contentType: ContentTypeSchema,
    size: Type.String({ pattern: DECIMAL_PATTERN, description: 'Plaintext size in bytes.' }),
    isEncrypted: Type.Literal('true'),
    encryptionInfo: Type.String({ minLength: 2, maxLength: 4096, description: 'NewEncryptionInfo as JSON.' }),
    manifest: Type.Optional(FileManifestJsonSchema),
  },
  {
    additionalProperties: false,
    title: 'DirectUploadFields',
    description: 'Form fields of a direct upload (files up to 100 MB).',
  },
);
export type DirectUploadFields = Static<typeof DirectUploadFieldsSchema>;

export const DirectUploadMetadataSchema = Type.Object(
  {
    name: FileNameSchema,
    contentType: ContentTypeSchema,
    size: Type.Integer({ minimum: 0, maximum: DIRECT_UPLOAD_THRESHOLD }),
    isEncrypted: Type.Literal(true),
    encryptionInfo: NewEncryptionInfoSchema,
    manifest: Type.Optional(FileManifestJsonSchema),
  },
  {
    additionalProperties: false,
    title: 'DirectUploadMetadata',
    description: 'The parsed form fields of a direct upload.',
  },
);
export type DirectUploadMetadata = Static<typeof DirectUploadMetadataSchema>;
