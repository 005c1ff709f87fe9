import { utf8Bytes } from '../bytes.util.js';

/** Longest sanitized name in UTF-8 bytes: what ext4, APFS and NTFS-by-way-of-most-tools accept for one path segment. */
export const MAX_DISPLAY_NAME_BYTES = 255;

/** What an empty (or all-dots) name shows as. */
export const UNNAMED = 'unnamed';

const ELLIPSIS = '…';
/** An extension is kept through truncation when it is this short (in code points, dot included). */
const MAX_KEPT_EXTENSION = 16;

// Path separators and every C0/C1 control (tab and newline included) become '_'.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const REPLACED = /[/\\\u0000-\u001f\u007f-\u009f]/g;
// Bidi embeddings, overrides and isolates, LRM/RLM and the Arabic letter mark: invisible, they
// reorder what is shown ("invoice\u202Efdp.exe" reads as "invoiceexe.pdf"), so they go.
const REMOVED = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
// Characters Windows refuses in a path segment (and ':' would make "C:" a drive in a ZIP path).
const WINDOWS_RESERVED = /[<>:"|?*]/g;

/**
 * A name safe to show and to use as ONE path segment (a ZIP entry's, a saved file's): path
 * separators and control characters become `_`, bidi controls are dropped, leading and trailing
 * dots and spaces are trimmed (so never `.` or `..`, never hidden), an empty result is
 * {@link UNNAMED}, and a name longer than {@link MAX_DISPLAY_NAME_BYTES} UTF-8 bytes keeps its
 * start and its extension around a `…`. Never splits a surrogate pair.
 */
export function sanitizeDisplayName(name: string): string {
  const cleaned = Array.from(name.replace(REMOVED, '').replace(REPLACED, '_'))
    // A lone surrogate would not survive UTF-8 (TextEncoder writes U+FFFD): make that visible here.
    .map((char) => (char.length === 1 && /[\ud800-\udfff]/.test(char) ? '\ufffd' : char))
    .join('')
    .replace(/^[. ]+|[. ]+$/g, '');
  if (cleaned === '') return UNNAMED;
  return truncateMiddle(cleaned);
}

/**
 * A ZIP entry path from a node's path in the tree (folder names, then the file's name): each
 * segment through {@link sanitizeDisplayName}, then the characters Windows refuses replaced by `_`,
 * joined with `/`. Never absolute, never a `..` segment, never a drive letter: no zip-slip.
 */
export function zipEntryPath(segments: readonly string[]): string {
  if (segments.length === 0) return UNNAMED;
  return segments.map((segment) => sanitizeDisplayName(segment).replace(WINDOWS_RESERVED, '_')).join('/');
}

function truncateMiddle(name: string): string {
  if (utf8Bytes(name).length <= MAX_DISPLAY_NAME_BYTES) return name;
  const chars = Array.from(name);
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? Array.from(name.slice(dot)) : [];
  const tail = extension.length > 1 && extension.length <= MAX_KEPT_EXTENSION ? extension : [];
  const budget = MAX_DISPLAY_NAME_BYTES - byteLength(tail) - utf8Bytes(ELLIPSIS).length;
  let head = '';
  let used = 0;
  for (const char of chars.slice(0, chars.length - tail.length)) {
    const size = utf8Bytes(char).length;
    if (used + size > budget) break;
    head += char;
    used += size;
  }
  // The name was trimmed before, so the head starts with neither a dot nor a space; the budget
  // (at least 188 bytes) always leaves it some characters.
  return `${head}${ELLIPSIS}${tail.join('')}`;
}

function byteLength(chars: readonly string[]): number {
  return utf8Bytes(chars.join('')).length;
}
