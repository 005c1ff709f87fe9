import { describe, expect, it } from 'vitest';
import {
  extensionOf,
  fileTypeExtensions,
  fileTypeFilterOptions,
  fileTypeOf,
  fileTypes,
  matchesFileTypeFilter,
} from './file-types.js';

describe('fileTypeOf', () => {
  it.each([
    ['photo.png', 'image'],
    ['a.JPG', 'image'],
    ['a.jpeg', 'image'],
    ['a.gif', 'image'],
    ['a.bmp', 'image'],
    ['logo.SVG', 'image'],
    ['report.pdf', 'pdf'],
    ['a.doc', 'word'],
    ['a.docx', 'word'],
    ['a.xls', 'spreadsheet'],
    ['a.xlsx', 'spreadsheet'],
    ['a.ppt', 'presentation'],
    ['a.pptx', 'presentation'],
    ['a.txt', 'text'],
    ['a.csv', 'text'],
    ['a.zip', 'archive'],
    ['a.rar', 'archive'],
    ['a.7z', 'archive'],
    ['a.iso', 'archive'],
    ['a.mp4', 'video'],
    ['a.mov', 'video'],
    ['a.avi', 'video'],
    ['a.mkv', 'video'],
    ['a.mp3', 'audio'],
    ['a.wav', 'audio'],
    ['a.ogg', 'audio'],
    ['a.html', 'code'],
    ['a.css', 'code'],
    ['a.js', 'code'],
    ['a.json', 'code'],
    ['a.xml', 'code'],
    ['archive.tar.gz', 'other'],
    ['README', 'other'],
    ['a.', 'other'],
  ])('%s → %s', (name, type) => {
    expect(fileTypeOf(name)).toBe(type);
  });

  it('covers every listed extension', () => {
    for (const type of fileTypes) {
      for (const ext of fileTypeExtensions[type]) expect(fileTypeOf(`x.${ext.toUpperCase()}`)).toBe(type);
    }
  });

  it('reads the last extension', () => {
    expect(extensionOf('a.b.PDF')).toBe('pdf');
    expect(extensionOf('noext')).toBe('');
  });
});

describe('file type filter', () => {
  it('lists all, then every group with a label', () => {
    expect(fileTypeFilterOptions.map((o) => o.value)).toEqual(['all', ...fileTypes]);
    expect(fileTypeFilterOptions.find((o) => o.value === 'word')?.label).toBe('Word documents');
  });

  it('matches names against a filter', () => {
    expect(matchesFileTypeFilter('a.png', 'all')).toBe(true);
    expect(matchesFileTypeFilter('a.png', 'image')).toBe(true);
    expect(matchesFileTypeFilter('a.png', 'pdf')).toBe(false);
  });
});
