import { DEFAULT_CONTENT_TYPE, type FileMetadata } from '@coffer/contracts';
import { openMetadata, parseFileManifest, signNodeRecord, verifyNodeRecord } from '@coffer/crypto';
import { filesApi } from '../api/files';
import type { ApiClient } from '../api/http';
import { checkOwnFile, resignManifest, type ManifestSigner } from '../trust/signed-files';
import { driveApi } from './drive-api';
import type { DriveFile } from './drive-nodes';
import { cryptoParentId } from './node-place';

/** Files signed again at once (each is a metadata call, a few signatures and a node call). */
const REPAIR_CONCURRENCY = 4;

export interface RepairResult {
  readonly repaired: number;
  /** Files whose stored manifest did not check out (a server's change) or whose call failed. */
  readonly failed: number;
}

/**
 * My placed files whose stored manifest the server says is still version 1 (`clearManifest`): those
 * an older client's migration sealed without signing the manifest again (it names the file in clear).
 * Only those whose key opened through my tree can be repaired. The server's hint decides nothing: each
 * is checked against my own signing key before anything is signed.
 */
export function filesWithClearManifests(files: readonly DriveFile[]): DriveFile[] {
  return files.filter(
    (file) =>
      file.item.clearManifest === true &&
      file.nodeId !== null &&
      file.fileKey !== undefined &&
      file.item.wrappedKey !== undefined &&
      file.item.encryptedMetadata !== undefined,
  );
}

/**
 * Signs again (version 2 over the sealed metadata, and each share's grant over it) the manifests an
 * older migration left as version 1 with the clear name (issue 31): for each file, its stored node
 * record must be mine for the node as served, the version 1 manifest must verify under my signing key
 * naming exactly the name and type its sealed metadata opens to, and then the manifest, the grants and
 * a node record over the new manifest go out with PUT /users/files/{id}/node (the server swaps them
 * in one transaction). A manifest that does not match is left as it is: it keeps showing the mismatch.
 */
export async function resignClearManifests(
  api: ApiClient,
  files: readonly DriveFile[],
  signer: ManifestSigner,
): Promise<RepairResult> {
  let repaired = 0;
  let failed = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const file = files[next++];
      if (file === undefined) continue;
      try {
        await resignOne(api, file, signer);
        repaired += 1;
      } catch {
        failed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(REPAIR_CONCURRENCY, files.length) }, worker));
  return { repaired, failed };
}

async function resignOne(api: ApiClient, listed: DriveFile, signer: ManifestSigner): Promise<void> {
  const fileKey = listed.fileKey;
  const stored: FileMetadata = await filesApi.get(api, listed.fileId);
  const { nodeId, wrappedKey, encryptedMetadata, nodeRecord } = stored;
  if (
    fileKey === undefined ||
    nodeId === undefined ||
    nodeId !== listed.nodeId ||
    wrappedKey === undefined ||
    wrappedKey !== listed.item.wrappedKey ||
    encryptedMetadata === undefined ||
    parseFileManifest(stored.manifest ?? '')?.v !== 1
  ) {
    throw new Error('not a placed file with a version 1 manifest');
  }
  const parentNodeId = stored.parentNodeId ?? null;
  // The node as stored, with one manifest or the other: the record before and after the repair.
  const nodeWith = (manifestJson: string | undefined) => ({
    ownerEmail: signer.ownerEmail,
    nodeId,
    parentNodeId: cryptoParentId(parentNodeId),
    kind: 'file' as const,
    wrappedKeyB64: wrappedKey,
    encryptedMetadataB64: encryptedMetadata,
    manifestJson,
  });
  const record = await verifyNodeRecord(nodeRecord, nodeWith(stored.manifest), signer.signingPublicKeyB64);
  if (record.status !== 'valid') throw new Error(`the node record does not check out (${record.status})`);
  const opened = await openMetadata(fileKey, nodeId, encryptedMetadata);
  const asSigned = await matchingFile(stored, opened, signer);
  const resigned = await resignManifest(asSigned, encryptedMetadata, signer);
  const newRecord = await signNodeRecord(nodeWith(resigned.manifest), signer.signingPrivateKey);
  await driveApi.putFileNode(api, stored.fileId, {
    nodeId,
    parentNodeId,
    wrappedKey,
    encryptedMetadata,
    nodeRecord: newRecord,
    ...resigned,
  });
}

/**
 * The stored file with the name and type its sealed metadata opens to, once its version 1 manifest
 * verifies for them under my key. The older migration sealed an empty type as the default one, so
 * that pair also counts as the same.
 */
async function matchingFile(
  stored: FileMetadata,
  opened: { name: string; contentType?: string },
  signer: ManifestSigner,
): Promise<FileMetadata> {
  const sealedType = opened.contentType ?? DEFAULT_CONTENT_TYPE;
  const types = sealedType === DEFAULT_CONTENT_TYPE ? [sealedType, ''] : [sealedType];
  for (const contentType of types) {
    const candidate = { ...stored, name: opened.name, contentType };
    const check = await checkOwnFile(candidate, signer.ownerEmail, signer.signingPublicKeyB64);
    if (check.status === 'valid') return candidate;
  }
  throw new Error('the version 1 manifest does not name what the sealed metadata holds');
}
