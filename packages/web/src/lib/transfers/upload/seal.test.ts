import { describe, expect, it } from 'vitest';
import type { ChunkCipher } from '../../crypto-worker';
import type { SealedPart } from '../../crypto-worker/chunk-cipher';
import { TransferAbortedError } from '../transfer-errors';
import { chunkSlice } from './read';
import { sealHeldPart, type SealContext } from './seal';
import type { UploadContext } from './upload-context';

function contextFor(signal: AbortSignal, hashes: [number, string][]): SealContext & UploadContext {
  return {
    file: new File([new Uint8Array(30)], 'f.bin'),
    fileKey: {} as CryptoKey,
    chunkSize: 20,
    chunkCount: 2,
    signal,
    journal: {
      hashing: { scheme: 'sha256-pieces' },
      started: () => Promise.resolve(),
      chunkHashed: (index: number, hex: string) => {
        hashes.push([index, hex]);
        return Promise.resolve();
      },
      ended: () => Promise.resolve(),
    },
  } as Partial<UploadContext> as UploadContext;
}

/** A worker's sealPart that answers a held part with this hash, and notes its calls and releases. */
function workerSealPart(
  log: string[],
  onSealed = (): void => undefined,
): NonNullable<ChunkCipher['sealPart']> {
  return (_key, index, isLast, _source, start, end, options) => {
    log.push(`seal ${index} ${start}-${end} last=${isLast} hash=${options?.hashPlaintext?.scheme}`);
    onSealed();
    const part: SealedPart = {
      size: end - start + 28,
      plaintextHash: new Uint8Array([0xab, 0x01]),
      send: () => Promise.reject(new Error('not sent here')),
      release: () => {
        log.push(`release ${index}`);
      },
    };
    return Promise.resolve(part);
  };
}

describe('seal stage: sealHeldPart', () => {
  it('has the worker seal the slice, counts it read and records its plaintext hash in the journal', async () => {
    const log: string[] = [];
    const hashes: [number, string][] = [];
    const reads: [number, number][] = [];
    const work = {
      read: (index: number, bytes: number) => reads.push([index, bytes]),
      sent: () => undefined,
    };
    const context = contextFor(new AbortController().signal, hashes);
    const part = await sealHeldPart(context, workerSealPart(log), chunkSlice(context, 1, work), work);
    expect(part.size).toBe(38);
    expect(log).toEqual(['seal 1 20-30 last=true hash=sha256-pieces']);
    expect(reads).toEqual([[1, 10]]);
    expect(hashes).toEqual([[1, 'ab01']]);
  });

  it('releases the part and records nothing when the upload was cancelled while it was sealed', async () => {
    const log: string[] = [];
    const hashes: [number, string][] = [];
    const controller = new AbortController();
    const context = contextFor(controller.signal, hashes);
    const sealing = sealHeldPart(
      context,
      workerSealPart(log, () => {
        controller.abort();
      }),
      chunkSlice(context, 0),
      undefined,
    );
    await expect(sealing).rejects.toBeInstanceOf(TransferAbortedError);
    expect(log).toEqual(['seal 0 0-20 last=false hash=sha256-pieces', 'release 0']);
    expect(hashes).toEqual([]);
  });
});
