/**
 * Reads a slice of the user's file into `buffer` (at least the slice's size; the upload's reused
 * read buffer) and answers a view of the slice's bytes. The buffer answered may be another
 * `ArrayBuffer` object over the same memory: a BYOB read detaches the one it was given. With
 * `onRead`, the bytes read so far are reported about every 1 % of the slice, so a 95 MiB chunk that
 * takes seconds to read shows progress (issue 15, point 12).
 *
 * Why into a given buffer: on the benchmark machine every fresh 4 KiB page costs ~17 µs, so a new
 * 95 MiB buffer per chunk cost ~0.4 s before any byte landed in it. Chromium's `Blob.stream()` is a
 * byte stream, so a BYOB reader fills the buffer with no intermediate pieces; elsewhere (a default
 * stream) the pieces are copied in.
 */
export async function readSliceInto(
  slice: Blob,
  buffer: ArrayBuffer,
  onRead: (bytesRead: number) => void = () => undefined,
): Promise<Uint8Array<ArrayBuffer>> {
  if (buffer.byteLength < slice.size) throw new RangeError('The read buffer is smaller than the slice');
  if (typeof slice.stream !== 'function') {
    const bytes = new Uint8Array(await slice.arrayBuffer());
    onRead(bytes.byteLength);
    return bytes;
  }
  const stream = slice.stream();
  streamsBeingRead.add(stream);
  try {
    const progress = readProgress(slice.size, onRead);
    const byob = byobReaderOf(stream);
    return await (byob === null
      ? copyPieces(stream.getReader(), buffer, slice.size, progress)
      : readByob(byob, buffer, slice.size, progress));
  } finally {
    streamsBeingRead.delete(stream);
  }
}

/**
 * The Blob streams being read, held from the global scope until their read ends. Chromium (seen in
 * 156) does not keep a Blob's byte stream alive while a BYOB read of it is pending: if nothing else
 * references the stream, a garbage collection during the read takes the stream, its reader and
 * every promise waiting on them, and the read never settles (the upload then hangs at "Encrypting";
 * a second upload's chunk-sized buffers make such a collection likely). A fetch body is kept alive
 * by its network request and does not need this. Browser test: `uploads-gc.spec.ts`.
 */
const streamsBeingRead = new Set<ReadableStream<Uint8Array>>();

/** A BYOB reader where the stream is a byte stream, else null (the stream stays unlocked). */
function byobReaderOf(stream: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | null {
  try {
    return stream.getReader({ mode: 'byob' });
  } catch {
    return null;
  }
}

/** Reports the bytes read whenever another 1 % of `size` arrived. */
function readProgress(size: number, onRead: (bytesRead: number) => void): (bytesRead: number) => void {
  const step = Math.max(1, Math.floor(size / 100));
  let reported = 0;
  return (bytesRead) => {
    if (bytesRead - reported < step) return;
    reported = bytesRead;
    onRead(bytesRead);
  };
}

async function readByob(
  reader: ReadableStreamBYOBReader,
  buffer: ArrayBuffer,
  size: number,
  progress: (bytesRead: number) => void,
): Promise<Uint8Array<ArrayBuffer>> {
  let memory = buffer;
  let read = 0;
  while (read < size) {
    const { done, value } = await reader.read(new Uint8Array(memory, read, size - read));
    if (value !== undefined) memory = value.buffer;
    if (done) break;
    read += value.byteLength;
    progress(read);
  }
  if (read !== size) throw new Error('The file shrank while it was read');
  // One byte more would mean the file grew: read it into a buffer of its own.
  const { done } = await reader.read(new Uint8Array(1));
  if (!done) {
    await reader.cancel();
    throw new Error('The file grew while it was read');
  }
  return new Uint8Array(memory, 0, size);
}

async function copyPieces(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  buffer: ArrayBuffer,
  size: number,
  progress: (bytesRead: number) => void,
): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = new Uint8Array(buffer, 0, size);
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (read + value.byteLength > size) {
      await reader.cancel();
      throw new Error('The file grew while it was read');
    }
    bytes.set(value, read);
    read += value.byteLength;
    progress(read);
  }
  if (read !== size) throw new Error('The file shrank while it was read');
  return bytes;
}

/**
 * `blob`'s bytes in slices of `buffers[0].byteLength` (the last one shorter; an empty Blob is one
 * empty slice), all read through ONE stream of the Blob (a BYOB reader where the stream is a byte
 * stream, else its pieces copied in), into the given buffers in turn: with one buffer each slice is
 * valid until the next is asked for; with two, the next slice can be read (ask for it) while the
 * last one is still used. One stream per Blob, not per slice: each stream costs the browser a reader
 * of its own. A BYOB read moves a buffer's memory to a new `ArrayBuffer` object: a slice's `buffer`
 * is the one to free or reuse once reading ended.
 */
export async function* readSlicesInto(
  blob: Blob,
  buffers: readonly ArrayBuffer[],
): AsyncGenerator<Uint8Array<ArrayBuffer>, void> {
  const memories = [...buffers];
  const sliceBytes = memories[0]?.byteLength ?? 0;
  if (memories.some((memory) => memory.byteLength !== sliceBytes))
    throw new RangeError('The read buffers differ in size');
  if (sliceBytes <= 0 && blob.size > 0) throw new RangeError('The read buffer is empty');
  if (typeof blob.stream !== 'function') {
    let offset = 0;
    do {
      const end = Math.min(blob.size, offset + sliceBytes);
      yield new Uint8Array(await blob.slice(offset, end).arrayBuffer());
      offset = end;
    } while (offset < blob.size);
    return;
  }
  const stream = blob.stream();
  streamsBeingRead.add(stream);
  const byob = byobReaderOf(stream);
  const reader = byob ?? stream.getReader();
  try {
    /** A piece of a default stream that passed the end of the buffer, and where its rest starts. */
    let rest: Uint8Array | null = null;
    let remaining = blob.size;
    let turn = 0;
    do {
      const want = Math.min(sliceBytes, remaining);
      const slot = turn++ % memories.length;
      const given = memories[slot];
      if (given === undefined) throw new RangeError('No read buffer was given');
      let memory: ArrayBuffer = given;
      let filled = 0;
      while (filled < want) {
        if (byob !== null) {
          const read = await byob.read(new Uint8Array(memory, filled, want - filled));
          if (read.value !== undefined) memory = read.value.buffer;
          if (read.done) break;
          filled += read.value.byteLength;
          continue;
        }
        if (rest === null) {
          const read = await (reader as ReadableStreamDefaultReader<Uint8Array>).read();
          if (read.done) break;
          rest = read.value;
        }
        const taken = Math.min(rest.length, want - filled);
        new Uint8Array(memory, filled, taken).set(rest.subarray(0, taken));
        filled += taken;
        rest = taken === rest.length ? null : rest.subarray(taken);
      }
      memories[slot] = memory;
      if (filled !== want) throw new Error('The file ended early while it was read');
      remaining -= want;
      yield new Uint8Array(memory, 0, want);
    } while (remaining > 0);
  } finally {
    streamsBeingRead.delete(stream);
    await reader.cancel().catch(() => undefined);
  }
}
