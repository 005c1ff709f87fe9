import type {
  FileListItem,
  FileShare,
  FolderSharesResponse,
  SharedFolderFile,
  SharedFolderItem,
  SharedFolderNodesResponse,
  SharedFoldersResponse,
} from '@coffer/contracts';
import {
  importPublicKeyB64,
  openMetadata,
  sanitizeDisplayName,
  signFolderGrant,
  unwrapFolderKeyFromGrant,
  verifyFolderGrant,
  wrapFolderKeyForRecipient,
} from '@coffer/crypto';
import { seg, type ApiClient } from '../api/http';
import type { ChangeSigner } from './drive-changes';
import type { DriveFile, DriveFolder, RecordState } from './drive-nodes';
import { openDrive } from './drive-open';
import { checkNodeRecords } from './drive-records';
import { cryptoParentId } from './node-place';

/** The contact a folder is shared with: their email and the key the server serves (checked against my pins first). */
export interface FolderRecipient {
  readonly email: string;
  readonly publicKeyB64: string;
  readonly keyId: string;
}

/**
 * Shares one of my folders (POST /users/folders/{nodeId}/shares): its key, opened under its parent,
 * wrapped to the recipient's RSA key, with my signed folder grant naming the folder, the recipient,
 * their key and exactly that wrapped key. Files added later sit below it and open for them too.
 */
export async function shareFolder(
  api: ApiClient,
  folder: DriveFolder,
  parentKey: CryptoKey,
  recipient: FolderRecipient,
  signer: ChangeSigner,
): Promise<void> {
  const encryptedFolderKey = await wrapFolderKeyForRecipient(
    {
      wrappedKeyB64: folder.item.wrappedKey,
      parentKey,
      place: { parentNodeId: cryptoParentId(folder.parentNodeId), nodeId: folder.nodeId },
    },
    await importPublicKeyB64(recipient.publicKeyB64),
  );
  const grantJson = await signFolderGrant(
    {
      folderNodeId: folder.nodeId,
      ownerEmail: signer.ownerEmail,
      recipientEmail: recipient.email,
      recipientKeyId: recipient.keyId,
      recipientPublicKeyB64: recipient.publicKeyB64,
      encryptedFolderKeyB64: encryptedFolderKey,
    },
    signer.signingPrivateKey,
  );
  await api.request<unknown>('POST', `/users/folders/${seg(folder.nodeId)}/shares`, {
    body: { email: recipient.email, encryptedFolderKey, keyVersion: recipient.keyId, grantJson },
  });
}

export const folderSharesApi = {
  /** Who one of my folders is shared with. */
  of: async (api: ApiClient, nodeId: string): Promise<FileShare[]> =>
    (await api.request<FolderSharesResponse>('GET', `/users/folders/${seg(nodeId)}/shares`)).shares,
  /** Revokes a folder share: the whole tree. */
  revoke: (api: ApiClient, nodeId: string, email: string) =>
    api.request<unknown>('DELETE', `/users/folders/${seg(nodeId)}/shares/${seg(email)}`),
  /** Folders shared with me, newest first. */
  received: async (api: ApiClient): Promise<SharedFolderItem[]> =>
    (await api.request<SharedFoldersResponse>('GET', '/users/folders/shared')).folders,
  /** A folder shared with me and everything below it. */
  nodes: (api: ApiClient, nodeId: string) =>
    api.request<SharedFolderNodesResponse>('GET', `/users/folders/shared/${seg(nodeId)}/nodes`),
};

/** Me, as my session knows me (never as the server says). */
export interface Recipient {
  readonly email: string;
  readonly keyId: string;
  readonly publicKeyB64: string;
  readonly privateKey: CryptoKey;
}

/** A folder shared with me, opened: its name and key, or why it does not open. */
export type OpenedSharedFolder =
  | {
      readonly ok: true;
      readonly item: SharedFolderItem;
      readonly name: string;
      readonly folderKey: CryptoKey;
    }
  | { readonly ok: false; readonly item: SharedFolderItem; readonly problem: string };

