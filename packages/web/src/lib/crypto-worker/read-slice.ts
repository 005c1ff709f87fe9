/**
 * Reads a slice of the user's file into one buffer. With `onRead`, it reads the slice as a stream
 * and reports the bytes read so far (about every 1 % of the slice), so a 95 MiB chunk that takes
 * seconds to read shows progress (issue 15, point 12); without it, one `arrayBuffer()` call.
 * Either way one slice-sized buffer is allocated.
 */
export async function readSlice(slice: Blob, onRead?: (bytesRead: number) => void): Promise<ArrayBuffer> {
  if (onRead === undefined || typeof slice.stream !== 'function') return slice.arrayBuffer();
  const buffer = new ArrayBuffer(slice.size);
  const bytes = new Uint8Array(buffer);
  const step = Math.max(1, Math.floor(slice.size / 100));
  const reader = slice.stream().getReader();
  let read = 0;
  let reported = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (read + value.byteLength > bytes.byteLength) {
      await reader.cancel();
      throw new Error('The file grew while it was read');
    }
    bytes.set(value, read);
    read += value.byteLength;
    if (read - reported >= step) {
      reported = read;
      onRead(read);
    }
  }
  if (read !== bytes.byteLength) throw new Error('The file shrank while it was read');
  return buffer;
}
