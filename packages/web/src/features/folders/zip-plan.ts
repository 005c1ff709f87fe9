import { sanitizeDisplayName } from '@coffer/crypto';
import { folderPath, foldersBelow, type DriveFile, type DriveFolder } from '../../lib/drive';

/** What goes into an archive: files with their paths inside it, and the folders (empty ones kept). */
export interface ZipPlan {
  readonly name: string;
  readonly files: readonly { path: string[]; file: DriveFile }[];
  readonly directories: readonly string[][];
}

/**
 * The archive of a selection: each selected folder with its whole tree under its own name, and each
 * selected file at the top (unless it is already inside a selected folder). Unreadable nodes are
 * left out (they cannot be opened). Named after the one folder, else `fallbackName`.
 */
export function zipPlan(
  selected: { files: readonly DriveFile[]; folders: readonly DriveFolder[] },
  all: { files: readonly DriveFile[]; folders: readonly DriveFolder[] },
  fallbackName: string,
): ZipPlan {
  const directories: string[][] = [];
  const files: { path: string[]; file: DriveFile }[] = [];
  const covered = new Set<string>();
  for (const root of selected.folders) {
    if (root.state !== 'open' || covered.has(root.nodeId)) continue;
    const inside = foldersBelow(all.folders, root.nodeId);
    inside.add(root.nodeId);
    for (const id of inside) covered.add(id);
    const relative = (parent: string | null): string[] => {
      const path = folderPath(all.folders, parent);
      const at = path.findIndex((folder) => folder.nodeId === root.nodeId);
      return path.slice(at).map((folder) => folder.name);
    };
    for (const folder of all.folders) {
      if (inside.has(folder.nodeId) && folder.state === 'open') directories.push(relative(folder.nodeId));
    }
    for (const file of all.files) {
      if (file.parentNodeId !== null && inside.has(file.parentNodeId) && file.state !== 'unreadable')
        files.push({ path: [...relative(file.parentNodeId), file.name], file });
    }
  }
  for (const file of selected.files) {
    if (file.state === 'unreadable') continue;
    if (file.parentNodeId !== null && covered.has(file.parentNodeId)) continue;
    if (files.some((entry) => entry.file.fileId === file.fileId)) continue;
    files.push({ path: [file.name], file });
  }
  directories.sort((a, b) => a.length - b.length);
  const only = selected.folders.length === 1 && selected.files.length === 0 ? selected.folders[0] : undefined;
  return { name: `${sanitizeDisplayName(only?.name ?? fallbackName)}.zip`, files, directories };
}
