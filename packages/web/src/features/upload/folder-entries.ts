/** A file of a chosen or dropped folder, with its path inside the upload ("Trip/day 1/a.jpg"). */
export interface FolderFile {
  /** Folder names from the dropped folder down, then the file's name. */
  readonly path: readonly string[];
  readonly file: File;
}

/** Whether a drop carries at least one folder (files alone go to the ordinary drop zone). */
export function dropHasFolder(items: DataTransferItemList): boolean {
  return Array.from(items).some(
    (item) => item.kind === 'file' && item.webkitGetAsEntry()?.isDirectory === true,
  );
}

/**
 * The files of a drop, folders walked (`webkitGetAsEntry`, every page of `readEntries`): loose
 * files at the top, a folder's files under its name. Call synchronously from the drop handler:
 * the entries must be taken before the event ends.
 */
export function filesOfDrop(items: DataTransferItemList): Promise<FolderFile[]> {
  const entries = Array.from(items)
    .map((item) => (item.kind === 'file' ? item.webkitGetAsEntry() : null))
    .filter((entry): entry is FileSystemEntry => entry !== null);
  return Promise.all(entries.map((entry) => walk(entry, []))).then((lists) => lists.flat());
}

/** The files of `<input webkitdirectory>`: their `webkitRelativePath` cut into segments. */
export function filesOfDirectoryInput(files: readonly File[]): FolderFile[] {
  return files.map((file) => ({
    path: (file.webkitRelativePath === '' ? file.name : file.webkitRelativePath).split('/').filter(Boolean),
    file,
  }));
}

async function walk(entry: FileSystemEntry, parent: readonly string[]): Promise<FolderFile[]> {
  const path = [...parent, entry.name];
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => {
      (entry as FileSystemFileEntry).file(resolve, reject);
    });
    return [{ path, file }];
  }
  if (!entry.isDirectory) return [];
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  const children: FileSystemEntry[] = [];
  // readEntries answers in pages (100 in Chromium) until an empty one.
  for (;;) {
    const page = await new Promise<FileSystemEntry[]>((resolve, reject) => {
      reader.readEntries(resolve, reject);
    });
    if (page.length === 0) break;
    children.push(...page);
  }
  const lists = await Promise.all(children.map((child) => walk(child, path)));
  const files = lists.flat();
  // An empty folder still counts: a marker with no file keeps it in the plan.
  return files.length === 0 && children.length === 0 ? [{ path: [...path, ''], file: EMPTY_FOLDER }] : files;
}

/** Stands for an empty folder in a walk (never uploaded). */
export const EMPTY_FOLDER = new File([], '');
