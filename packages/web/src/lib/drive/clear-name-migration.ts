import {
  DEFAULT_CONTENT_TYPE,
  type FileListItem,
  type FileNodesItem,
  type FileMetadata,
} from '@coffer/contracts';
import {
  DRIVE_NODE_ID,
  openMetadata,
  sealMetadata,
  signNodeRecord,
  unwrapNodeKey,
  wrapFileKeyForParent,
} from '@coffer/crypto';
import { filesApi } from '../api/files';
import type { ApiClient } from '../api/http';
import { resignManifest } from '../trust/signed-files';
import { driveApi } from './drive-api';
import { newNodeId } from './node-place';

/** Files per POST /users/files/nodes (the contracts allow up to 500; smaller batches show progress sooner). */
export const MIGRATION_BATCH_SIZE = 50;
/** Metadata calls and RSA unwraps in flight while a batch is prepared. */
const PREPARE_CONCURRENCY = 4;

export interface MigrationKeys {
  readonly driveKey: CryptoKey;
  /** Opens each file's RSA owner copy once. */
  readonly privateKey: CryptoKey;
  readonly ownerEmail: string;
  readonly signingPrivateKey: CryptoKey;
  /** Checks the old manifest and grants before they are signed again (version 2, no clear name). */
  readonly signingPublicKeyB64: string;
}

export interface MigrationResult {
  readonly migrated: number;
  /** Files that could not be prepared or sent; they keep their clear name until the next unlock. */
  readonly failed: number;
}

/**
 * The files of a list that my browser still has to seal or place: those with a clear name on the
 * server (from before issue 31), and those that came through a file request (issue 30), sealed by
 * their uploader under the file key but not placed in my drive (a node id and metadata, no wrap).
 */
export function filesWithClearNames(files: readonly FileListItem[]): FileListItem[] {
  return files.filter((file) => file.isEncrypted && (file.nodeId === undefined || isRequestArrival(file)));
}

/** A file a file request's uploader sealed (node id and metadata), not placed yet (no wrap, no record). */
export function isRequestArrival(file: {
  nodeId?: string;
  wrappedKey?: string;
  encryptedMetadata?: string;
}): boolean {
  return file.nodeId !== undefined && file.encryptedMetadata !== undefined && file.wrappedKey === undefined;
}

/**
 * Seals the clear names of my older files (issue 31, point 1): for each, the RSA owner copy of its
 * key is opened once and the key wrapped under the drive key at the top of My Files, its name and
 * type sealed under the file key, its manifest and share grants signed again (version 2, no clear
 * name) and the node record signed; batches go out with
 * POST /users/files/nodes, after which the server keeps no clear name. A file that came through a
 * file request keeps the node id and the metadata its uploader sealed, once they open with its key
 * (then it is placed the same way). A file that fails (its key or metadata does not open, a batch
 * is refused) is left as it is and counted; the next unlock tries again.
 */
export async function migrateClearNames(
  api: ApiClient,
  files: readonly FileListItem[],
  keys: MigrationKeys,
  batchSize = MIGRATION_BATCH_SIZE,
): Promise<MigrationResult> {
  let migrated = 0;
  let failed = 0;
  for (let start = 0; start < files.length; start += batchSize) {
    const batch = files.slice(start, start + batchSize);
    const prepared = await mapLimited(batch, PREPARE_CONCURRENCY, (file) =>
      prepare(api, file, keys).catch(() => null),
    );
    const items = prepared.filter((item): item is FileNodesItem => item !== null);
    failed += batch.length - items.length;
    if (items.length === 0) continue;
    try {
      await driveApi.putFileNodes(api, items);
      migrated += items.length;
    } catch {
      // All or none: one refused file (a share made meanwhile) must not hold back the others.
      for (const item of items) {
        try {
          await driveApi.putFileNodes(api, [item]);
          migrated += 1;
        } catch {
          failed += 1;
        }
      }
    }
  }
  return { migrated, failed };
}

async function prepare(api: ApiClient, listed: FileListItem, keys: MigrationKeys): Promise<FileNodesItem> {
  const file: FileMetadata = await filesApi.get(api, listed.fileId);
  const encryptedFileKey = file.encryptionInfo?.encryptedFileKey;
  const arrival = isRequestArrival(file);
  if (encryptedFileKey === undefined || (file.nodeId !== undefined && !arrival)) {
    throw new Error('not a file to migrate');
  }
  // A request's arrival keeps the node id its uploader sealed the metadata for.
  const nodeId = arrival && file.nodeId !== undefined ? file.nodeId : newNodeId();
  const place = { parentNodeId: DRIVE_NODE_ID, nodeId };
  const wrappedKey = await wrapFileKeyForParent(encryptedFileKey, keys.privateKey, keys.driveKey, place);
  const fileKey = await unwrapNodeKey(wrappedKey, keys.driveKey, place, 'file');
  let encryptedMetadata: string;
  if (arrival && file.encryptedMetadata !== undefined) {
    // Signed as mine only once it opens with this file's key for this node (the uploader's seal).
    await openMetadata(fileKey, nodeId, file.encryptedMetadata);
    encryptedMetadata = file.encryptedMetadata;
  } else {
    encryptedMetadata = await sealMetadata(fileKey, nodeId, {
      name: file.name,
      contentType: file.contentType === '' ? DEFAULT_CONTENT_TYPE : file.contentType,
    });
  }
  // The old manifest names the file in clear and each grant names that manifest: all signed again
  // (version 2 over the sealed metadata) and replaced with the node, or the file stays as it is.
  const resigned = await resignManifest(file, encryptedMetadata, keys);
  const nodeRecord = await signNodeRecord(
    {
      ownerEmail: keys.ownerEmail,
      nodeId,
      parentNodeId: DRIVE_NODE_ID,
      kind: 'file',
      wrappedKeyB64: wrappedKey,
      encryptedMetadataB64: encryptedMetadata,
      manifestJson: resigned.manifest ?? file.manifest,
    },
    keys.signingPrivateKey,
  );
  return {
    fileId: file.fileId,
    nodeId,
    parentNodeId: null,
    wrappedKey,
    encryptedMetadata,
    nodeRecord,
    ...resigned,
  };
}

async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  run: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      const item = items[index];
      if (item !== undefined) results[index] = await run(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
