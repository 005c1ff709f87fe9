import { Crc32 } from './crc32';
import {
  centralHeader,
  dataDescriptor,
  endRecords,
  localHeader,
  MAX_U32,
  type ZipEntryRecord,
} from './zip-records';

/** Where the archive's bytes go, in order; resolves when it can take more (backpressure). */
export type ZipOutput = (bytes: Uint8Array<ArrayBuffer>) => Promise<void>;

export interface ZipEntryOptions {
  /**
   * The size the entry will have, when known: an entry of 4 GiB or more is written in the ZIP64
   * form from its local header on. Unknown (undefined): ZIP64, to be safe. The written size must
   * match a given one.
   */
  readonly size?: number;
  readonly modified?: Date;
}

export interface ZipWriterOptions {
  /** Tests: every entry and the end in ZIP64 form, whatever the sizes. */
  readonly forceZip64?: boolean;
}

const encoder = new TextEncoder();

/**
 * A streaming ZIP writer (STORE, data descriptors, CRC-32 computed as the data passes, ZIP64 where
 * needed). It holds only the central directory's records (a few dozen bytes per entry), never
 * the data: each piece is handed to `output` as it comes, so memory does not grow with the
 * archive. Entry names must already be safe paths (`zipEntryPath`): this writes them as given.
 *
 * Use: `entry(name, {size})`, `write(bytes)`…, `endEntry()`, per file; `directory(name)` for a
 * folder (empty ones too); then `finish()`.
 */
export class ZipWriter {
  private offset = 0;
  private readonly entries: ZipEntryRecord[] = [];
  private current: {
    nameBytes: Uint8Array;
    offset: number;
    zip64: boolean;
    modified: Date;
    expected: number | undefined;
    size: number;
    crc: Crc32;
  } | null = null;
  private finished = false;

  constructor(
    private readonly output: ZipOutput,
    private readonly options: ZipWriterOptions = {},
  ) {}

  /** Bytes written so far. */
  get bytesWritten(): number {
    return this.offset;
  }

  /** Starts a file entry; its data follows with {@link write}. */
  async entry(path: string, options: ZipEntryOptions = {}): Promise<void> {
    this.assertOpen();
    if (this.current !== null) throw new Error('end the current entry first');
    const nameBytes = encoder.encode(path);
    if (nameBytes.length === 0 || nameBytes.length > 0xffff)
      throw new Error('a ZIP entry name is 1 to 65,535 bytes');
    const zip64 = this.options.forceZip64 === true || options.size === undefined || options.size >= MAX_U32;
    const modified = options.modified ?? new Date();
    this.current = {
      nameBytes,
      offset: this.offset,
      zip64,
      modified,
      expected: options.size,
      size: 0,
      crc: new Crc32(),
    };
    await this.emit(localHeader({ nameBytes, directory: false, offset: this.offset, zip64, modified }));
  }

  /** The next piece of the current entry's data. */
  async write(bytes: Uint8Array<ArrayBuffer>): Promise<void> {
    const current = this.current;
    if (current === null) throw new Error('no entry is open');
    current.crc.update(bytes);
    current.size += bytes.length;
    if (current.expected !== undefined && current.size > current.expected)
      throw new Error('an entry got more bytes than announced');
    await this.emit(bytes);
  }

  /** Ends the current entry: its data descriptor. */
  async endEntry(): Promise<void> {
    const current = this.current;
    if (current === null) throw new Error('no entry is open');
    if (current.expected !== undefined && current.size !== current.expected)
      throw new Error('an entry got fewer bytes than announced');
    this.current = null;
    const record: ZipEntryRecord = {
      nameBytes: current.nameBytes,
      directory: false,
      offset: current.offset,
      crc: current.crc.value,
      size: current.size,
      zip64: current.zip64,
      modified: current.modified,
    };
    this.entries.push(record);
    await this.emit(dataDescriptor(record));
  }

  /** A directory entry (`path` without or with the trailing `/`), no data. */
  async directory(path: string, modified: Date = new Date()): Promise<void> {
    this.assertOpen();
    if (this.current !== null) throw new Error('end the current entry first');
    const nameBytes = encoder.encode(path.endsWith('/') ? path : `${path}/`);
    const zip64 = this.options.forceZip64 === true;
    const record: ZipEntryRecord = {
      nameBytes,
      directory: true,
      offset: this.offset,
      crc: 0,
      size: 0,
      zip64,
      modified,
    };
    await this.emit(localHeader(record));
    this.entries.push(record);
    await this.emit(dataDescriptor(record));
  }

  /** The central directory and the end records. Nothing may be written after. */
  async finish(): Promise<void> {
    this.assertOpen();
    if (this.current !== null) throw new Error('end the current entry first');
    this.finished = true;
    const directoryOffset = this.offset;
    for (const entry of this.entries) await this.emit(centralHeader(entry));
    const directorySize = this.offset - directoryOffset;
    await this.emit(
      endRecords(this.entries.length, directoryOffset, directorySize, this.options.forceZip64 === true),
    );
  }

  private async emit(bytes: Uint8Array<ArrayBuffer>): Promise<void> {
    this.offset += bytes.length;
    await this.output(bytes);
  }

  private assertOpen(): void {
    if (this.finished) throw new Error('the archive is finished');
  }
}
