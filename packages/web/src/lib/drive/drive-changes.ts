import type { Folder } from '@coffer/contracts';
import {
  createFolderKey,
  parseFileManifest,
  rewrapNodeKey,
  sealMetadata,
  signNodeRecord,
  type NodeKind,
} from '@coffer/crypto';
import { filesApi } from '../api/files';
import { seg, type ApiClient } from '../api/http';
import { resignManifest } from '../trust/signed-files';
import { driveApi } from './drive-api';
import type { DriveFile, DriveFolder } from './drive-nodes';
import type { NodeParent } from './file-node';
import { cryptoParentId, newNodeId } from './node-place';

/** Longest folder name the dialog accepts (in UTF-16 units, what a text field counts). */
export const MAX_FOLDER_NAME_LENGTH = 255;

/** Why a typed folder (or file) name is refused, or null when it is fine. */
export function folderNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'Enter a name';
  if (/[/\\]/.test(trimmed)) return 'A name cannot contain / or \\';
  if (trimmed.length > MAX_FOLDER_NAME_LENGTH) return `At most ${MAX_FOLDER_NAME_LENGTH} characters`;
  return null;
}

/** Who signs a change: my email and signing key. */
export interface ChangeSigner {
  readonly ownerEmail: string;
  readonly signingPrivateKey: CryptoKey;
  /**
   * My signing public key: a rename signs a version 2 manifest again (it signs the sealed metadata),
   * after checking the old one and the shares' grants with it. Without it such a rename is refused.
   */
  readonly signingPublicKeyB64?: string;
}

/**
 * Creates a folder (POST /users/folders): a fresh folder key wrapped under its parent, its name
 * sealed under that key, and my signed node record; one API call. `nodeId` lets an upload of a
 * folder tree choose ids before it creates them.
 */
export async function createFolder(
  api: ApiClient,
  input: { parent: NodeParent; name: string; nodeId?: string },
  signer: ChangeSigner,
): Promise<{ folder: Folder; folderKey: CryptoKey }> {
  const nodeId = input.nodeId ?? newNodeId();
  const parentNodeId = cryptoParentId(input.parent.nodeId);
  const { folderKey, wrappedKeyB64 } = await createFolderKey(input.parent.key, { parentNodeId, nodeId });
  const encryptedMetadata = await sealMetadata(folderKey, nodeId, { name: input.name.trim() });
  const nodeRecord = await signFolderRecord(nodeId, parentNodeId, wrappedKeyB64, encryptedMetadata, signer);
  const folder = await api.request<Folder>('POST', '/users/folders', {
    body: {
      nodeId,
      parentNodeId: input.parent.nodeId,
      wrappedKey: wrappedKeyB64,
      encryptedMetadata,
      nodeRecord,
    },
  });
  return { folder, folderKey };
}

/** Renames a folder (PATCH): new sealed name and record, same place and wrap. */
export async function renameFolder(
  api: ApiClient,
  folder: DriveFolder,
  name: string,
  signer: ChangeSigner,
): Promise<Folder> {
  const folderKey = openedKey(folder.folderKey, 'folder');
  const encryptedMetadata = await sealMetadata(folderKey, folder.nodeId, { name: name.trim() });
  const parentNodeId = cryptoParentId(folder.parentNodeId);
  const nodeRecord = await signFolderRecord(
    folder.nodeId,
    parentNodeId,
    folder.item.wrappedKey,
    encryptedMetadata,
    signer,
  );
  return patchFolder(api, folder.nodeId, {
    parentNodeId: folder.parentNodeId,
    wrappedKey: folder.item.wrappedKey,
    encryptedMetadata,
    nodeRecord,
  });
}

/** Moves a folder under another parent (PATCH): its key re-wrapped there, a new record. */
export async function moveFolder(
  api: ApiClient,
  folder: DriveFolder,
  from: NodeParent,
  to: NodeParent,
  signer: ChangeSigner,
): Promise<Folder> {
  const wrappedKey = await rewrapped(folder.item.wrappedKey, 'folder', folder.nodeId, from, to);
  const parentNodeId = cryptoParentId(to.nodeId);
  const nodeRecord = await signFolderRecord(
    folder.nodeId,
    parentNodeId,
    wrappedKey,
    folder.item.encryptedMetadata,
    signer,
  );
  return patchFolder(api, folder.nodeId, {
    parentNodeId: to.nodeId,
    wrappedKey,
    encryptedMetadata: folder.item.encryptedMetadata,
    nodeRecord,
  });
}

