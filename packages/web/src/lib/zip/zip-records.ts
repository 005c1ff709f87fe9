/**
 * The byte records of a ZIP file (PKWARE APPNOTE 6.3.x) that a streaming writer needs: local file
 * headers with a data descriptor (sizes and CRC-32 follow the data), central directory headers,
 * and the end records, with the ZIP64 forms where a size, an offset or the entry count does not
 * fit the classic fields. STORE only (method 0): the content is encrypted-then-decrypted data the
 * browser already holds chunk by chunk, and most of what people store does not compress.
 */

/** A classic field holding this means "see the ZIP64 extra field / record". */
export const MAX_U32 = 0xffffffff;
export const MAX_U16 = 0xffff;

const LOCAL_HEADER = 0x04034b50;
const DATA_DESCRIPTOR = 0x08074b50;
const CENTRAL_HEADER = 0x02014b50;
const ZIP64_END = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const END = 0x06054b50;
const ZIP64_EXTRA = 0x0001;

/** Bit 3: sizes and CRC in a data descriptor; bit 11: names are UTF-8. */
const FLAGS = (1 << 3) | (1 << 11);
const VERSION_ZIP64 = 45;
const VERSION_PLAIN = 20;
/** Made by Unix (3), so readers apply the permissions in the external attributes. */
const MADE_BY_UNIX = 3 << 8;
const FILE_MODE = 0o100644;
const DIRECTORY_MODE = 0o040755;
/** MS-DOS directory attribute, for readers that look at the low byte. */
const DOS_DIRECTORY = 0x10;

/** One entry as the records describe it. */
export interface ZipEntryRecord {
  /** UTF-8 bytes of the entry path (`a/b.txt`, a directory ends with `/`). */
  readonly nameBytes: Uint8Array;
  readonly directory: boolean;
  /** Offset of its local header from the start of the archive. */
  readonly offset: number;
  readonly crc: number;
  readonly size: number;
  /** Decided before the data is written: its local header and data descriptor use the ZIP64 forms. */
  readonly zip64: boolean;
  readonly modified: Date;
}

class Bytes {
  readonly bytes: Uint8Array<ArrayBuffer>;
  private readonly view: DataView;
  private at = 0;
  constructor(length: number) {
    this.bytes = new Uint8Array(length);
    this.view = new DataView(this.bytes.buffer);
  }
  u16(value: number): this {
    this.view.setUint16(this.at, value, true);
    this.at += 2;
    return this;
  }
  u32(value: number): this {
    this.view.setUint32(this.at, value >>> 0, true);
    this.at += 4;
    return this;
  }
  u64(value: number): this {
    this.view.setBigUint64(this.at, BigInt(value), true);
    this.at += 8;
    return this;
  }
  raw(bytes: Uint8Array): this {
    this.bytes.set(bytes, this.at);
    this.at += bytes.length;
    return this;
  }
  done(): Uint8Array<ArrayBuffer> {
    if (this.at !== this.bytes.length) throw new Error(`record is ${this.at} of ${this.bytes.length} bytes`);
    return this.bytes;
  }
}

/** MS-DOS time and date of a Date (local time, 2-second steps, from 1980). */
export function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.min(Math.max(date.getFullYear(), 1980), 2107);
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/**
 * The local file header, written before the data: CRC and sizes 0 (they follow in the data
 * descriptor). A ZIP64 entry has sizes 0xFFFFFFFF and a ZIP64 extra field (sizes 0), which tells
 * readers its data descriptor has 8-byte sizes.
 */
export function localHeader(entry: Omit<ZipEntryRecord, 'crc' | 'size'>): Uint8Array<ArrayBuffer> {
  const { time, date } = dosDateTime(entry.modified);
  const extraLength = entry.zip64 ? 20 : 0;
  const record = new Bytes(30 + entry.nameBytes.length + extraLength)
    .u32(LOCAL_HEADER)
    .u16(entry.zip64 ? VERSION_ZIP64 : VERSION_PLAIN)
    .u16(FLAGS)
    .u16(0) // STORE
    .u16(time)
    .u16(date)
    .u32(0)
    .u32(entry.zip64 ? MAX_U32 : 0)
    .u32(entry.zip64 ? MAX_U32 : 0)
    .u16(entry.nameBytes.length)
    .u16(extraLength)
    .raw(entry.nameBytes);
  if (entry.zip64) record.u16(ZIP64_EXTRA).u16(16).u64(0).u64(0);
  return record.done();
}

