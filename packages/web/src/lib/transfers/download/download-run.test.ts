import { CHUNK_OVERHEAD, encryptedSize, plainChunkLength } from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import { runDownloadPipeline } from './download-run';
import type { SaveSink } from '../save/save-sink';

const CHUNK = 64;

/**
 * Runs a three-chunk download with a decrypt that copies its input, as WebCrypto does; answers its
 * inputs, what was written and where each request started. `slowSave`: the first write waits until
 * the pipeline let go of the answer (a save slower than the network).
 */
async function download(
  decryptCopiesInput: boolean,
  slowSave = false,
): Promise<{ inputs: ArrayBuffer[]; written: number[]; opens: number[] }> {
  const size = 2 * CHUNK + 10;
  const body = new Uint8Array(encryptedSize(size, CHUNK)).map((_, i) => i % 251);
  const inputs: ArrayBuffer[] = [];
  const written: number[] = [];
  const opens: number[] = [];
  let letGo = false;
  const sink: SaveSink = {
    write: async (bytes) => {
      // The first write waits for the first answer to be let go (or, where nothing lets it go, 100 turns).
      for (let turn = 0; slowSave && written.length === 0 && !letGo && turn < 100; turn++)
        await new Promise((resolve) => setTimeout(resolve, 0));
      written.push(bytes.length);
    },
    close: () => Promise.resolve(),
    abort: () => Promise.resolve(),
  };
  await runDownloadPipeline({
    job: { fileKey: {} as CryptoKey, size, chunkSize: CHUNK, downloadPath: '/f', retryDelaysMs: [] },
    open: (offset) => {
      opens.push(offset);
      return Promise.resolve({
        body: servedInChunks(body.subarray(offset), () => (letGo = true)),
        offset,
      });
    },
    decrypt: (_key, index, _isLast, encrypted) => {
      inputs.push(encrypted);
      const start = CHUNK_OVERHEAD;
      return Promise.resolve(
        new Uint8Array(encrypted.slice(start, start + plainChunkLength(size, index, CHUNK))),
      );
    },
    decryptCopiesInput,
    openSink: () => Promise.resolve(sink),
    progress: { text: () => undefined, fraction: () => undefined },
    signal: new AbortController().signal,
  });
  return { inputs, written, opens };
}

/** `bytes` one encrypted chunk per read, none read ahead; `onCancel` hears the reader let go. */
function servedInChunks(bytes: Uint8Array, onCancel: () => void): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (at >= bytes.length) {
          controller.close();
          return;
        }
        const piece = bytes.slice(at, at + CHUNK + CHUNK_OVERHEAD);
        at += piece.length;
        controller.enqueue(piece);
      },
      cancel: onCancel,
    },
    { highWaterMark: 0 },
  );
}

describe('runDownloadPipeline', () => {
  it('frees the read buffer when the download ends, where decrypt copies its input', async () => {
    const { inputs, written } = await download(true);
    expect(written).toEqual([CHUNK, CHUNK, 10]);
    expect(inputs).toHaveLength(3);
    // Kept for the next chunk until the end, then freed with the download, not left to the collector.
    expect(inputs[2]?.byteLength).toBe(0);
  });

  it('leaves the buffers to their decrypt where it does not copy its input', async () => {
    const { inputs } = await download(false);
    expect(inputs.map((input) => input.byteLength)).toEqual([
      CHUNK + CHUNK_OVERHEAD,
      CHUNK + CHUNK_OVERHEAD,
      10 + CHUNK_OVERHEAD,
    ]);
  });

  it('lets go of the connection while a chunk waits to be saved, and asks for the rest from the next chunk', async () => {
    const { written, opens } = await download(true, true);
    expect(written).toEqual([CHUNK, CHUNK, 10]);
    // Chunk 1 received while chunk 0 is still being saved: the answer goes, chunk 2 is asked for by Range.
    expect(opens).toEqual([0, 2 * (CHUNK + CHUNK_OVERHEAD)]);
  });
});
