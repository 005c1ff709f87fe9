/**
 * The encrypted drive (issue 31, docs/key-hierarchy.md): node places, wrapped keys, encrypted
 * metadata and signed node records of files and folders, folders and folder shares. The server
 * stores these as sent and checks only their shapes and sizes; it holds no key that opens them.
 */
import { Type, type Static } from 'typebox';
import {
  NODE_BATCH_MAX_FILES,
  NODE_METADATA_MAX_LENGTH,
  NODE_RECORD_MAX_LENGTH,
  NODE_WRAPPED_KEY_MAX_LENGTH,
} from '../constants.js';
import {
  apiObject,
  base64String,
  DateTimeSchema,
  EmailSchema,
  EncryptedFileKeySchema,
  FileSizeSchema,
  IdSchema,
  jsonObjectText,
} from './common.js';
import { DriveKeyRecordJsonSchema, FileManifestJsonSchema, ShareGrantJsonSchema } from './signatures.js';
import { FileShareSchema } from './shares.js';

/** A node id: a lower-case UUID the client chose before anything was signed or uploaded. */
export const NODE_ID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

export const NodeIdSchema = Type.String({
  pattern: NODE_ID_PATTERN,
  minLength: 36,
  maxLength: 36,
  description: 'A node id: a lower-case UUID chosen by the client.',
});

/** The parent folder's node id; null at the top of the drive (`drive` in AADs and node records). */
export const ParentNodeIdSchema = Type.Union([NodeIdSchema, Type.Null()], {
  description: "The parent folder's node id; null at the top of My Files.",
});

export const WrappedNodeKeySchema = base64String(
  "iv(12) || AES-256-GCM(parent's key, iv, aad, node key): the node's key wrapped under its parent.",
  NODE_WRAPPED_KEY_MAX_LENGTH,
);

export const EncryptedMetadataSchema = base64String(
  "iv(12) || AES-256-GCM(node key, iv, aad, JSON {name, contentType?}): the node's sealed metadata.",
  NODE_METADATA_MAX_LENGTH,
);

export const NodeRecordJsonSchema = jsonObjectText(
  'JSON text of the node record (signed by the owner).',
  NODE_RECORD_MAX_LENGTH,
);

export const FolderGrantJsonSchema = jsonObjectText(
  'JSON text of the folder grant (signed by the owner).',
  2048,
);

/** What places a node and makes it readable: the same members for files and folders. */
const nodeFields = {
  nodeId: NodeIdSchema,
  parentNodeId: ParentNodeIdSchema,
  wrappedKey: WrappedNodeKeySchema,
  encryptedMetadata: EncryptedMetadataSchema,
  nodeRecord: NodeRecordJsonSchema,
};

/** The node members a file answer carries when the file has them (all or none). */
export const fileNodeAnswerFields = {
  nodeId: Type.Optional(NodeIdSchema),
  parentNodeId: Type.Optional(ParentNodeIdSchema),
  wrappedKey: Type.Optional(WrappedNodeKeySchema),
  encryptedMetadata: Type.Optional(EncryptedMetadataSchema),
  nodeRecord: Type.Optional(NodeRecordJsonSchema),
};

/**
 * A file's node: set with an upload (`node`), or later by PUT /users/files/{id}/node. Once a file has
 * a node id it keeps it (wraps and records name it); its place and metadata may change.
 */
export const FileNodeSchema = apiObject(
  'FileNode',
  nodeFields,
  "A file's place in the drive, its key wrapped under the parent, its sealed metadata and record.",
);
export type FileNode = Static<typeof FileNodeSchema>;

/** One share's grant signed again over the file's new manifest. */
export const ResignedShareGrantSchema = apiObject(
  'ResignedShareGrant',
  { email: EmailSchema, shareGrant: ShareGrantJsonSchema },
  "A share's grant, signed again by the owner over the file's new manifest; `email` is the share's recipient.",
);
export type ResignedShareGrant = Static<typeof ResignedShareGrantSchema>;

/** Most shares of one file whose grants one node change signs again. */
export const RESIGNED_GRANTS_MAX = 1000;

/**
 * What a node change carries when the file's manifest is signed again (issue 31): the migration of a
 * clear name, and a rename of a file whose version 2 manifest signs its sealed metadata. `manifest`
 * must be a version 2 manifest of this very file (its owner key, size and layout) naming the change's
 * `encryptedMetadata`; `shareGrants` then holds a grant over it for every share that has a grant. The
 * server replaces the manifest, the grants and the clear name together, or nothing.
 */
const resignedManifestFields = {
  manifest: Type.Optional(FileManifestJsonSchema),
  shareGrants: Type.Optional(Type.Array(ResignedShareGrantSchema, { maxItems: RESIGNED_GRANTS_MAX })),
};

/** PUT /users/files/{id}/node: the node, and the manifest and grants signed again when they change. */
export const FileNodeChangeSchema = apiObject(
  'FileNodeChange',
  { ...nodeFields, ...resignedManifestFields },
  "A file's new place or sealed metadata; with its version 2 manifest and grants signed again when the metadata changes.",
);
export type FileNodeChange = Static<typeof FileNodeChangeSchema>;

export const FileNodesItemSchema = apiObject(
  'FileNodesItem',
  { fileId: IdSchema, ...nodeFields, ...resignedManifestFields },
  'One file of POST /users/files/nodes, with its version 2 manifest and grants when it has a manifest.',
);
export type FileNodesItem = Static<typeof FileNodesItemSchema>;

export const FileNodesRequestSchema = apiObject(
  'FileNodesRequest',
  { files: Type.Array(FileNodesItemSchema, { minItems: 1, maxItems: NODE_BATCH_MAX_FILES }) },
  'Place many files at once (the migration of clear names): all or none.',
);
export type FileNodesRequest = Static<typeof FileNodesRequestSchema>;

