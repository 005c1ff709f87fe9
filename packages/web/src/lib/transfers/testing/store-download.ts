import { encryptChunk, encryptedSize, generateFileKey } from '@coffer/crypto';
import type { ChunkStore } from '../download/chunk-store';
import type { OpenedStream } from '../download/resumable-reader';
import type { ChunkFeed, DownloadJob } from '../download/download-run';
import { runDownloadPipeline } from '../download/download-run';
import type { SaveSink } from '../save/save-sink';

/** A small stored object of two and a bit chunks, one of them with a ciphertext bit flipped where asked. Tests only. */
export interface SmallObject {
  readonly key: CryptoKey;
  readonly size: number;
  readonly chunkSize: number;
  readonly plain: Uint8Array;
  /** The object as the server stores it (IV ‖ ciphertext ‖ tag per chunk). */
  readonly body: Uint8Array;
}

export async function smallObject(chunkSize: number, tamperChunk: number | null): Promise<SmallObject> {
  const key = await generateFileKey();
  const size = 2 * chunkSize + 100;
  const plain = new Uint8Array(size).map((_, i) => (i * 7 + 3) & 0xff);
  const parts: Uint8Array[] = [];
  for (let index = 0; index * chunkSize < size; index++) {
    const isLast = (index + 1) * chunkSize >= size;
    parts.push(
      await encryptChunk(key, index, isLast, plain.subarray(index * chunkSize, (index + 1) * chunkSize)),
    );
  }
  const body = new Uint8Array(await new Blob(parts as Uint8Array<ArrayBuffer>[]).arrayBuffer());
  if (body.length !== encryptedSize(size, chunkSize)) throw new Error('not the coffer-v1 layout');
  if (tamperChunk !== null) {
    const at = tamperChunk * (chunkSize + 28) + 12 + 5;
    body[at] = (body[at] ?? 0) ^ 1;
  }
  return { key, size, chunkSize, plain, body };
}

/**
 * Downloads `object` through the streaming pipeline with `store` between the passes, into `sink`;
 * answers the error it failed with, or null. `offsets` hears where each request started.
 */
export function downloadThroughStore(
  object: SmallObject,
  store: ChunkStore,
  sink: SaveSink,
  sliceBytes: number,
  offsets: number[] = [],
  /** Chunks from a crypto worker's feed instead (`download-feed.ts`); `offsets` then hears only what the service worker fetched itself. */
  feed?: ChunkFeed,
  /** Each chunk asked for in windows of this size (`ResumableReaderOptions.windows`). */
  windowBytes?: number,
): Promise<unknown> {
  const { body } = object;
  return runDownloadPipeline({
    job: jobOf(object),
    open: (offset) => {
      offsets.push(offset);
      return servedFrom(body)(offset);
    },
    decrypt: () => Promise.reject(new Error('not this route')),
    inSlices: { sliceBytes, ...(windowBytes === undefined ? {} : { windowBytes }) },
    chunkStore: store,
    ...(feed === undefined ? {} : { feed }),
    openSink: () => Promise.resolve(sink),
    progress: { text: () => undefined, fraction: () => undefined },
    signal: new AbortController().signal,
  }).then(
    () => null,
    (error: unknown) => error,
  );
}

/** The download job of `object` (no retries). Tests only. */
export function jobOf(object: SmallObject): DownloadJob {
  const { key, size, chunkSize } = object;
  return { fileKey: key, size, chunkSize, downloadPath: '/f', retryDelaysMs: [] };
}

/** An `open` that answers `body` from the offset asked for, as the server's Range answers do. Tests only. */
export function servedFrom(body: Uint8Array): (offset: number) => Promise<OpenedStream> {
  return (offset) =>
    Promise.resolve({ body: new Response(body.slice(offset)).body as ReadableStream<Uint8Array>, offset });
}
