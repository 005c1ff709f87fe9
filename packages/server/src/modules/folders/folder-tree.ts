/**
 * One owner's folders as a tree of node ids: each folder's parent (null at the top). Read whole (at most
 * FOLDERS_PER_USER_MAX small rows) under the owner's lock, so depth, subtree and cycle checks are plain
 * in-memory walks that read the same on SQLite and PostgreSQL.
 */
export type FolderTree = ReadonlyMap<string, string | null>;

/** Depth of a folder: 1 at the top, 0 for the top itself (null); -1 when it is not in the tree. */
export function depthOf(tree: FolderTree, nodeId: string | null): number {
  let depth = 0;
  let at = nodeId;
  while (at !== null) {
    const parent = tree.get(at);
    if (parent === undefined) return -1;
    depth += 1;
    // A cycle cannot be stored (moves under the own subtree are refused); stop anyway.
    if (depth > tree.size) return -1;
    at = parent;
  }
  return depth;
}

/** The folder and every folder below it, the folder first (breadth first). */
export function subtreeOf(tree: FolderTree, rootId: string): string[] {
  const children = new Map<string, string[]>();
  for (const [id, parent] of tree) {
    if (parent === null) continue;
    const list = children.get(parent);
    if (list === undefined) children.set(parent, [id]);
    else list.push(id);
  }
  const out = [rootId];
  // An array iterator also visits what is pushed while it runs: a breadth-first walk.
  for (const id of out) out.push(...(children.get(id) ?? []));
  return out;
}

/** How many levels the subtree of `rootId` spans: 1 for a folder without subfolders. */
export function heightOf(tree: FolderTree, rootId: string): number {
  const base = depthOf(tree, rootId);
  let height = 1;
  for (const id of subtreeOf(tree, rootId)) height = Math.max(height, depthOf(tree, id) - base + 1);
  return height;
}

/** Splits `items` into runs of at most `size` (bound parameter lists stay well within both databases' limits). */
export function chunked<T>(items: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
