import { FOLDER_DEPTH_MAX, FOLDERS_PER_USER_MAX, MAX_FILE_SIZE } from '@coffer/contracts';
import { EMPTY_FOLDER, type FolderFile } from './folder-entries';

/** One folder to create, parents before children, with the id chosen here. */
export interface PlannedFolder {
  readonly key: string;
  readonly name: string;
  /** The planned parent's key, or null for the upload's target folder. */
  readonly parentKey: string | null;
}

export interface FolderUploadPlan {
  readonly folders: readonly PlannedFolder[];
  /** Each file with the planned folder it goes in (null: the target folder itself). */
  readonly files: readonly { readonly file: File; readonly folderKey: string | null }[];
}

/** Why a folder upload is refused before anything is created, or null. */
export function folderUploadProblem(
  entries: readonly FolderFile[],
  existingFolders: number,
  targetDepth: number,
): string | null {
  const plan = planFolderUpload(entries);
  if (plan.files.length === 0 && plan.folders.length === 0) return 'The folder is empty.';
  if (existingFolders + plan.folders.length > FOLDERS_PER_USER_MAX)
    return `A drive holds at most ${FOLDERS_PER_USER_MAX.toLocaleString('en')} folders.`;
  const deepest = Math.max(0, ...entries.map((entry) => entry.path.length - 1));
  if (targetDepth + deepest > FOLDER_DEPTH_MAX)
    return `Folders may be nested at most ${FOLDER_DEPTH_MAX} deep.`;
  if (plan.files.some(({ file }) => file.size > MAX_FILE_SIZE)) return 'A file in this folder is too big.';
  return null;
}

/**
 * The folders to create for a folder upload (one per distinct folder path, parents first) and where
 * each file goes. Keys are the joined paths; a name is kept as it came from the system.
 */
export function planFolderUpload(entries: readonly FolderFile[]): FolderUploadPlan {
  const folders = new Map<string, PlannedFolder>();
  const files: { file: File; folderKey: string | null }[] = [];
  for (const entry of entries) {
    const segments = entry.path.slice(0, -1);
    let parentKey: string | null = null;
    for (let depth = 0; depth < segments.length; depth++) {
      const key = JSON.stringify(segments.slice(0, depth + 1));
      if (!folders.has(key)) folders.set(key, { key, name: segments[depth] ?? '', parentKey });
      parentKey = key;
    }
    if (entry.file !== EMPTY_FOLDER) files.push({ file: entry.file, folderKey: parentKey });
  }
  return { folders: [...folders.values()], files };
}
