import { Type, type Static } from 'typebox';
import { DIRECT_UPLOAD_THRESHOLD, MAX_PARTS, uploadRecordStatuses } from '../constants.js';
import {
  apiObject,
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
import { fileNodeAnswerFields, FileNodeSchema } from './drive.js';
import { EncryptionInfoSchema, NewEncryptionInfoSchema } from './files.js';
import { RequestFileMetadataSchema } from './requests.js';
import { FileManifestJsonSchema } from './signatures.js';

/** See `uploadRecordStatuses` for what each status means. */
export const UploadStatusSchema = Type.Enum(uploadRecordStatuses, {
  description: 'Server-side upload status.',
});

const DeclaredPartsSchema = Type.Integer({
  minimum: 1,
  maximum: MAX_PARTS,
  description: 'Number of parts declared.',
});

/** What a new upload sends after its size (and part count): only encrypted uploads are accepted. */
const newEncryptedUploadFields = {
  isEncrypted: Type.Literal(true),
  encryptionInfo: NewEncryptionInfoSchema,
  /** The owner's signed manifest of this file (optional for older clients). */
  manifest: Type.Optional(FileManifestJsonSchema),
  /** The file's node (issue 31): with it, the server stores the name 'encrypted' and no content type. */
  node: Type.Optional(FileNodeSchema),
  /** File request uploads only (issue 30): the name sealed by the uploader; the name sent is then 'encrypted'. */
  sealedMetadata: Type.Optional(RequestFileMetadataSchema),
};

export const UploadItemSchema = apiObject(
  'UploadItem',
  {
    uploadId: UploadIdSchema,
    fileName: FileNameSchema,
    contentType: ContentTypeSchema,
    isEncrypted: Type.Boolean(),
    size: FileSizeSchema,
    createdAt: DateTimeSchema,
    userId: Type.String({ minLength: 1, maxLength: 255 }),
    status: UploadStatusSchema,
    parts: DeclaredPartsSchema,
    completedParts: Type.Integer({ minimum: 0, maximum: MAX_PARTS, description: 'Parts received so far.' }),
    encryptionInfo: EncryptionInfoSchema,
    objectKey: ObjectKeySchema,
    /**
     * The upload's node when it was sent with one (issue 31): `fileName` is then `encrypted`, and the
     * browser opens the name from `encryptedMetadata` (with the file key of `encryptionInfo`, or the
     * wrap under the parent). A file request's upload has only `nodeId` and `encryptedMetadata`.
     */
    ...fileNodeAnswerFields,
  },
  'A recent upload of mine.',
);
export type UploadItem = Static<typeof UploadItemSchema>;

export const UploadsResponseSchema = apiObject(
  'UploadsResponse',
  { uploads: Type.Array(UploadItemSchema), count: CountSchema },
  'Answer of GET /users/uploads.',
);
export type UploadsResponse = Static<typeof UploadsResponseSchema>;

/** One part the server holds for an unfinished multipart upload. */
export const HeldPartSchema = apiObject(
  'HeldPart',
  {
    partNumber: PartNumberSchema,
    size: Type.Integer({ minimum: 0, description: 'Bytes of the stored part (one encrypted chunk).' }),
    etag: EtagSchema,
  },
  'A part received and stored.',
);
export type HeldPart = Static<typeof HeldPartSchema>;

/**
 * One of my unfinished multipart uploads as the server holds it, for resuming it: the parts it has
 * and the upload's encryption info (with the owner-wrapped file key). Only pending uploads that have
 * not expired are answered; any other id is answered 404.
 */
export const MultipartUploadStateSchema = apiObject(
  'MultipartUploadState',
  {
    uploadId: UploadIdSchema,
    objectKey: ObjectKeySchema,
    fileName: FileNameSchema,
    contentType: ContentTypeSchema,
    size: FileSizeSchema,
    createdAt: DateTimeSchema,
    parts: DeclaredPartsSchema,
    heldParts: Type.Array(HeldPartSchema, {
      maxItems: MAX_PARTS,
      description: 'Parts received so far, by ascending part number.',
    }),
    encryptionInfo: EncryptionInfoSchema,
  },
  'Answer of GET /users/uploads/multipart/{uploadId}: what an unfinished upload holds.',
);
export type MultipartUploadState = Static<typeof MultipartUploadStateSchema>;

/**
 * Start a multipart upload. Only encrypted uploads are accepted (the server never stores
 * plaintext), and `parts` must equal chunkCountFor(size), which the server checks.
 */
export const CreateMultipartUploadRequestSchema = apiObject(
  'CreateMultipartUploadRequest',
  {
    name: FileNameSchema,
    contentType: ContentTypeSchema,
    size: FileSizeSchema,
    parts: Type.Integer({ minimum: 1, maximum: MAX_PARTS }),
    ...newEncryptedUploadFields,
  },
  'Declare a file to upload in parts; part n is encrypted chunk n-1.',
);
export type CreateMultipartUploadRequest = Static<typeof CreateMultipartUploadRequestSchema>;

export const CreateMultipartUploadResponseSchema = apiObject(
  'CreateMultipartUploadResponse',
  { uploadId: UploadIdSchema, objectKey: ObjectKeySchema },
  'Identifies the upload in the part, complete and abort calls.',
);
export type CreateMultipartUploadResponse = Static<typeof CreateMultipartUploadResponseSchema>;

export const UploadIdParamsSchema = apiObject(
  'UploadIdParams',
  { uploadId: UploadIdSchema },
  'A multipart upload id in the path.',
);
export type UploadIdParams = Static<typeof UploadIdParamsSchema>;

export const UploadPartParamsSchema = apiObject(
  'UploadPartParams',
  { uploadId: UploadIdSchema, n: PartNumberSchema },
  'Upload id and part number (1..10000) in the path.',
);
export type UploadPartParams = Static<typeof UploadPartParamsSchema>;

export const UploadPartQuerySchema = apiObject(
  'UploadPartQuery',
  { objectKey: ObjectKeySchema },
  'The objectKey returned by the create call.',
);
export type UploadPartQuery = Static<typeof UploadPartQuerySchema>;

export const UploadPartResponseSchema = apiObject(
  'UploadPartResponse',
  { etag: EtagSchema },
  'The ETag of the stored part.',
);
export type UploadPartResponse = Static<typeof UploadPartResponseSchema>;

export const CompletedPartSchema = apiObject('CompletedPart', {
  partNumber: PartNumberSchema,
  etag: EtagSchema,
});
export type CompletedPart = Static<typeof CompletedPartSchema>;

/** Parts must be listed once each, in ascending order, all of them: the server checks. */
export const CompleteMultipartUploadRequestSchema = apiObject(
  'CompleteMultipartUploadRequest',
  {
    uploadId: UploadIdSchema,
    objectKey: ObjectKeySchema,
    parts: Type.Array(CompletedPartSchema, { minItems: 1, maxItems: MAX_PARTS }),
  },
  'Finish a multipart upload; answered with the new file list item.',
);
export type CompleteMultipartUploadRequest = Static<typeof CompleteMultipartUploadRequestSchema>;

/** Decimal digits without leading zeros, as multipart form fields carry numbers. */
export const DECIMAL_PATTERN = '^(?:0|[1-9][0-9]{0,15})$';

/**
 * The text fields of POST /users/uploads/direct (multipart/form-data, next to the `file`
 * part holding the encrypted object). Form fields are strings: validate them with this,
 * then parse `size` and `encryptionInfo` and validate the result with DirectUploadMetadataSchema.
 */
export const DirectUploadFieldsSchema = apiObject(
  'DirectUploadFields',
  {
    name: FileNameSchema,
    contentType: ContentTypeSchema,
    size: Type.String({ pattern: DECIMAL_PATTERN, description: 'Plaintext size in bytes.' }),
    isEncrypted: Type.Literal('true'),
    encryptionInfo: Type.String({ minLength: 2, maxLength: 4096, description: 'NewEncryptionInfo as JSON.' }),
    manifest: Type.Optional(FileManifestJsonSchema),
    node: Type.Optional(
      Type.String({ minLength: 2, maxLength: 12_288, description: 'FileNode as JSON (issue 31).' }),
    ),
    sealedMetadata: Type.Optional(
      Type.String({
        minLength: 2,
        maxLength: 6144,
        description: 'RequestFileMetadata as JSON (file request uploads only, issue 30).',
      }),
    ),
  },
  'Form fields of a direct upload (files up to 100 MB).',
);
export type DirectUploadFields = Static<typeof DirectUploadFieldsSchema>;

export const DirectUploadMetadataSchema = apiObject(
  'DirectUploadMetadata',
  {
    name: FileNameSchema,
    contentType: ContentTypeSchema,
    size: Type.Integer({ minimum: 0, maximum: DIRECT_UPLOAD_THRESHOLD }),
    ...newEncryptedUploadFields,
  },
  'The parsed form fields of a direct upload.',
);
export type DirectUploadMetadata = Static<typeof DirectUploadMetadataSchema>;
