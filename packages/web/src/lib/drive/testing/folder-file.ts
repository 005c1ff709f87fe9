import type { Folder, SharedFolderFile, SharedFolderItem } from '@coffer/contracts';
import { generateFileKey } from '@coffer/crypto';
import { fileNodeFor } from '../file-node';
import type { OpenedSharedFolder } from '../folder-shares';

/**
 * Tests only: a file `f-<name>` placed under `parent` (its key wrapped there, its name sealed, its node
 * record signed by `signer`), as GET /users/folders/shared/{nodeId}/nodes lists it.
 */
export async function folderFile(
  parent: { nodeId: string; key: CryptoKey },
  name: string,
  signer: { ownerEmail: string; signingPrivateKey: CryptoKey },
): Promise<SharedFolderFile> {
  const node = await fileNodeFor({
    fileKey: await generateFileKey(),
    name,
    contentType: 'text/plain',
    parent,
    ownerEmail: signer.ownerEmail,
    signingPrivateKey: signer.signingPrivateKey,
  });
  return { fileId: `f-${name}`, ...node, size: 3, uploadedAt: '2026-11-27T06:00:00.000Z' };
}

/**
 * Tests only: a folder shared with me and already opened (its grant taken as checked): the item as
 * GET /users/folders/shared lists it, with the folder key and the owner's signing key.
 */
export function openedSharedFolder(
  folder: Folder,
  folderKey: CryptoKey,
  owner: string,
  ownerSigningKey: string,
  name = 'Team',
): OpenedSharedFolder & { readonly ownerSigningKey: string } {
  const item: SharedFolderItem = {
    nodeId: folder.nodeId,
    owner,
    encryptedFolderKey: 'unused-here',
    keyVersion: 'k1',
    grantJson: 'unused-here',
    encryptedMetadata: folder.encryptedMetadata,
    nodeRecord: folder.nodeRecord,
    sharedAt: '2026-11-27T06:00:00.000Z',
  };
  return { ok: true, item, name, folderKey, ownerSigningKey };
}
