import { utf8Bytes } from '../bytes.util.js';
import { InvalidArgumentError } from '../crypto.errors.js';

/** The node id of the drive itself: the parent of everything at the top of My Files. */
export const DRIVE_NODE_ID = 'drive';

/** A file node's key is its content key; a folder node's key (and the drive key) wraps its children. */
export type NodeKind = 'file' | 'folder';

export const NODE_KINDS: readonly NodeKind[] = ['file', 'folder'];

/** Where a node's key is wrapped: under which parent, as which node. */
export interface NodePlace {
  /** A node id, or {@link DRIVE_NODE_ID} for the top of the drive. */
  parentNodeId: string;
  /** The node's own id: a lower-case UUID chosen by the client. */
  nodeId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** True for a node id: a lower-case UUID (never `drive`, never anything with a `/`). */
export function isNodeId(value: string): boolean {
  return UUID.test(value);
}

/** True for a parent id: a node id or {@link DRIVE_NODE_ID}. */
export function isParentNodeId(value: string): boolean {
  return value === DRIVE_NODE_ID || UUID.test(value);
}

/**
 * Throws {@link InvalidArgumentError} unless the place is a parent id and a node id. The ids go
 * into AADs joined by `/`, so refusing anything but UUIDs (and `drive`) keeps that join unambiguous.
 */
export function assertNodePlace(place: NodePlace): void {
  if (!isParentNodeId(place.parentNodeId)) {
    throw new InvalidArgumentError('parentNodeId must be "drive" or a lower-case UUID');
  }
  assertNodeId(place.nodeId);
  if (place.nodeId === place.parentNodeId) throw new InvalidArgumentError('a node cannot be its own parent');
}

export function assertNodeId(nodeId: string): void {
  if (!isNodeId(nodeId)) throw new InvalidArgumentError('nodeId must be a lower-case UUID');
}

/** AAD of a node key wrapped under its parent: `coffer-v2/node-key/<parentNodeId>/<nodeId>` (ASCII). */
export function nodeKeyAad(place: NodePlace): Uint8Array<ArrayBuffer> {
  assertNodePlace(place);
  return utf8Bytes(`coffer-v2/node-key/${place.parentNodeId}/${place.nodeId}`);
}

/** AAD of a node's encrypted metadata: `coffer-v2/metadata/<nodeId>` (ASCII). */
export function metadataAad(nodeId: string): Uint8Array<ArrayBuffer> {
  assertNodeId(nodeId);
  return utf8Bytes(`coffer-v2/metadata/${nodeId}`);
}

/**
 * Usages of a node key once unwrapped. A file key is a coffer-v1 content key (as `unwrapFileKey`
 * gives it: encrypt and decrypt, for chunks and its metadata); a folder key and the drive key also
 * wrap and unwrap their children's keys.
 */
export function nodeKeyUsages(kind: NodeKind): KeyUsage[] {
  return kind === 'file' ? ['encrypt', 'decrypt'] : ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey'];
}