// --- Folders ---------------------------------------------------------------------------------------

export const FolderSchema = apiObject(
  'Folder',
  { ...nodeFields, createdAt: DateTimeSchema, updatedAt: DateTimeSchema },
  'A folder: its place, its key wrapped under the parent, its sealed name and its signed record.',
);
export type Folder = Static<typeof FolderSchema>;

export const FoldersResponseSchema = apiObject(
  'FoldersResponse',
  { folders: Type.Array(FolderSchema) },
  'Answer of GET /users/folders: every folder of mine, oldest first.',
);
export type FoldersResponse = Static<typeof FoldersResponseSchema>;

export const CreateFolderRequestSchema = apiObject('CreateFolderRequest', nodeFields, 'Create a folder.');
export type CreateFolderRequest = Static<typeof CreateFolderRequestSchema>;

/** A rename sends new metadata and record; a move a new parent, wrap and record too. */
export const UpdateFolderRequestSchema = apiObject(
  'UpdateFolderRequest',
  {
    parentNodeId: ParentNodeIdSchema,
    wrappedKey: WrappedNodeKeySchema,
    encryptedMetadata: EncryptedMetadataSchema,
    nodeRecord: NodeRecordJsonSchema,
  },
  'Rename or move a folder: its place, wrap, metadata and record, replaced together.',
);
export type UpdateFolderRequest = Static<typeof UpdateFolderRequestSchema>;

export const NodeIdParamsSchema = apiObject(
  'NodeIdParams',
  { nodeId: NodeIdSchema },
  'A node id in the path.',
);
export type NodeIdParams = Static<typeof NodeIdParamsSchema>;

export const FolderShareParamsSchema = apiObject(
  'FolderShareParams',
  { nodeId: NodeIdSchema, email: EmailSchema },
  "A folder's node id and the recipient's email (URL-encoded) in the path.",
);
export type FolderShareParams = Static<typeof FolderShareParamsSchema>;

export const SharedFolderFileParamsSchema = apiObject(
  'SharedFolderFileParams',
  { nodeId: NodeIdSchema, fileId: IdSchema },
  'A folder shared with me and a file below it, in the path.',
);
export type SharedFolderFileParams = Static<typeof SharedFolderFileParamsSchema>;

// --- Folder shares ---------------------------------------------------------------------------------

export const ShareFolderRequestSchema = apiObject(
  'ShareFolderRequest',
  {
    email: EmailSchema,
    encryptedFolderKey: EncryptedFileKeySchema,
    /** The recipient's key id that wrapped the folder key. */
    keyVersion: IdSchema,
    grantJson: FolderGrantJsonSchema,
  },
  "Share a folder: its key wrapped with the recipient's public key, and the signed folder grant.",
);
export type ShareFolderRequest = Static<typeof ShareFolderRequestSchema>;

export const FolderSharesResponseSchema = apiObject(
  'FolderSharesResponse',
  { shares: Type.Array(FileShareSchema) },
  'Answer of GET /users/folders/{nodeId}/shares.',
);
export type FolderSharesResponse = Static<typeof FolderSharesResponseSchema>;

export const SharedFolderItemSchema = apiObject(
  'SharedFolderItem',
  {
    nodeId: NodeIdSchema,
    owner: EmailSchema,
    encryptedFolderKey: EncryptedFileKeySchema,
    keyVersion: IdSchema,
    grantJson: FolderGrantJsonSchema,
    /** The folder's own sealed name (under the folder key) and record. */
    encryptedMetadata: EncryptedMetadataSchema,
    nodeRecord: NodeRecordJsonSchema,
    sharedAt: DateTimeSchema,
  },
  'A folder shared with me: my copy of its key, the grant, its sealed name.',
);
export type SharedFolderItem = Static<typeof SharedFolderItemSchema>;

export const SharedFoldersResponseSchema = apiObject(
  'SharedFoldersResponse',
  { folders: Type.Array(SharedFolderItemSchema) },
  'Answer of GET /users/folders/shared, newest share first.',
);
export type SharedFoldersResponse = Static<typeof SharedFoldersResponseSchema>;

export const SharedFolderFileSchema = apiObject(
  'SharedFolderFile',
  {
    fileId: IdSchema,
    ...nodeFields,
    size: FileSizeSchema,
    uploadedAt: DateTimeSchema,
    manifest: Type.Optional(FileManifestJsonSchema),
  },
  'A file below a folder shared with me; its key is wrapped under its folder.',
);
export type SharedFolderFile = Static<typeof SharedFolderFileSchema>;

export const SharedFolderNodesResponseSchema = apiObject(
  'SharedFolderNodesResponse',
  {
    folder: FolderSchema,
    folders: Type.Array(FolderSchema),
    files: Type.Array(SharedFolderFileSchema),
  },
  'Answer of GET /users/folders/shared/{nodeId}/nodes: the shared folder, and every folder and file below it.',
);
export type SharedFolderNodesResponse = Static<typeof SharedFolderNodesResponseSchema>;

// --- Drive key -------------------------------------------------------------------------------------

export const PutDriveKeyRequestSchema = apiObject(
  'PutDriveKeyRequest',
  {
    wrappedDriveKey: base64String(
      "base64(RSA-OAEP(the key record's public key, drive key)).",
      NODE_WRAPPED_KEY_MAX_LENGTH,
    ),
    /** The user's signature on this wrap (JSON text of a DriveKeyRecord); clients refuse a wrap without it. */
    driveKeyRecord: DriveKeyRecordJsonSchema,
  },
  'Give a key record its wrapped drive key and its signed record (once).',
);
export type PutDriveKeyRequest = Static<typeof PutDriveKeyRequestSchema>;