/** Deletes a folder with everything below it (DELETE /users/folders/{nodeId}). */
export async function deleteFolder(api: ApiClient, nodeId: string): Promise<void> {
  await api.request<unknown>('DELETE', `/users/folders/${seg(nodeId)}`);
}

/**
 * Moves and/or renames a file (PUT /users/files/{id}/node). The record names the file's manifest,
 * which the list does not carry: it is read first (GET /users/files/{id}).
 */
export async function changeFile(
  api: ApiClient,
  file: DriveFile,
  change: { from: NodeParent; to?: NodeParent; name?: string },
  signer: ChangeSigner,
): Promise<void> {
  const nodeId = file.nodeId;
  const wrapped = file.item.wrappedKey;
  const sealed = file.item.encryptedMetadata;
  if (nodeId === null || wrapped === undefined || sealed === undefined) {
    throw new Error('this file has no encrypted name yet; try again after the names are sealed');
  }
  const to = change.to ?? change.from;
  const wrappedKey =
    change.to === undefined ? wrapped : await rewrapped(wrapped, 'file', nodeId, change.from, to);
  const encryptedMetadata =
    change.name === undefined
      ? sealed
      : await sealMetadata(openedKey(file.fileKey, 'file'), nodeId, {
          name: change.name.trim(),
          contentType: file.contentType,
        });
  const stored = await filesApi.get(api, file.fileId);
  // A version 2 manifest signs the sealed metadata: a new name needs it (and the grants) signed again.
  const resigned =
    change.name !== undefined && parseFileManifest(stored.manifest ?? '')?.v === 2
      ? await resignManifest(stored, encryptedMetadata, {
          ...signer,
          signingPublicKeyB64: signer.signingPublicKeyB64 ?? failNoSigningKey(),
        })
      : {};
  const manifest = resigned.manifest ?? stored.manifest;
  const parentNodeId = cryptoParentId(to.nodeId);
  const nodeRecord = await signNodeRecord(
    {
      ownerEmail: signer.ownerEmail,
      nodeId,
      parentNodeId,
      kind: 'file',
      wrappedKeyB64: wrappedKey,
      encryptedMetadataB64: encryptedMetadata,
      manifestJson: manifest,
    },
    signer.signingPrivateKey,
  );
  await driveApi.putFileNode(api, file.fileId, {
    nodeId,
    parentNodeId: to.nodeId,
    wrappedKey,
    encryptedMetadata,
    nodeRecord,
    ...resigned,
  });
}

function failNoSigningKey(): never {
  throw new Error('my signing public key is needed to sign the file again');
}

async function rewrapped(
  wrappedKeyB64: string,
  kind: NodeKind,
  nodeId: string,
  from: NodeParent,
  to: NodeParent,
): Promise<string> {
  return rewrapNodeKey(
    wrappedKeyB64,
    kind,
    { parentKey: from.key, place: { parentNodeId: cryptoParentId(from.nodeId), nodeId } },
    { parentKey: to.key, place: { parentNodeId: cryptoParentId(to.nodeId), nodeId } },
  );
}

function signFolderRecord(
  nodeId: string,
  parentNodeId: string,
  wrappedKeyB64: string,
  encryptedMetadataB64: string,
  signer: ChangeSigner,
): Promise<string> {
  return signNodeRecord(
    {
      ownerEmail: signer.ownerEmail,
      nodeId,
      parentNodeId,
      kind: 'folder',
      wrappedKeyB64,
      encryptedMetadataB64,
    },
    signer.signingPrivateKey,
  );
}

function patchFolder(
  api: ApiClient,
  nodeId: string,
  body: { parentNodeId: string | null; wrappedKey: string; encryptedMetadata: string; nodeRecord: string },
): Promise<Folder> {
  return api.request<Folder>('PATCH', `/users/folders/${seg(nodeId)}`, { body });
}

function openedKey(key: CryptoKey | undefined, kind: NodeKind): CryptoKey {
  if (key === undefined) throw new Error(`this ${kind} did not open: it cannot be changed`);
  return key;
}
