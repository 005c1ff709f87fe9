import { CofferCryptoError, InvalidArgumentError, type CryptoErrorCode } from '../crypto.errors.js';
import { unwrapNodeKey } from './node-key.wrap.js';
import { openMetadata } from './node-metadata.seal.js';
import type { NodeKind } from './node-place.js';

/** A child node as the server lists it: enough to open its key and its metadata. */
export interface ListedNode {
  nodeId: string;
  /** As served: the key only opens if it really is this parent's child. */
  parentNodeId: string;
  kind: NodeKind;
  wrappedKeyB64: string;
  encryptedMetadataB64: string;
}

/** One node opened: its metadata and its key (to download a file, or to open a folder's children). */
export interface OpenedNode {
  ok: true;
  nodeId: string;
  name: string;
  contentType?: string;
  /** Non-extractable (see `unwrapNodeKey`). */
  nodeKey: CryptoKey;
}

/** One node that did not open: show it as unreadable, never as a name the server chose. */
export interface UnopenedNode {
  ok: false;
  nodeId: string;
  code: CryptoErrorCode;
  reason: string;
}

/** How many nodes are in flight at once by default: enough to keep WebCrypto's thread pool busy. */
export const OPEN_NODES_CONCURRENCY = 64;

/**
 * Opens the children of one parent: for each node, unwraps its key under `parentKey` and opens its
 * metadata, at most `concurrency` nodes in flight. The answer is in the order of `nodes`, one entry
 * each; a node that fails is `{ ok: false }` with the error's code and never stops the others.
 * Costs two AES-GCM operations per node and no RSA.
 */
export async function openNodesMetadata(
  parentKey: CryptoKey,
  nodes: readonly ListedNode[],
  concurrency = OPEN_NODES_CONCURRENCY,
): Promise<(OpenedNode | UnopenedNode)[]> {
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw new InvalidArgumentError('concurrency must be a positive integer');
  }
  const results = new Array<OpenedNode | UnopenedNode>(nodes.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < nodes.length) {
      const index = next++;
      const node = nodes[index];
      if (node !== undefined) results[index] = await openNode(parentKey, node);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, nodes.length) }, worker));
  return results;
}

async function openNode(parentKey: CryptoKey, node: ListedNode): Promise<OpenedNode | UnopenedNode> {
  try {
    const place = { parentNodeId: node.parentNodeId, nodeId: node.nodeId };
    const nodeKey = await unwrapNodeKey(node.wrappedKeyB64, parentKey, place, node.kind);
    const metadata = await openMetadata(nodeKey, node.nodeId, node.encryptedMetadataB64);
    return { ok: true, nodeId: node.nodeId, ...metadata, nodeKey };
  } catch (error) {
    // Coded errors are what a served node can cause (bad ids, wraps, metadata); anything else is a bug.
    if (!(error instanceof CofferCryptoError)) throw error;
    return { ok: false, nodeId: node.nodeId, code: error.code, reason: error.message };
  }
}
