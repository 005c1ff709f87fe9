import { decryptChunk, generateFileKey } from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import { createInProcessChunkCipher } from '../crypto-worker';
import { SLICE_BYTES } from './buffers';
import { createProgressReporter, type ProgressReporter } from './progress';
import { createUploadWork, encryptFileChunk, type UploadContext } from './upload-context';
import { TransferAbortedError } from './transfer-errors';

/** Only what encryptFileChunk reads. */
function contextFor(file: File, chunkSize: number, fileKey: CryptoKey, signal: AbortSignal): UploadContext {
  return {
    file,
    fileKey,
    chunkSize,
    chunkCount: Math.ceil(file.size / chunkSize),
    cipher: createInProcessChunkCipher(),
    signal,
  } as Partial<UploadContext> as UploadContext;
}

describe('encryptFileChunk', () => {
  it('builds the part Blob from several slices and keeps every byte in place', async () => {
    const size = 2 * SLICE_BYTES + 12_345;
    const plain = new Uint8Array(size).map((_, i) => (i * 7) % 256);
    const key = await generateFileKey();
    const file = new File([plain], 'big.bin');
    // The file is two chunks; the second is the last and is more than two slices long.
    const chunkSize = 1000;
    const context = contextFor(file, size - chunkSize, key, new AbortController().signal);
    const last = await encryptFileChunk(context, 1);
    expect(last.size).toBe(chunkSize + 28);
    expect(Buffer.from(await decryptChunk(key, 1, true, new Uint8Array(await last.arrayBuffer())))).toEqual(
      Buffer.from(plain.subarray(size - chunkSize)),
    );
    const first = await encryptFileChunk(context, 0);
    expect(first.size).toBe(size - chunkSize + 28);
    const decrypted = await decryptChunk(key, 0, false, new Uint8Array(await first.arrayBuffer()));
    expect(Buffer.from(decrypted).equals(Buffer.from(plain.subarray(0, size - chunkSize)))).toBe(true);
  });

  it('stops when the upload is aborted while the chunk is encrypted', async () => {
    const key = await generateFileKey();
    const file = new File([new Uint8Array(3 * SLICE_BYTES)], 'big.bin');
    const controller = new AbortController();
    const context = contextFor(file, file.size, key, controller.signal);
    const encrypting = encryptFileChunk(context, 0);
    controller.abort();
    await expect(encrypting).rejects.toBeInstanceOf(TransferAbortedError);
  });
});

describe('createUploadWork: the percentage of an upload', () => {
  const reporterLog = (): { reporter: ProgressReporter; percents: number[] } => {
    const percents: number[] = [];
    return { reporter: createProgressReporter(({ percent }) => percents.push(percent), 'start'), percents };
  };

  it('counts reading for encryption as half of the work and sending as the other half', () => {
    const { reporter, percents } = reporterLog();
    const work = createUploadWork(reporter, 1000, 1056);
    work.read(0, 250);
    expect(percents.at(-1)).toBe(12.5);
    work.read(0, 500);
    // Re-reporting a chunk's bytes never counts them twice.
    work.read(0, 500);
    expect(percents.at(-1)).toBe(25);
    work.sent(528);
    expect(percents.at(-1)).toBe(50);
    work.read(1, 500);
    work.sent(1056);
    expect(percents.at(-1)).toBe(100);
  });

  it('never goes back when a part is sent again after a retry', () => {
    const { reporter, percents } = reporterLog();
    const work = createUploadWork(reporter, 100, 100);
    work.read(0, 100);
    work.sent(80);
    work.sent(0);
    expect(percents.at(-1)).toBe(90);
  });
});
