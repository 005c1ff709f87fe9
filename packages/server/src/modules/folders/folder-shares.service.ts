import type {
  FileShare,
  ShareFolderRequest,
  SharedFolderFile,
  SharedFolderItem,
  SharedFolderNodesResponse,
} from '@coffer/contracts';
import { ErrorCode, NAME_MAX_LENGTH } from '@coffer/contracts';
import { ApiError, NotFoundError } from '../../http/errors.js';
import { isUniqueViolation } from '../../infra/db/errors.js';
import type { FileRow } from '../../infra/db/schema.js';
import { normalizeEmail, nowIso } from '../../infra/db/values.js';
import type { Download, DownloadsService } from '../files/downloads.service.js';
import { fileNotFound } from '../files/downloads.service.js';
import { folderNotFound } from '../files/files.service.js';
import type { KeysRepo } from '../keys/keys.repo.js';
import { SHARE_LIMIT_MESSAGE } from '../shares/shares.service.js';
import type { UsersRepo } from '../users/users.repo.js';
import type { CurrentUser } from '../users/users.service.js';
import type { FolderSharesRepo, ReceivedFolder } from './folder-shares.repo.js';
import { toFolder } from './folders.service.js';

/**
 * Sharing a folder gives one recipient the folder key (RSA-wrapped to their key) with the owner's signed
 * grant. What the recipient reads is computed from the owner's tree at each request: a file added below
 * the folder later is visible at once, and a revoke (or the folder's delete) ends access to the whole tree.
 */
export interface FolderSharesService {
  share(user: CurrentUser, nodeId: string, body: ShareFolderRequest): Promise<void>;
  recipients(userId: string, nodeId: string): Promise<FileShare[]>;
  revoke(userId: string, nodeId: string, email: string): Promise<void>;
  received(userId: string): Promise<SharedFolderItem[]>;
  receivedNodes(userId: string, nodeId: string): Promise<SharedFolderNodesResponse>;
  download(
    user: CurrentUser,
    nodeId: string,
    fileId: string,
    rangeHeader: string | undefined,
  ): Promise<Download>;
}

export interface FolderSharesServiceDeps {
  repo: FolderSharesRepo;
  users: UsersRepo;
  keys: KeysRepo;
  downloads: DownloadsService;
  /** The owner's share limit: file shares and folder shares count together. */
  maxSharesOf: (user: CurrentUser) => number;
  /** Whether the owner has a folder with this node id (answers 404 before anything else). */
  ownsFolder: (userId: string, nodeId: string) => Promise<boolean>;
  now: () => Date;
}

const invalidRecipient = (message: string) => new ApiError(400, ErrorCode.INVALID_RECIPIENT, message);
const alreadyShared = () =>
  new ApiError(409, ErrorCode.ALREADY_SHARED, 'This folder is already shared with this person');
const sharedFolderNotFound = () =>
  new NotFoundError('The folder does not exist or is not shared with you', ErrorCode.NOT_FOUND);

function sharedFile(row: FileRow): SharedFolderFile | undefined {
  const { node_id, parent_node_id, wrapped_key, encrypted_metadata, node_record } = row;
  if (node_id === null || wrapped_key === null || encrypted_metadata === null || node_record === null) {
    return undefined;
  }
  return {
    fileId: row.id,
    nodeId: node_id,
    parentNodeId: parent_node_id,
    wrappedKey: wrapped_key,
    encryptedMetadata: encrypted_metadata,
    nodeRecord: node_record,
    size: row.size,
    uploadedAt: row.uploaded_at,
    ...(row.manifest === null ? {} : { manifest: row.manifest }),
  };
}

