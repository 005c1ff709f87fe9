import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { crc32 } from './crc32';
import { uniqueEntryPaths } from './entry-names';
import { centralHeader, dataDescriptor, endRecords, localHeader, MAX_U32 } from './zip-records';
import { ZipWriter } from './zip-writer';

const dir = mkdtempSync(join(tmpdir(), 'coffer-zip-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const bytesOf = (text: string) => new TextEncoder().encode(text);

/** Writes an archive to memory, piece by piece as the writer emits it. */
async function archive(
  files: readonly { path: string; data: Uint8Array<ArrayBuffer>; pieces?: number }[],
  options: { forceZip64?: boolean; directories?: string[] } = {},
): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const writer = new ZipWriter(async (bytes) => {
    parts.push(bytes.slice());
    await Promise.resolve();
  }, options);
  for (const directory of options.directories ?? []) await writer.directory(directory);
  for (const file of files) {
    await writer.entry(file.path, { size: file.data.length, modified: new Date(2026, 10, 27, 6, 0, 0) });
    const pieces = file.pieces ?? 1;
    const step = Math.ceil(file.data.length / pieces) || 1;
    for (let at = 0; at < file.data.length; at += step) await writer.write(file.data.slice(at, at + step));
    await writer.endEntry();
  }
  await writer.finish();
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  expect(writer.bytesWritten).toBe(total);
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Python's zipfile: tests every CRC and lists name → sha-less content as hex. */
function pythonRead(path: string): Record<string, string> {
  const script = [
    'import sys, zipfile, json',
    'z = zipfile.ZipFile(sys.argv[1])',
    'bad = z.testzip()',
    'assert bad is None, bad',
    'print(json.dumps({i.filename: z.read(i).hex() for i in z.infolist()}))',
  ].join('\n');
  return JSON.parse(execFileSync('python3', ['-c', script, path], { encoding: 'utf8' })) as Record<
    string,
    string
  >;
}

/**
 * Walks the archive from the front as a streaming reader does (local header, data, data
 * descriptor, next), and returns each entry's CRC and size from its data descriptor: the readers
 * above trust the central directory, so this checks what a streaming unzip relies on.
 */
function walkLocal(zip: Uint8Array): { name: string; crc: number; size: number }[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const found: { name: string; crc: number; size: number }[] = [];
  let at = 0;
  while (view.getUint32(at, true) === 0x04034b50) {
    const nameLength = view.getUint16(at + 26, true);
    const extraLength = view.getUint16(at + 28, true);
    const name = new TextDecoder().decode(zip.subarray(at + 30, at + 30 + nameLength));
    const zip64 = extraLength > 0 && view.getUint16(at + 30 + nameLength, true) === 0x0001;
    const dataAt = at + 30 + nameLength + extraLength;
    // STORE: the descriptor follows the data, whose length the test knows.
    const expected = expectedSizes.get(name) ?? 0;
    const descriptorAt = dataAt + expected;
    expect(view.getUint32(descriptorAt, true)).toBe(0x08074b50);
    const crc = view.getUint32(descriptorAt + 4, true);
    const size = zip64
      ? Number(view.getBigUint64(descriptorAt + 8, true))
      : view.getUint32(descriptorAt + 8, true);
    expect(crc32(zip.subarray(dataAt, dataAt + size))).toBe(crc);
    found.push({ name, crc, size });
    at = descriptorAt + (zip64 ? 24 : 16);
  }
  expect(view.getUint32(at, true)).toBe(0x02014b50);
  return found;
}
const expectedSizes = new Map<string, number>();

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('ZipWriter', () => {
  const random = new Uint8Array(200_000);
  for (let i = 0; i < random.length; i++) random[i] = (i * 7919 + (i >> 3)) & 0xff;
  const files = [
    { path: 'Tax/2026/receipt.pdf', data: random, pieces: 7 },
    { path: 'Tax/notes.txt', data: bytesOf('hello, folders\n') },
    { path: 'top.txt', data: bytesOf('') },
    { path: 'Fotos/été/plage.jpg', data: random.slice(0, 1234), pieces: 3 },
  ];
  for (const file of files) expectedSizes.set(file.path, file.data.length);

  it('writes nested folders that unzip and Python read back byte for byte', async () => {
    const zip = await archive(files, { directories: ['Tax', 'Tax/2026', 'Empty'] });
    const path = join(dir, 'nested.zip');
    writeFileSync(path, zip);
    expect(execFileSync('unzip', ['-t', path], { encoding: 'utf8' })).toContain('No errors detected');
    const read = pythonRead(path);
    for (const file of files) expect(read[file.path]).toBe(hex(file.data));
    expect(read['Empty/']).toBe('');
    expect(walkLocal(zip).map((entry) => entry.size)).toEqual([
      0,
      0,
      0,
      ...files.map((file) => file.data.length),
    ]);
    const out = join(dir, 'out');
    execFileSync('unzip', ['-q', path, '-d', out]);
    expect(readFileSync(join(out, 'Tax/2026/receipt.pdf')).equals(Buffer.from(random))).toBe(true);
    expect(readFileSync(join(out, 'Fotos/été/plage.jpg')).length).toBe(1234);
  });

  it('writes the ZIP64 forms (entries, end records) that both readers accept', async () => {
    const zip = await archive(files, { forceZip64: true, directories: ['Empty'] });
    const path = join(dir, 'zip64.zip');
    writeFileSync(path, zip);
    expect(execFileSync('unzip', ['-t', path], { encoding: 'utf8' })).toContain('No errors detected');
    const read = pythonRead(path);
    for (const file of files) expect(read[file.path]).toBe(hex(file.data));
    expect(walkLocal(zip).map((entry) => entry.size)).toEqual([0, ...files.map((file) => file.data.length)]);
    // The ZIP64 end record and its locator are there.
    expect(Buffer.from(zip).includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
    expect(Buffer.from(zip).includes(Buffer.from([0x50, 0x4b, 0x06, 0x07]))).toBe(true);
  });

  it('refuses an entry whose data does not match its announced size', async () => {
    const writer = new ZipWriter(() => Promise.resolve());
    await writer.entry('a.txt', { size: 3 });
    await writer.write(bytesOf('ab'));
    await expect(writer.endEntry()).rejects.toThrow(/fewer/);
    const other = new ZipWriter(() => Promise.resolve());
    await other.entry('b.txt', { size: 1 });
    await expect(other.write(bytesOf('ab'))).rejects.toThrow(/more/);
  });

  it('computes CRC-32 as the standard does', () => {
    expect(crc32(bytesOf('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array())).toBe(0);
  });
});

describe('ZIP64 records for sizes and offsets past 4 GiB (no bytes written)', () => {
  const FIVE_GIB = 5 * 1024 ** 3;
  const SIX_GIB = 6 * 1024 ** 3;
  const entry = {
    nameBytes: bytesOf('big/video.mkv'),
    directory: false,
    offset: SIX_GIB,
    crc: 0x12345678,
    size: FIVE_GIB,
    zip64: true,
    modified: new Date(2026, 10, 27),
  };
  const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

  it('a local header in ZIP64 form: sizes 0xFFFFFFFF and a ZIP64 extra field', () => {
    const header = view(localHeader(entry));
    expect(header.getUint32(0, true)).toBe(0x04034b50);
    expect(header.getUint16(4, true)).toBe(45);
    expect(header.getUint16(6, true) & 0x8).toBe(0x8);
    expect(header.getUint32(18, true)).toBe(MAX_U32);
    expect(header.getUint32(22, true)).toBe(MAX_U32);
    const extraAt = 30 + entry.nameBytes.length;
    expect(header.getUint16(28, true)).toBe(20);
    expect(header.getUint16(extraAt, true)).toBe(0x0001);
  });

  it('a data descriptor with 8-byte sizes', () => {
    const record = view(dataDescriptor(entry));
    expect(record.byteLength).toBe(24);
    expect(record.getUint32(4, true)).toBe(0x12345678);
    expect(Number(record.getBigUint64(8, true))).toBe(FIVE_GIB);
    expect(Number(record.getBigUint64(16, true))).toBe(FIVE_GIB);
  });

  it('a central header with sizes and offset in its ZIP64 extra field', () => {
    const header = view(centralHeader(entry));
    expect(header.getUint32(0, true)).toBe(0x02014b50);
    expect(header.getUint32(20, true)).toBe(MAX_U32);
    expect(header.getUint32(24, true)).toBe(MAX_U32);
    expect(header.getUint32(42, true)).toBe(MAX_U32);
    const extraAt = 46 + entry.nameBytes.length;
    expect(header.getUint16(30, true)).toBe(28);
    expect(header.getUint16(extraAt, true)).toBe(0x0001);
    expect(header.getUint16(extraAt + 2, true)).toBe(24);
    expect(Number(header.getBigUint64(extraAt + 4, true))).toBe(FIVE_GIB);
    expect(Number(header.getBigUint64(extraAt + 12, true))).toBe(FIVE_GIB);
    expect(Number(header.getBigUint64(extraAt + 20, true))).toBe(SIX_GIB);
  });

  it('only the offset overflows: the extra field holds the offset alone', () => {
    const header = view(centralHeader({ ...entry, size: 10, zip64: false }));
    expect(header.getUint32(20, true)).toBe(10);
    const extraAt = 46 + entry.nameBytes.length;
    expect(header.getUint16(extraAt + 2, true)).toBe(8);
    expect(Number(header.getBigUint64(extraAt + 4, true))).toBe(SIX_GIB);
  });

  it('end records: ZIP64 end and locator past 4 GiB or 65,535 entries, classic otherwise', () => {
    expect(endRecords(3, 1000, 200).byteLength).toBe(22);
    const big = view(endRecords(3, SIX_GIB + FIVE_GIB, 200));
    expect(big.byteLength).toBe(98);
    expect(big.getUint32(0, true)).toBe(0x06064b50);
    expect(Number(big.getBigUint64(48, true))).toBe(SIX_GIB + FIVE_GIB);
    expect(big.getUint32(56, true)).toBe(0x07064b50);
    expect(Number(big.getBigUint64(64, true))).toBe(SIX_GIB + FIVE_GIB + 200);
    expect(big.getUint32(76, true)).toBe(0x06054b50);
    const many = view(endRecords(70_000, 1000, 200));
    expect(Number(many.getBigUint64(24, true))).toBe(70_000);
    expect(many.getUint16(76 + 10, true)).toBe(0xffff);
  });

  it('an entry announced at 4 GiB or more is written in ZIP64 form from its local header on', async () => {
    const parts: Uint8Array[] = [];
    const writer = new ZipWriter((bytes) => {
      parts.push(bytes);
      return Promise.resolve();
    });
    await writer.entry('huge.bin', { size: FIVE_GIB });
    expect(view(parts[0] ?? new Uint8Array(30)).getUint32(18, true)).toBe(MAX_U32);
    const small = new ZipWriter((bytes) => {
      parts.push(bytes);
      return Promise.resolve();
    });
    parts.length = 0;
    await small.entry('small.bin', { size: 10 });
    expect(view(parts[0] ?? new Uint8Array(30)).getUint32(18, true)).toBe(0);
  });
});

describe('entry names', () => {
  it('neutralises .., separators, controls and bidi overrides; no zip-slip', () => {
    const paths = uniqueEntryPaths([
      ['..', '..', 'etc', 'passwd'],
      ['a/b', 'c\\d.txt'],
      ['invoice\u202Efdp.exe'],
      ['C:', 'x.txt'],
      ['tab\there.txt'],
    ]);
    for (const path of paths) {
      expect(path.startsWith('/')).toBe(false);
      expect(path.split('/')).not.toContain('..');
      // eslint-disable-next-line no-control-regex -- control characters are what must be gone
      expect(path).not.toMatch(/[\\\u0000-\u001f\u202a-\u202e]|^[A-Za-z]:/);
    }
    expect(paths[1]).toBe('a_b/c_d.txt');
    expect(paths[2]).toBe('invoicefdp.exe');
    expect(paths[4]).toBe('tab_here.txt');
  });

  it('a name taken in the same folder (ignoring case) is numbered', () => {
    expect(
      uniqueEntryPaths([
        ['A', 'x.txt'],
        ['a', 'X.txt'],
        ['A', 'x.txt'],
        ['B', 'x.txt'],
        ['noext'],
        ['noext'],
      ]),
    ).toEqual(['A/x.txt', 'a/X (2).txt', 'A/x (3).txt', 'B/x.txt', 'noext', 'noext (2)']);
  });
});
