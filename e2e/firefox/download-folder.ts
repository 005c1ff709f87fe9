import { open, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from '@playwright/test';

/**
 * A Firefox download folder as a person would look at it. While Firefox saves `name` it writes
 * `name.<random>.part` and holds an empty `name` in place; a finished download is `name` at its
 * full size with no `.part` left. A download whose stream fails keeps both (seen with firefox-esr
 * 153: the empty placeholder and the partial data in the `.part` stay, the download is listed as
 * failed), unlike Chromium, which deletes what it wrote.
 */

export interface FolderEntry {
  readonly name: string;
  readonly size: number;
}

/**
 * Every entry in the folder with its size, by name. An entry gone between the listing and its size
 * (Firefox renames the `.part` away as the download completes) is left out, not an error: that
 * race once failed a fast benchmark download.
 */
export async function entries(dir: string): Promise<FolderEntry[]> {
  const names = (await readdir(dir)).sort();
  const sized = await Promise.all(
    names.map(async (name) => {
      const found = await stat(join(dir, name)).catch((error: unknown) => {
        if ((error as { code?: string }).code === 'ENOENT') return null;
        throw error;
      });
      return found === null ? null : { name, size: found.size };
    }),
  );
  return sized.filter((entry): entry is FolderEntry => entry !== null);
}

/** What a person would open as a saved download: not an in-progress `.part`, not an empty placeholder. */
export async function savedFiles(dir: string): Promise<FolderEntry[]> {
  return (await entries(dir)).filter((entry) => !entry.name.endsWith('.part') && entry.size > 0);
}

/** Firefox's in-progress (or failed) `.part` files. */
export async function partialFiles(dir: string): Promise<FolderEntry[]> {
  return (await entries(dir)).filter((entry) => entry.name.endsWith('.part'));
}

/** Waits until `dir/name` is saved whole (`size` bytes, nothing in progress); returns its path. */
export async function waitForSavedFile(
  dir: string,
  name: string,
  size: number,
  timeout = 240_000,
): Promise<string> {
  await expect
    .poll(() => entries(dir), { message: `${name} (${size} bytes) saved whole in ${dir}`, timeout })
    .toEqual(expect.arrayContaining([{ name, size }]));
  await expect.poll(() => partialFiles(dir), { message: `no download in progress in ${dir}` }).toEqual([]);
  return join(dir, name);
}

/** Removes everything in the folder, keeping the folder (Firefox saves into it). */
export async function emptyFolder(dir: string): Promise<void> {
  for (const name of await readdir(dir)) await rm(join(dir, name), { recursive: true, force: true });
}

const COMPARE_BLOCK = 4 * 1024 * 1024;

/** Whether the bytes of `path` are the first bytes of `originalPath` (read in blocks). */
export async function isPrefixOf(path: string, originalPath: string): Promise<boolean> {
  const [part, original] = await Promise.all([open(path, 'r'), open(originalPath, 'r')]);
  try {
    const a = Buffer.alloc(COMPARE_BLOCK);
    const b = Buffer.alloc(COMPARE_BLOCK);
    for (let offset = 0; ; offset += COMPARE_BLOCK) {
      const { bytesRead } = await part.read(a, 0, COMPARE_BLOCK, offset);
      if (bytesRead === 0) return true;
      const { bytesRead: originalRead } = await original.read(b, 0, bytesRead, offset);
      if (originalRead !== bytesRead || !a.subarray(0, bytesRead).equals(b.subarray(0, bytesRead)))
        return false;
    }
  } finally {
    await Promise.all([part.close(), original.close()]);
  }
}
