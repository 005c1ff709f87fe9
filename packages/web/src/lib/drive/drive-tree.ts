import type { DriveFile, DriveFolder, DriveNode, RecordState } from './drive-nodes';

/** The children of one folder (or of the top, `null`). */
export interface DriveChildren {
  readonly folders: readonly DriveFolder[];
  readonly files: readonly DriveFile[];
}

/** The decrypted drive, as features read it. */
export interface DriveTree {
  readonly folders: readonly DriveFolder[];
  readonly files: readonly DriveFile[];
  /** Children per parent node id; `null` is the top of My Files. */
  readonly byParent: ReadonlyMap<string | null, DriveChildren>;
  /** Node record verdicts by file id or folder node id (`checking` until checked). */
  readonly records: ReadonlyMap<string, RecordState>;
  /** Every file and folder whose decrypted name contains `text` (case and accents ignored), in every folder. */
  search(text: string): DriveChildren;
}

const EMPTY: DriveChildren = { folders: [], files: [] };

/** Case- and accent-insensitive form for matching. */
export function searchForm(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

/** Builds the tree's indexes from opened nodes. */
export function buildDriveTree(
  files: readonly DriveFile[],
  folders: readonly DriveFolder[],
  records: ReadonlyMap<string, RecordState> = new Map(),
): DriveTree {
  const byParent = new Map<string | null, { folders: DriveFolder[]; files: DriveFile[] }>();
  const slot = (parent: string | null) => {
    let children = byParent.get(parent);
    if (children === undefined) {
      children = { folders: [], files: [] };
      byParent.set(parent, children);
    }
    return children;
  };
  const known = new Set(folders.map((folder) => folder.nodeId));
  // A node whose parent is not listed (deleted meanwhile, or served so) shows at the top.
  const parentOf = (node: DriveNode) =>
    node.parentNodeId !== null && known.has(node.parentNodeId) ? node.parentNodeId : null;
  for (const folder of folders) slot(parentOf(folder)).folders.push(folder);
  for (const file of files) slot(parentOf(file)).files.push(file);
  const forms = new Map<DriveNode, string>();
  const formOf = (node: DriveNode): string => {
    let form = forms.get(node);
    if (form === undefined) {
      form = searchForm(node.name);
      forms.set(node, form);
    }
    return form;
  };
  return {
    files,
    folders,
    byParent,
    records,
    search(text) {
      const needle = searchForm(text);
      if (needle === '') return byParent.get(null) ?? EMPTY;
      return {
        folders: folders.filter((folder) => formOf(folder).includes(needle)),
        files: files.filter((file) => formOf(file).includes(needle)),
      };
    },
  };
}
