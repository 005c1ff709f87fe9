import { describe, expect, it } from 'vitest';
import { readSliceInto, readSlicesInto } from './read-slice';

/** A Blob whose stream yields `pieces` one by one, as a browser streams a file from disk. */
function streamedBlob(pieces: Uint8Array[], type?: 'bytes'): Blob {
  const size = pieces.reduce((sum, piece) => sum + piece.byteLength, 0);
  return {
    size,
    stream: () =>
      type === 'bytes'
        ? byteStream(pieces)
        : new ReadableStream<Uint8Array>({
            start(controller) {
              for (const piece of pieces) controller.enqueue(piece);
              controller.close();
            },
          }),
    arrayBuffer: () => Promise.reject(new Error('read as a stream')),
  } as unknown as Blob;
}

/** A byte stream (as Chromium's `Blob.stream()`), answering BYOB reads piece by piece. */
function byteStream(pieces: Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream({
    type: 'bytes',
    pull(controller) {
      const piece = pieces[next++];
      if (piece === undefined) {
        controller.close();
        controller.byobRequest?.respond(0);
        return;
      }
      const request = controller.byobRequest;
      if (request?.view === null || request === null) {
        controller.enqueue(piece.slice());
        return;
      }
      const view = new Uint8Array(request.view.buffer, request.view.byteOffset, request.view.byteLength);
      const length = Math.min(view.byteLength, piece.byteLength);
      view.set(piece.subarray(0, length));
      if (length < piece.byteLength) pieces.splice(next, 0, piece.subarray(length));
      request.respond(length);
    },
  });
}

const bytes = new Uint8Array(10_000).map((_, i) => (i * 31) % 251);
const pieces = (): Uint8Array[] =>
  Array.from({ length: 10 }, (_, i) => bytes.subarray(i * 1000, (i + 1) * 1000));

describe.each([
  ['a default stream (pieces copied in)', undefined],
  ['a byte stream (BYOB reads)', 'bytes'],
] as const)('readSliceInto from %s', (_, type) => {
  it('fills the given memory with the slice and reports the bytes read as they arrive', async () => {
    const buffer = new ArrayBuffer(12_000);
    const reports: number[] = [];
    const read = await readSliceInto(streamedBlob(pieces(), type), buffer, (n) => reports.push(n));
    expect(read).toEqual(bytes);
    expect(read.byteOffset).toBe(0);
    expect(read.buffer.byteLength).toBe(12_000);
    expect(reports).toEqual([1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10_000]);
    if (type === 'bytes') expect(buffer.byteLength).toBe(0);
    else expect(read.buffer).toBe(buffer);
  });

  it('fails when the file shrank while it was read', async () => {
    const shrunk = streamedBlob(pieces().slice(0, 5), type);
    Object.defineProperty(shrunk, 'size', { value: 10_000 });
    await expect(readSliceInto(shrunk, new ArrayBuffer(10_000))).rejects.toThrow(
      'The file shrank while it was read',
    );
  });

  it('fails when the file grew while it was read', async () => {
    const grown = streamedBlob(pieces(), type);
    Object.defineProperty(grown, 'size', { value: 9_000 });
    await expect(readSliceInto(grown, new ArrayBuffer(10_000))).rejects.toThrow(
      'The file grew while it was read',
    );
  });
});

describe.each([
  ['a default stream (pieces copied in, across slice ends)', undefined],
  ['a byte stream (BYOB reads)', 'bytes'],
] as const)('readSlicesInto from %s', (_, type) => {
  it('yields the Blob in slices of the buffer, all in the same memory, through one stream', async () => {
    const blob = streamedBlob(pieces(), type);
    let streams = 0;
    const stream = blob.stream.bind(blob);
    Object.assign(blob, { stream: () => (streams++, stream()) });
    const sizes: number[] = [];
    const copies: Uint8Array<ArrayBuffer>[] = [];
    const memory = new Set<number>();
    for await (const slice of readSlicesInto(blob, [new ArrayBuffer(3072)])) {
      sizes.push(slice.length);
      copies.push(slice.slice());
      memory.add(slice.buffer.byteLength);
    }
    expect(sizes).toEqual([3072, 3072, 3072, 784]);
    expect(new Uint8Array(await new Blob(copies).arrayBuffer())).toEqual(bytes);
    expect([...memory]).toEqual([3072]);
    expect(streams).toBe(1);
  });

  it('with two buffers, reads the next slice into the other one while the last is still used', async () => {
    const slices = readSlicesInto(streamedBlob(pieces(), type), [
      new ArrayBuffer(3072),
      new ArrayBuffer(3072),
    ]);
    const first = (await slices.next()).value as Uint8Array<ArrayBuffer>;
    const second = (await slices.next()).value as Uint8Array<ArrayBuffer>;
    // The first slice's bytes are still there: the second went into the other memory.
    expect(first).toEqual(bytes.subarray(0, 3072));
    expect(second).toEqual(bytes.subarray(3072, 6144));
    const third = (await slices.next()).value as Uint8Array<ArrayBuffer>;
    expect(third).toEqual(bytes.subarray(6144, 9216));
    await slices.return(undefined);
  });

  it('fails when the file ended early', async () => {
    const shrunk = streamedBlob(pieces().slice(0, 5), type);
    Object.defineProperty(shrunk, 'size', { value: 10_000 });
    const reading = (async () => {
      for await (const slice of readSlicesInto(shrunk, [new ArrayBuffer(4096)]))
        expect(slice.length).toBeGreaterThan(0);
    })();
    await expect(reading).rejects.toThrow('The file ended early while it was read');
  });
});

describe('readSlicesInto', () => {
  it('refuses buffers of different sizes', async () => {
    const slices = readSlicesInto(new Blob([bytes]), [new ArrayBuffer(1024), new ArrayBuffer(512)]);
    await expect(slices.next()).rejects.toThrow(RangeError);
  });

  it('reads an empty Blob as one empty slice', async () => {
    const sizes: number[] = [];
    for await (const slice of readSlicesInto(new Blob([]), [new ArrayBuffer(0)])) sizes.push(slice.length);
    expect(sizes).toEqual([0]);
  });
});

describe('readSliceInto', () => {
  it('refuses a buffer smaller than the slice', async () => {
    await expect(readSliceInto(new Blob([bytes]), new ArrayBuffer(10))).rejects.toThrow(RangeError);
  });

  it('reads a real Blob slice', async () => {
    const read = await readSliceInto(new Blob([bytes]).slice(5, 15), new ArrayBuffer(100));
    expect(read).toEqual(bytes.subarray(5, 15));
  });
});
