import type { FileNode } from '@coffer/contracts';
import { sealMetadata, signNodeRecord, wrapNodeKey } from '@coffer/crypto';
import { cryptoParentId, newNodeId } from './node-place';

/** Where a new file goes: the folder's node id and key, or the top of My Files and the drive key. */
export interface NodeParent {
  /** Null for the top of My Files. */
  readonly nodeId: string | null;
  /** The drive key at the top, else the folder's key. */
  readonly key: CryptoKey;
}

export interface FileNodeInput {
  /** The new file's content key, still extractable (as `generateFileKey` makes it). */
  readonly fileKey: CryptoKey;
  readonly name: string;
  readonly contentType: string;
  readonly parent: NodeParent;
  readonly ownerEmail: string;
  readonly signingPrivateKey: CryptoKey;
  /** The file's signed manifest, which the node record names by hash. */
  readonly manifestJson?: string;
  /** Tests only; a fresh UUID otherwise. */
  readonly nodeId?: string;
}

/**
 * The `node` object of an upload (issue 31): a client-chosen node id, the file key wrapped under
 * its parent's key at that place, `{name, contentType}` sealed under the file key, and the owner's
 * signed node record over all of it. With it the server stores the name `encrypted`.
 */
export async function fileNodeFor(input: FileNodeInput): Promise<FileNode> {
  const nodeId = input.nodeId ?? newNodeId();
  const parentNodeId = cryptoParentId(input.parent.nodeId);
  const wrappedKey = await wrapNodeKey(input.fileKey, input.parent.key, { parentNodeId, nodeId });
  const encryptedMetadata = await sealMetadata(input.fileKey, nodeId, {
    name: input.name,
    contentType: input.contentType,
  });
  const nodeRecord = await signNodeRecord(
    {
      ownerEmail: input.ownerEmail,
      nodeId,
      parentNodeId,
      kind: 'file',
      wrappedKeyB64: wrappedKey,
      encryptedMetadataB64: encryptedMetadata,
      manifestJson: input.manifestJson,
    },
    input.signingPrivateKey,
  );
  return { nodeId, parentNodeId: input.parent.nodeId, wrappedKey, encryptedMetadata, nodeRecord };
}