/** The data descriptor after an entry's data: CRC-32 and sizes (8 bytes each for ZIP64). */
export function dataDescriptor(entry: ZipEntryRecord): Uint8Array<ArrayBuffer> {
  if (entry.zip64) {
    return new Bytes(24).u32(DATA_DESCRIPTOR).u32(entry.crc).u64(entry.size).u64(entry.size).done();
  }
  return new Bytes(16).u32(DATA_DESCRIPTOR).u32(entry.crc).u32(entry.size).u32(entry.size).done();
}

/**
 * The entry's central directory header. Sizes and the offset that do not fit 32 bits are
 * 0xFFFFFFFF there and given in a ZIP64 extra field, in the order APPNOTE 4.5.3 fixes
 * (uncompressed size, compressed size, local header offset), only those that overflow.
 */
export function centralHeader(entry: ZipEntryRecord): Uint8Array<ArrayBuffer> {
  const { time, date } = dosDateTime(entry.modified);
  const bigSize = entry.zip64 || entry.size >= MAX_U32;
  const bigOffset = entry.offset >= MAX_U32;
  const extraValues = (bigSize ? 2 : 0) + (bigOffset ? 1 : 0);
  const extraLength = extraValues === 0 ? 0 : 4 + 8 * extraValues;
  const mode = entry.directory ? DIRECTORY_MODE : FILE_MODE;
  const needs = bigSize || bigOffset ? VERSION_ZIP64 : VERSION_PLAIN;
  const record = new Bytes(46 + entry.nameBytes.length + extraLength)
    .u32(CENTRAL_HEADER)
    .u16(MADE_BY_UNIX | VERSION_ZIP64)
    .u16(needs)
    .u16(FLAGS)
    .u16(0)
    .u16(time)
    .u16(date)
    .u32(entry.crc)
    .u32(bigSize ? MAX_U32 : entry.size)
    .u32(bigSize ? MAX_U32 : entry.size)
    .u16(entry.nameBytes.length)
    .u16(extraLength)
    .u16(0) // comment
    .u16(0) // disk
    .u16(0) // internal attributes
    .u32(((mode << 16) | (entry.directory ? DOS_DIRECTORY : 0)) >>> 0)
    .u32(bigOffset ? MAX_U32 : entry.offset)
    .raw(entry.nameBytes);
  if (extraLength > 0) {
    record.u16(ZIP64_EXTRA).u16(8 * extraValues);
    if (bigSize) record.u64(entry.size).u64(entry.size);
    if (bigOffset) record.u64(entry.offset);
  }
  return record.done();
}

/**
 * What ends the archive: the end of central directory record, preceded by the ZIP64 end record
 * and its locator when the entry count, the directory's size or its offset does not fit.
 */
export function endRecords(
  count: number,
  directoryOffset: number,
  directorySize: number,
  forceZip64 = false,
): Uint8Array<ArrayBuffer> {
  const zip64 = forceZip64 || count >= MAX_U16 || directoryOffset >= MAX_U32 || directorySize >= MAX_U32;
  const end = new Bytes(22)
    .u32(END)
    .u16(0)
    .u16(0)
    .u16(zip64 ? MAX_U16 : count)
    .u16(zip64 ? MAX_U16 : count)
    .u32(zip64 ? MAX_U32 : directorySize)
    .u32(zip64 ? MAX_U32 : directoryOffset)
    .u16(0)
    .done();
  if (!zip64) return end;
  const zip64EndOffset = directoryOffset + directorySize;
  const record = new Bytes(56 + 20 + 22)
    .u32(ZIP64_END)
    .u64(44) // size of the rest of this record
    .u16(MADE_BY_UNIX | VERSION_ZIP64)
    .u16(VERSION_ZIP64)
    .u32(0)
    .u32(0)
    .u64(count)
    .u64(count)
    .u64(directorySize)
    .u64(directoryOffset)
    .u32(ZIP64_LOCATOR)
    .u32(0)
    .u64(zip64EndOffset)
    .u32(1)
    .raw(end);
  return record.done();
}