/**
 * Opens a received folder share: the owner's grant is verified with their PINNED signing key and
 * must name this folder, me, my own key (from my session) and exactly the wrapped key served; only
 * then is the folder key unwrapped with my RSA key and the folder's name opened under it.
 */
export async function openSharedFolder(
  item: SharedFolderItem,
  me: Recipient,
  ownerSigningPublicKeyB64: string | undefined,
): Promise<OpenedSharedFolder> {
  if (ownerSigningPublicKeyB64 === undefined)
    return { ok: false, item, problem: `the key of ${item.owner} cannot be checked` };
  const check = await verifyFolderGrant(
    item.grantJson,
    {
      folderNodeId: item.nodeId,
      ownerEmail: item.owner,
      recipientEmail: me.email,
      recipientKeyId: item.keyVersion,
      recipientPublicKeyB64: me.publicKeyB64,
      encryptedFolderKeyB64: item.encryptedFolderKey,
    },
    ownerSigningPublicKeyB64,
  );
  if (check.status !== 'valid' || item.keyVersion !== me.keyId)
    return { ok: false, item, problem: `the share was not signed by ${item.owner} as served` };
  try {
    const folderKey = await unwrapFolderKeyFromGrant(item.encryptedFolderKey, me.privateKey);
    const metadata = await openMetadata(folderKey, item.nodeId, item.encryptedMetadata);
    return { ok: true, item, name: sanitizeDisplayName(metadata.name), folderKey };
  } catch {
    return { ok: false, item, problem: 'the folder key or name does not open' };
  }
}

/** The tree below a folder shared with me, opened with its key and checked against the owner's records. */
export interface SharedFolderTree {
  readonly folders: readonly DriveFolder[];
  readonly files: readonly DriveFile[];
  /** By folder node id or file id: `valid`, or `tampered` (injected, moved or altered by the server: not opened). */
  readonly records: ReadonlyMap<string, RecordState>;
}

/**
 * Lists and opens everything below a shared folder (GET /users/folders/shared/{nodeId}/nodes): keys
 * unwrapped down from the folder key, names opened, and every node record verified against the
 * owner's pinned signing key. A node whose record does not check out is marked `tampered` and its
 * key dropped, so it is shown as such and never opened.
 */
export async function openSharedFolderTree(
  api: ApiClient,
  shared: { nodeId: string; owner: string; folderKey: CryptoKey },
  ownerSigningPublicKeyB64: string,
): Promise<SharedFolderTree> {
  const answer = await folderSharesApi.nodes(api, shared.nodeId);
  const items = answer.files.map(asListItem);
  const opened = await openDrive(items, answer.folders, shared.folderKey, shared.nodeId);
  const records = await checkNodeRecords(
    [...opened.folders, ...opened.files],
    shared.owner,
    ownerSigningPublicKeyB64,
  );
  const bad = (id: string) => records.get(id) !== 'valid';
  return {
    records,
    folders: opened.folders.map((folder) => {
      if (!bad(folder.nodeId)) return folder;
      return {
        ...folder,
        folderKey: undefined,
        state: 'unreadable',
        problem: 'its record is not the owner’s',
      };
    }),
    files: opened.files.map((file) => {
      if (!bad(file.fileId)) return file;
      return { ...file, fileKey: undefined, state: 'unreadable', problem: 'its record is not the owner’s' };
    }),
  };
}

/** A shared folder's file in the shape lib/drive opens (the server's name is never used). */
function asListItem(file: SharedFolderFile): FileListItem {
  return {
    fileId: file.fileId,
    name: 'encrypted',
    contentType: 'application/octet-stream',
    isEncrypted: true,
    size: file.size,
    uploadedAt: file.uploadedAt,
    ownerId: '',
    nodeId: file.nodeId,
    parentNodeId: file.parentNodeId,
    wrappedKey: file.wrappedKey,
    encryptedMetadata: file.encryptedMetadata,
    nodeRecord: file.nodeRecord,
  };
}
