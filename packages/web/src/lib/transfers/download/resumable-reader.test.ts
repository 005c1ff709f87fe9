import { IntegrityError } from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import { blobChunkStore } from './chunk-store';
import {
  DOWNLOAD_WINDOW_BYTES,
  ResumableReader,
  downloadWindowBytes,
  type OpenedStream,
} from './resumable-reader';

const CHUNK = 1024 + 28;
const SLICE = 256;
const WINDOW = 2 * SLICE;

/** An object of three encrypted chunks' length (the reader does not decrypt: any bytes do). */
const object = new Uint8Array(3 * CHUNK).map((_, i) => (i * 13 + 5) & 0xff);

interface Served {
  readonly offset: number;
  readonly end: number | undefined;
}

/**
 * A server for `body` that answers `bytes=offset-end` as asked; `cutOnce`: the first resumed or
 * window answer that covers that byte ends just before it (a dropped connection).
 */
function server(body: Uint8Array, cutOnce: number | null = null) {
  const served: Served[] = [];
  let cut = cutOnce;
  const open = (offset: number, end?: number): Promise<OpenedStream> => {
    served.push({ offset, end });
    let stop = end === undefined ? body.length : end + 1;
    if (cut !== null && offset > 0 && offset <= cut && cut < stop) {
      stop = cut;
      cut = null;
    }
    return Promise.resolve({
      body: new Response(body.slice(offset, stop)).body as ReadableStream<Uint8Array>,
      offset,
    });
  };
  return { open, served };
}

async function readAll(
  open: (offset: number, end?: number) => Promise<OpenedStream>,
  objectSize = object.length,
) {
  const reader = await ResumableReader.open({
    open,
    onReceived: () => undefined,
    retryDelaysMs: [0, 0],
    signal: new AbortController().signal,
    windows: { bytes: WINDOW, objectSize },
  });
  const chunks: Uint8Array[] = [];
  for (let index = 0; index < 3; index++) {
    const stored = await reader.readChunk(CHUNK, SLICE, blobChunkStore());
    chunks.push(new Uint8Array(await stored.data.arrayBuffer()));
  }
  await reader.expectEnd();
  await reader.cancel();
  return new Uint8Array(await new Blob(chunks as Uint8Array<ArrayBuffer>[]).arrayBuffer());
}

describe('ResumableReader in windows', () => {
  it('asks for each window of a chunk with an end, but the counted first request and the object’s last window', async () => {
    const { open, served } = server(object);
    expect(await readAll(open)).toEqual(object);
    const windowsOf = (start: number): Served[] => [
      { offset: start + 0, end: start + WINDOW - 1 },
      { offset: start + WINDOW, end: start + 2 * WINDOW - 1 },
      { offset: start + 2 * WINDOW, end: start + CHUNK - 1 },
    ];
    expect(served).toEqual([
      // From byte 0: open-ended (the server counts the download by it), dropped after its first window.
      { offset: 0, end: undefined },
      ...windowsOf(0).slice(1),
      ...windowsOf(CHUNK),
      ...windowsOf(2 * CHUNK).slice(0, 2),
      // The last window is open-ended: bytes after the object's end would be seen.
      { offset: 2 * CHUNK + 2 * WINDOW, end: undefined },
    ]);
  });

  it('refuses an object that goes on after its last chunk', async () => {
    const longer = new Uint8Array(object.length + 5);
    longer.set(object);
    const { open } = server(longer);
    await expect(readAll(open)).rejects.toBeInstanceOf(IntegrityError);
  });

  it('asks again from the chunk’s first byte when a window’s answer breaks off', async () => {
    const cutAt = CHUNK + WINDOW + 10;
    const { open, served } = server(object, cutAt);
    expect(await readAll(open)).toEqual(object);
    const afterCut = served.findIndex((request) => request.offset === CHUNK + WINDOW) + 1;
    expect(served[afterCut]).toEqual({ offset: CHUNK, end: CHUNK + WINDOW - 1 });
  });
});

describe('downloadWindowBytes', () => {
  it('asks for windows in Firefox only, where an unread answer is kept in memory', () => {
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0';
    const chromium =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
    const safari =
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15';
    expect(downloadWindowBytes(firefox)).toBe(DOWNLOAD_WINDOW_BYTES);
    expect(downloadWindowBytes(chromium)).toBeUndefined();
    expect(downloadWindowBytes(safari)).toBeUndefined();
    expect(downloadWindowBytes(undefined)).toBeUndefined();
  });
});
