import { FOLDER_DEPTH_MAX } from '@coffer/contracts';
import { describe, expect, it } from 'vitest';
import { filesOfDirectoryInput, filesOfDrop, type FolderFile } from './folder-entries';
import { folderUploadProblem, planFolderUpload } from './folder-plan';

const file = (name: string, text = name) => new File([text], name);

/** A dropped directory as `webkitGetAsEntry` gives it, with `readEntries` answering in pages of two. */
function directory(name: string, children: FileSystemEntry[]): FileSystemDirectoryEntry {
  return {
    name,
    isFile: false,
    isDirectory: true,
    createReader: () => {
      let at = 0;
      return {
        readEntries: (resolve: (entries: FileSystemEntry[]) => void) => {
          const page = children.slice(at, at + 2);
          at += page.length;
          resolve(page);
        },
      };
    },
  } as unknown as FileSystemDirectoryEntry;
}
function fileEntry(name: string): FileSystemFileEntry {
  return {
    name,
    isFile: true,
    isDirectory: false,
    file: (resolve: (file: File) => void) => {
      resolve(file(name));
    },
  } as unknown as FileSystemFileEntry;
}
function items(entries: FileSystemEntry[]): DataTransferItemList {
  return entries.map((entry) => ({
    kind: 'file',
    webkitGetAsEntry: () => entry,
  })) as unknown as DataTransferItemList;
}

describe('folder upload', () => {
  it('walks a dropped tree, every page of readEntries, empty folders kept', async () => {
    const tree = directory('Trip', [
      fileEntry('a.txt'),
      fileEntry('b.txt'),
      fileEntry('c.txt'),
      directory('day 1', [fileEntry('photo.jpg')]),
      directory('empty', []),
    ]);
    const found = await filesOfDrop(items([tree, fileEntry('loose.txt')]));
    const paths = found.map((entry) => entry.path.join('/'));
    expect(paths).toEqual([
      'Trip/a.txt',
      'Trip/b.txt',
      'Trip/c.txt',
      'Trip/day 1/photo.jpg',
      'Trip/empty/',
      'loose.txt',
    ]);
    const plan = planFolderUpload(found);
    expect(plan.folders.map((folder) => folder.name)).toEqual(['Trip', 'day 1', 'empty']);
    // Parents before children; the empty folder has no file.
    expect(plan.folders[1]?.parentKey).toBe(plan.folders[0]?.key);
    expect(plan.files.map((entry) => entry.file.name)).toEqual([
      'a.txt',
      'b.txt',
      'c.txt',
      'photo.jpg',
      'loose.txt',
    ]);
    expect(plan.files.at(-1)?.folderKey).toBeNull();
  });

  it('reads webkitRelativePath from a chosen folder', () => {
    const chosen = new File(['x'], 'x.txt');
    Object.defineProperty(chosen, 'webkitRelativePath', { value: 'Top/sub/x.txt' });
    expect(filesOfDirectoryInput([chosen])[0]?.path).toEqual(['Top', 'sub', 'x.txt']);
  });

  it('is one item: more than 10 files pass, the server’s folder limits do not', () => {
    const many: FolderFile[] = Array.from({ length: 25 }, (_, i) => ({
      path: ['Big', `f${i}.txt`],
      file: file(`f${i}`),
    }));
    expect(folderUploadProblem(many, 0, 0)).toBeNull();
    expect(folderUploadProblem(many, 10_000, 0)).toMatch(/at most 10,000 folders/);
    const deep: FolderFile[] = [
      { path: [...Array.from({ length: FOLDER_DEPTH_MAX }, (_, i) => `d${i}`), 'x.txt'], file: file('x') },
    ];
    expect(folderUploadProblem(deep, 0, 0)).toBeNull();
    expect(folderUploadProblem(deep, 0, 1)).toMatch(/nested at most/);
    expect(folderUploadProblem([], 0, 0)).toMatch(/empty/);
  });
});
