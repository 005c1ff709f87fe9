/** File-type groups by extension (spec section 3), for icons, colours and the type filter. */

export const fileTypes = [
  'image',
  'pdf',
  'word',
  'spreadsheet',
  'presentation',
  'text',
  'archive',
  'video',
  'audio',
  'code',
  'other',
] as const;
export type FileType = (typeof fileTypes)[number];

/** Extensions of each group, lower case, without the dot. `other` is everything else. */
export const fileTypeExtensions = {
  image: ['png', 'jpg', 'jpeg', 'gif', 'bmp', 'svg'],
  pdf: ['pdf'],
  word: ['doc', 'docx'],
  spreadsheet: ['xls', 'xlsx'],
  presentation: ['ppt', 'pptx'],
  text: ['txt', 'csv'],
  archive: ['zip', 'rar', '7z', 'iso'],
  video: ['mp4', 'mov', 'avi', 'mkv'],
  audio: ['mp3', 'wav', 'ogg'],
  code: ['html', 'css', 'js', 'json', 'xml'],
  other: [],
} as const satisfies Record<FileType, readonly string[]>;

export const fileTypeLabels = {
  image: 'Images',
  pdf: 'PDF',
  word: 'Word documents',
  spreadsheet: 'Spreadsheets',
  presentation: 'Presentations',
  text: 'Text',
  archive: 'Archives',
  video: 'Videos',
  audio: 'Audio',
  code: 'Code',
  other: 'Other',
} as const satisfies Record<FileType, string>;

const groupByExtension = new Map<string, FileType>(
  fileTypes.flatMap((type) => fileTypeExtensions[type].map((ext): [string, FileType] => [ext, type])),
);

/** The extension after the last dot, lower case; '' when the name has none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The group of a file name by its (case-insensitive) extension; 'other' when none matches. */
export function fileTypeOf(name: string): FileType {
  return groupByExtension.get(extensionOf(name)) ?? 'other';
}

export const FILE_TYPE_FILTER_ALL = 'all';
export type FileTypeFilter = FileType | typeof FILE_TYPE_FILTER_ALL;

/** Options of the file-type filter control: 'all' first, then every group. */
export const fileTypeFilterOptions: readonly { value: FileTypeFilter; label: string }[] = [
  { value: FILE_TYPE_FILTER_ALL, label: 'All types' },
  ...fileTypes.map((type) => ({ value: type, label: fileTypeLabels[type] })),
];

export function matchesFileTypeFilter(name: string, filter: FileTypeFilter): boolean {
  return filter === FILE_TYPE_FILTER_ALL || fileTypeOf(name) === filter;
}
