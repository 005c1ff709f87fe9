import { describe, expect, it } from 'vitest';
import { utf8Bytes } from '../bytes.util.js';
import {
  MAX_DISPLAY_NAME_BYTES,
  sanitizeDisplayName,
  UNNAMED,
  zipEntryPath,
} from './display-name.sanitize.js';

describe('sanitizeDisplayName', () => {
  it('keeps ordinary names as typed', () => {
    for (const name of [
      'report.pdf',
      'Résumé 2026.pdf',
      '家族写真.jpg',
      'a b  c.txt',
      '👩‍👩‍👧 family.png',
      'Meeting: notes?.md',
    ]) {
      expect(sanitizeDisplayName(name)).toBe(name);
    }
  });

  it('neutralises path separators', () => {
    expect(sanitizeDisplayName('../../etc/passwd')).toBe('_.._etc_passwd');
    expect(sanitizeDisplayName('..\\..\\Windows\\win.ini')).toBe('_.._Windows_win.ini');
    expect(sanitizeDisplayName('/absolute')).toBe('_absolute');
    expect(sanitizeDisplayName('a/b')).toBe('a_b');
  });

  it('replaces control characters, C0 and C1', () => {
    expect(sanitizeDisplayName('a\u0000b\nc\rd\te\u001bf\u007fg\u0085h\u009fi')).toBe('a_b_c_d_e_f_g_h_i');
  });

  it('drops bidi overrides, embeddings, isolates and marks', () => {
    // "invoice‮fdp.exe" would show as "invoiceexe.pdf".
    expect(sanitizeDisplayName('invoice\u202efdp.exe')).toBe('invoicefdp.exe');
    const all = '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c';
    expect(sanitizeDisplayName(`a${all}b`)).toBe('ab');
  });

  it('trims leading and trailing dots and spaces: never ".", "..", hidden or empty', () => {
    expect(sanitizeDisplayName('..')).toBe(UNNAMED);
    expect(sanitizeDisplayName('.')).toBe(UNNAMED);
    expect(sanitizeDisplayName(' . ')).toBe(UNNAMED);
    expect(sanitizeDisplayName('')).toBe(UNNAMED);
    expect(sanitizeDisplayName('\u202e')).toBe(UNNAMED);
    expect(sanitizeDisplayName('.bashrc')).toBe('bashrc');
    expect(sanitizeDisplayName('  name.txt. . ')).toBe('name.txt');
    expect(sanitizeDisplayName('.\u202e.')).toBe(UNNAMED);
  });

  it('turns lone surrogates into U+FFFD', () => {
    expect(sanitizeDisplayName('a\ud800b\udc00')).toBe('a\ufffdb\ufffd');
  });

  it('caps 10,000 characters at 255 UTF-8 bytes, keeping the start and the extension', () => {
    const out = sanitizeDisplayName(`${'a'.repeat(10_000)}.pdf`);
    expect(utf8Bytes(out).length).toBeLessThanOrEqual(MAX_DISPLAY_NAME_BYTES);
    expect(out).toMatch(/^a+….pdf$/);
    expect(utf8Bytes(out).length).toBe(MAX_DISPLAY_NAME_BYTES);
  });

  it('counts bytes, not characters, and never splits a surrogate pair', () => {
    const out = sanitizeDisplayName(`${'😀'.repeat(300)}.txt`);
    expect(utf8Bytes(out).length).toBeLessThanOrEqual(MAX_DISPLAY_NAME_BYTES);
    expect(out.endsWith('….txt')).toBe(true);
    expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(Array.from(out.slice(0, -5)).every((c) => c === '😀')).toBe(true);
  });

  it('drops an overlong "extension" rather than keep it whole', () => {
    const out = sanitizeDisplayName(`name.${'x'.repeat(400)}`);
    expect(utf8Bytes(out).length).toBeLessThanOrEqual(MAX_DISPLAY_NAME_BYTES);
    expect(out.endsWith('…')).toBe(true);
  });

  it('is idempotent on nasty names', () => {
    for (const name of ['../x', ' .a\u202e/b. ', `${'é'.repeat(500)}.tar.gz`, '\u0000', 'C:\\x']) {
      const once = sanitizeDisplayName(name);
      expect(sanitizeDisplayName(once)).toBe(once);
    }
  });
});

describe('zipEntryPath', () => {
  it('joins sanitized segments: no zip-slip, no absolute path, no drive letter', () => {
    const cases: [string[], string][] = [
      [['Photos', '2026', 'a.jpg'], 'Photos/2026/a.jpg'],
      [['..', '..', 'etc', 'passwd'], `${UNNAMED}/${UNNAMED}/etc/passwd`],
      [['/', 'root.txt'], '_/root.txt'],
      [['C:', 'Windows', 'x.dll'], 'C_/Windows/x.dll'],
      [['a/../../b', 'c'], 'a_.._.._b/c'],
      [['what?', '<x>|"y"*.txt'], 'what_/_x___y__.txt'],
      [[], UNNAMED],
    ];
    for (const [segments, expected] of cases) expect(zipEntryPath(segments)).toBe(expected);
  });

  it('never yields a "." or ".." segment or a leading slash, whatever the input', () => {
    const nasty = ['..', '.', '', '/', '\\', ' .. ', '.\u202e.', '..\u0000', 'a/..', '...', '\u200f..'];
    for (const a of nasty) {
      for (const b of nasty) {
        const path = zipEntryPath([a, b]);
        expect(path.startsWith('/')).toBe(false);
        for (const segment of path.split('/')) {
          expect(['', '.', '..']).not.toContain(segment);
          expect(segment).not.toMatch(/^[. ]|[. ]$/);
        }
      }
    }
  });
});
