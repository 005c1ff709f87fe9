import { concatBytes } from '../bytes.util.js';

// Helpers for this package's tests and tools. Not exported from the package.

/** A readable stream that yields the given pieces, one per pull. */
export function streamOfPieces(pieces: Iterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = pieces[Symbol.iterator]();
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = iterator.next();
      if (next.done === true) controller.close();
      else controller.enqueue(next.value);
    },
  });
}

/** Reads a whole (small) stream into one array. */
export async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array<ArrayBuffer>> {
  const parts: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  return concatBytes(parts);
}

/** Splits `bytes` into consecutive views whose lengths come from `nextLength` (called until done). */
export function splitBytes(bytes: Uint8Array, nextLength: () => number): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const length = Math.max(1, nextLength());
    pieces.push(bytes.subarray(offset, offset + length));
    offset += length;
  }
  return pieces;
}

/** Pushes `pieces` through `transform` and returns everything it outputs, concatenated. */
export async function runTransform(
  transform: TransformStream<Uint8Array, Uint8Array>,
  pieces: Iterable<Uint8Array>,
): Promise<Uint8Array<ArrayBuffer>> {
  return readAll(streamOfPieces(pieces).pipeThrough(transform));
}

/** A small deterministic PRNG (mulberry32), so "random" splits are reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Deterministic pseudo-random bytes (not for keys or IVs). */
export function patternBytes(length: number, seed = 1): Uint8Array<ArrayBuffer> {
  const random = seededRandom(seed);
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = Math.floor(random() * 256);
  return bytes;
}
