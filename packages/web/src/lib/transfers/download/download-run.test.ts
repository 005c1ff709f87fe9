import { CHUNK_OVERHEAD, encryptedSize, plainChunkLength } from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import { runDownloadPipeline } from './download-run';
import type { SaveSink } from '../save/save-sink';

const CHUNK = 64;

/** Runs a three-chunk download with a decrypt that copies its input, as WebCrypto does; answers its inputs. */
async function download(decryptCopiesInput: boolean): Promise<{ inputs: ArrayBuffer[]; written: number[] }> {
  const size = 2 * CHUNK + 10;
  const body = new Uint8Array(encryptedSize(size, CHUNK)).map((_, i) => i % 251);
  const inputs: ArrayBuffer[] = [];
  const written: number[] = [];
  const sink: SaveSink = {
    write: (bytes) => {
      written.push(bytes.length);
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
    abort: () => Promise.resolve(),
  };
  await runDownloadPipeline({
    job: { fileKey: {} as CryptoKey, size, chunkSize: CHUNK, downloadPath: '/f', retryDelaysMs: [] },
    open: () => Promise.resolve({ body: new Response(body).body as ReadableStream<Uint8Array>, offset: 0 }),
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
  return { inputs, written };
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
});
