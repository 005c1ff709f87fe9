import { zipEntryPath } from '@coffer/crypto';

/**
 * Safe, distinct ZIP entry paths for nodes given by their path segments (folder names, then the
 * file's name): each segment neutralised by `zipEntryPath` (no `..`, no separators inside a name,
 * no controls or bidi overrides, no drive letters), and a name already taken in the same folder
 * (ignoring case, as Windows and macOS do) gets " (2)", " (3)"… before its extension.
 */
export function uniqueEntryPaths(nodes: readonly (readonly string[])[]): string[] {
  const taken = new Set<string>();
  return nodes.map((segments) => {
    const path = zipEntryPath(segments);
    let candidate = path;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = numbered(path, n);
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

function numbered(path: string, n: number): string {
  const slash = path.lastIndexOf('/');
  const folder = path.slice(0, slash + 1);
  const name = path.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${folder}${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${folder}${name} (${n})`;
}