export function createFolderSharesService(deps: FolderSharesServiceDeps): FolderSharesService {
  const { repo } = deps;
  const ownFolder = async (userId: string, nodeId: string) => {
    if (!(await deps.ownsFolder(userId, nodeId))) throw folderNotFound();
  };
  const receivedFolder = async (userId: string, nodeId: string): Promise<ReceivedFolder> => {
    const received = await repo.receivedFolder(userId, nodeId);
    if (received === undefined) throw sharedFolderNotFound();
    return received;
  };

  return {
    async share(user, nodeId, body) {
      await ownFolder(user.id, nodeId);
      if (user.email === null) {
        throw new ApiError(
          400,
          ErrorCode.INVALID_OPERATION,
          'Your account needs an email address to share files',
        );
      }
      const email = normalizeEmail(body.email);
      const recipient = email === user.email ? undefined : await deps.users.findByEmail(email);
      if (recipient === undefined || recipient.id === user.id || recipient.email === null) {
        throw invalidRecipient('The recipient must be another Coffer user');
      }
      const activeKey = await deps.keys.newestFor(recipient.id);
      if (body.keyVersion !== activeKey?.id) {
        throw invalidRecipient("The folder key must be wrapped with the recipient's current public key");
      }
      // Node ids are chosen by clients: a recipient must never hold two shared folders under one id.
      const existing = await repo.receivedFolder(recipient.id, nodeId);
      if (existing !== undefined) throw alreadyShared();
      let result;
      try {
        result = await repo.insertWithinLimit(
          {
            owner_id: user.id,
            node_id: nodeId,
            recipient_id: recipient.id,
            recipient_email: recipient.email,
            encrypted_folder_key: body.encryptedFolderKey,
            key_version: body.keyVersion,
            // Stored as sent: the recipient's app verifies it against the owner's pinned key.
            grant_json: body.grantJson,
            created_at: nowIso(deps.now()),
          },
          deps.maxSharesOf(user),
        );
      } catch (err) {
        if (isUniqueViolation(err)) throw alreadyShared();
        throw err;
      }
      if (result === 'missing') throw folderNotFound();
      if (result === 'limit') throw new ApiError(403, ErrorCode.SHARE_LIMIT_REACHED, SHARE_LIMIT_MESSAGE);
    },

    async recipients(userId, nodeId) {
      await ownFolder(userId, nodeId);
      return (await repo.recipientsOf(userId, nodeId)).map((r) => ({
        email: r.email,
        name: (r.contactName ?? r.accountName ?? r.email).slice(0, NAME_MAX_LENGTH),
      }));
    },

    async revoke(userId, nodeId, email) {
      await ownFolder(userId, nodeId);
      if (!(await repo.deleteFor(userId, nodeId, normalizeEmail(email)))) {
        throw new NotFoundError('This folder is not shared with this email');
      }
    },

    async received(userId) {
      return (await repo.receivedBy(userId)).map(({ share, folder, ownerEmail }) => ({
        nodeId: share.node_id,
        owner: ownerEmail ?? '',
        encryptedFolderKey: share.encrypted_folder_key,
        keyVersion: share.key_version,
        grantJson: share.grant_json,
        encryptedMetadata: folder.encrypted_metadata,
        nodeRecord: folder.node_record,
        sharedAt: share.created_at,
      }));
    },

    async receivedNodes(userId, nodeId) {
      const { share, folder } = await receivedFolder(userId, nodeId);
      const below = await repo.subtreeOf(share.owner_id, nodeId);
      return {
        folder: toFolder(folder),
        folders: below.folders.map(toFolder),
        files: below.files.map(sharedFile).filter((file) => file !== undefined),
      };
    },

    async download(user, nodeId, fileId, rangeHeader) {
      const { share } = await receivedFolder(user.id, nodeId);
      const file = await repo.fileBelow(share.owner_id, nodeId, fileId);
      if (file === undefined) throw fileNotFound();
      // Opened and counted as a download through a file share is: against the caller's monthly limit.
      return deps.downloads.open(user, file, rangeHeader, async () => {
        const still = await repo.receivedFolder(user.id, nodeId);
        return still !== undefined && (await repo.fileBelow(share.owner_id, nodeId, fileId)) !== undefined;
      });
    },
  };
}
