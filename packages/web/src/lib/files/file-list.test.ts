import { describe, expect, it } from 'vitest';
import type { FileListItem, SharedFileItem } from '@coffer/contracts';
import { toFileView, toSharedFileView, type FileView } from './file-views';
import {
  defaultFileListControls,
  filterFilesByType,
  searchFiles,
  sortFiles,
  visibleFiles,
} from './file-list';

function item(name: string, uploadedAt: string, overrides: Partial<FileListItem> = {}): FileListItem {
  return {
    fileId: `id-${name}`,
    name,
    contentType: 'application/octet-stream',
    isEncrypted: true,
    size: 1536,
    uploadedAt,
    ownerId: 'owner',
    ...overrides,
  };
}

const titles = (files: readonly { title: string }[]) => files.map((f) => f.title);

describe('file views', () => {
  it('derives type, display size and day/month/year datetime', () => {
    const view = toFileView(item('Report.PDF', new Date(2024, 1, 3, 4, 5, 6).toISOString()));
    expect(view).toMatchObject({
      id: 'id-Report.PDF',
      title: 'Report.PDF',
      fileType: 'pdf',
      size: '1.50 KB',
      sizeBytes: 1536,
      datetime: '03/02/2024 04:05:06',
    });
  });

  it('falls back to a stand-in title for a blank name', () => {
    expect(toFileView(item('   ', '2024-01-01T00:00:00Z')).title).toBe('Untitled file');
  });

  it('reads a shared item with its sender', () => {
    const shared: SharedFileItem = {
      fileId: 'f1',
      owner: 'ada@example.com',
      file: {
        name: 'song.mp3',
        contentType: 'audio/mpeg',
        size: 0,
        uploadedAt: '2024-01-01T00:00:00Z',
        isEncrypted: true,
      },
    };
    expect(toSharedFileView(shared)).toMatchObject({
      id: 'f1',
      owner: 'ada@example.com',
      fileType: 'audio',
      size: '0 Bytes',
    });
  });
});

describe('search, filter and sort', () => {
  const files: FileView[] = [
    toFileView(item('holiday.JPG', new Date(2024, 5, 1, 10, 0, 0).toISOString())),
    toFileView(item('Résumé.docx', new Date(2023, 11, 31, 23, 59, 59).toISOString())),
    toFileView(item('notes.txt', new Date(2024, 0, 15, 8, 30, 0).toISOString())),
    toFileView(item('archive.tar.gz', new Date(2022, 6, 4, 12, 0, 0).toISOString())),
  ];

  it('searches titles ignoring case, accents and spaces', () => {
    expect(titles(searchFiles(files, '  RESUME '))).toEqual(['Résumé.docx']);
    expect(titles(searchFiles(files, 'OT'))).toEqual(['notes.txt']);
    expect(searchFiles(files, '')).toHaveLength(4);
    expect(searchFiles(files, 'nothing')).toEqual([]);
  });

  it('searches the sender of shared files', () => {
    const [holiday, resume] = files as [FileView, FileView];
    const shared = [
      { ...holiday, owner: 'grace@example.com' },
      { ...resume, owner: 'alan@example.com' },
    ];
    expect(titles(searchFiles(shared, 'grace@'))).toEqual(['holiday.JPG']);
  });

  it('filters by the spec file type groups', () => {
    expect(titles(filterFilesByType(files, 'image'))).toEqual(['holiday.JPG']);
    expect(titles(filterFilesByType(files, 'word'))).toEqual(['Résumé.docx']);
    expect(titles(filterFilesByType(files, 'other'))).toEqual(['archive.tar.gz']);
    expect(filterFilesByType(files, 'all')).toHaveLength(4);
    expect(filterFilesByType(files, 'video')).toEqual([]);
  });

  it('sorts newest first by default and oldest first on request, across years and months', () => {
    expect(titles(visibleFiles(files, defaultFileListControls))).toEqual([
      'holiday.JPG',
      'notes.txt',
      'Résumé.docx',
      'archive.tar.gz',
    ]);
    expect(titles(sortFiles(files, 'oldest'))).toEqual([
      'archive.tar.gz',
      'Résumé.docx',
      'notes.txt',
      'holiday.JPG',
    ]);
  });

  it('parses the displayed day/month/year (not month/day) for sorting', () => {
    // 02/03 is 2 March, later than 03/02 (3 February); a month/day reading would order them the other way.
    const a = { title: 'a', name: 'a', datetime: '02/03/2024 00:00:00', uploadedAt: 'x' };
    const b = { title: 'b', name: 'b', datetime: '03/02/2024 00:00:00', uploadedAt: 'x' };
    expect(titles(sortFiles([b, a], 'newest'))).toEqual(['a', 'b']);
  });

  it('puts unreadable dates last and breaks same-second ties by the full timestamp', () => {
    const same = '01/01/2024 10:00:00';
    const early = { title: 'early', name: 'e', datetime: same, uploadedAt: '2024-01-01T10:00:00.100Z' };
    const late = { title: 'late', name: 'l', datetime: same, uploadedAt: '2024-01-01T10:00:00.900Z' };
    const broken = { title: 'broken', name: 'b', datetime: '', uploadedAt: '2025-01-01T00:00:00Z' };
    expect(titles(sortFiles([broken, early, late], 'newest'))).toEqual(['late', 'early', 'broken']);
    expect(titles(sortFiles([broken, late, early], 'oldest'))).toEqual(['early', 'late', 'broken']);
  });

  it('combines search, type and order', () => {
    expect(titles(visibleFiles(files, { search: 'e', type: 'all', order: 'oldest' }))).toEqual([
      'archive.tar.gz',
      'Résumé.docx',
      'notes.txt',
    ]);
    expect(titles(visibleFiles(files, { search: 'e', type: 'text', order: 'newest' }))).toEqual([
      'notes.txt',
    ]);
  });
});
