import type { FileNode, NewEncryptionInfo } from '@coffer/contracts';
import { sealMetadata, signFileManifestV2, signNodeRecord, wrapNodeKey } from '@coffer/crypto';
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
  return (await signedFileNode(input, () => Promise.resolve(input.manifestJson))).node;
}

/** What a sealed upload's version 2 manifest is signed from, beside its node. */
export interface SealedUploadInput extends Omit<FileNodeInput, 'manifestJson'> {
  readonly size: number;
  readonly encryptionInfo: NewEncryptionInfo;
}

/**
 * A new upload's node and its version 2 manifest (docs/encryption.md section 9): the metadata is
 * sealed first, the manifest signs its hash (no name in it), and the node record names the
 * manifest. Both go with the upload; the server is told the name `encrypted`.
 */
export async function sealedUploadNode(
  input: SealedUploadInput,
): Promise<{ node: FileNode; manifest: string }> {
  const { node, manifestJson } = await signedFileNode(input, (encryptedMetadataB64) =>
    signFileManifestV2(
      {
        ownerEmail: input.ownerEmail,
        ownerKeyId: input.encryptionInfo.version,
        ownerEncryptedFileKeyB64: input.encryptionInfo.encryptedFileKey,
        encryptedMetadataB64,
        size: input.size,
        chunkSize: input.encryptionInfo.chunkSize,
      },
      input.signingPrivateKey,
    ),
  );
  if (manifestJson === undefined) throw new Error('the manifest was not signed');
  return { node, manifest: manifestJson };
}

async function signedFileNode(
  input: Omit<FileNodeInput, 'manifestJson'>,
  manifestFor: (encryptedMetadataB64: string) => Promise<string | undefined>,
): Promise<{ node: FileNode; manifestJson: string | undefined }> {
  const nodeId = input.nodeId ?? newNodeId();
  const parentNodeId = cryptoParentId(input.parent.nodeId);
  const wrappedKey = await wrapNodeKey(input.fileKey, input.parent.key, { parentNodeId, nodeId });
  const encryptedMetadata = await sealMetadata(input.fileKey, nodeId, {
    name: input.name,
    contentType: input.contentType,
  });
  const manifestJson = await manifestFor(encryptedMetadata);
  const nodeRecord = await signNodeRecord(
    {
      ownerEmail: input.ownerEmail,
      nodeId,
      parentNodeId,
      kind: 'file',
      wrappedKeyB64: wrappedKey,
      encryptedMetadataB64: encryptedMetadata,
      manifestJson,
    },
    input.signingPrivateKey,
  );
  return {
    node: { nodeId, parentNodeId: input.parent.nodeId, wrappedKey, encryptedMetadata, nodeRecord },
    manifestJson,
  };
}
