import type { DriveFolder } from './drive-nodes';
import type { NodeParent } from './file-node';

/**
 * The folders from the top of My Files down to `nodeId` (inclusive); empty for the top or an
 * unknown folder. A served cycle stops at the first repeat.
 */
export function folderPath(folders: readonly DriveFolder[], nodeId: string | null): DriveFolder[] {
  const byId = new Map(folders.map((folder) => [folder.nodeId, folder]));
  const path: DriveFolder[] = [];
  const seen = new Set<string>();
  let current = nodeId === null ? undefined : byId.get(nodeId);
  while (current !== undefined && !seen.has(current.nodeId)) {
    seen.add(current.nodeId);
    path.unshift(current);
    current = current.parentNodeId === null ? undefined : byId.get(current.parentNodeId);
  }
  return path;
}

/** Every folder below `nodeId` (not itself), at any depth. */
export function foldersBelow(folders: readonly DriveFolder[], nodeId: string): Set<string> {
  const below = new Set<string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const folder of folders) {
      if (below.has(folder.nodeId) || folder.parentNodeId === null) continue;
      if (folder.parentNodeId === nodeId || below.has(folder.parentNodeId)) {
        below.add(folder.nodeId);
        grew = true;
      }
    }
  }
  return below;
}

/** The parent to wrap under: the drive key at the top, else an opened folder's key; null when it did not open. */
export function nodeParent(
  folders: readonly DriveFolder[],
  driveKey: CryptoKey | undefined,
  nodeId: string | null,
): NodeParent | null {
  if (nodeId === null) return driveKey === undefined ? null : { nodeId: null, key: driveKey };
  const key = folders.find((folder) => folder.nodeId === nodeId)?.folderKey;
  return key === undefined ? null : { nodeId, key };
}
