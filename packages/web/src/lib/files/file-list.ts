import {
  DEFAULT_SORT_ORDER,
  FILE_TYPE_FILTER_ALL,
  matchesFileTypeFilter,
  parseDateTime,
  type FileTypeFilter,
  type SortOrder,
} from '@coffer/contracts';

/** What a file list needs to search, filter and sort; both FileView and SharedFileView fit. */
export interface ListedFile {
  readonly title: string;
  readonly name: string;
  readonly datetime: string;
  readonly uploadedAt: string;
  /** Shared files: the sender's email, searched too. */
  readonly owner?: string;
}

/** The controls above My Files and Shared With Me. */
export interface FileListControls {
  readonly search: string;
  readonly type: FileTypeFilter;
  readonly order: SortOrder;
}

export const defaultFileListControls: FileListControls = {
  search: '',
  type: FILE_TYPE_FILTER_ALL,
  order: DEFAULT_SORT_ORDER,
};

/** Case- and accent-insensitive form for matching. */
function normalise(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

/**
 * The files whose title (or, for shared files, sender) contains the search text, ignoring case,
 * accents and surrounding spaces. An empty search keeps every file; order is kept.
 */
export function searchFiles<T extends ListedFile>(files: readonly T[], search: string): T[] {
  const needle = normalise(search);
  if (needle === '') return [...files];
  return files.filter(
    (file) =>
      normalise(file.title).includes(needle) ||
      (file.owner !== undefined && normalise(file.owner).includes(needle)),
  );
}

/** The files of one type group (spec section 3), by the extension of their name; 'all' keeps all. */
export function filterFilesByType<T extends ListedFile>(files: readonly T[], type: FileTypeFilter): T[] {
  return files.filter((file) => matchesFileTypeFilter(file.name, type));
}

/** The display datetime as epoch ms; null when it cannot be read. */
function timeOf(file: ListedFile): number | null {
  return parseDateTime(file.datetime)?.getTime() ?? null;
}

/**
 * Newest or oldest first by the displayed datetime (spec: "parsed for sorting"). Files whose date
 * cannot be read go last either way; within the same second the server's full timestamp decides,
 * then the title, so the order is stable.
 */
export function sortFiles<T extends ListedFile>(files: readonly T[], order: SortOrder): T[] {
  const direction = order === 'newest' ? -1 : 1;
  return [...files].sort((a, b) => {
    const ta = timeOf(a);
    const tb = timeOf(b);
    if (ta === null || tb === null) {
      if (ta !== tb) return ta === null ? 1 : -1;
    } else if (ta !== tb) {
      return (ta - tb) * direction;
    }
    if (a.uploadedAt !== b.uploadedAt) return (a.uploadedAt < b.uploadedAt ? -1 : 1) * direction;
    return a.title.localeCompare(b.title);
  });
}

/** Search, then type filter, then sort: what the grid shows. */
export function visibleFiles<T extends ListedFile>(files: readonly T[], controls: FileListControls): T[] {
  return sortFiles(filterFilesByType(searchFiles(files, controls.search), controls.type), controls.order);
}
