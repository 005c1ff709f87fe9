import { decryptChunk, generateFileKey } from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import { createInProcessChunkCipher } from '../../crypto-worker';
import { SLICE_BYTES } from '../buffers';
import { TransferAbortedError } from '../transfer-errors';
import { chunkSlice } from './read';
import { sealBytes } from './seal';
import { heldOnPage, partBlob } from './store';
import { FakeXhr, type FakeXhrRequest } from '../testing/fake-xhr';
import type { UploadContext } from './upload-context';

/** Only what the read, seal and store stages read. */
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

/** Chunk `index` read, sealed on this thread and stored as the part's Blob (what uploadFile does without a worker). */
async function sealedBlob(context: UploadContext, index: number): Promise<Blob> {
  return partBlob(await sealBytes(context, chunkSlice(context, index), undefined), context.signal);
}

describe('read, seal and store on the page: the part Blob', () => {
  it('builds the part Blob from several slices and keeps every byte in place', async () => {
    const size = 2 * SLICE_BYTES + 12_345;
    const plain = new Uint8Array(size).map((_, i) => (i * 7) % 256);
    const key = await generateFileKey();
    const file = new File([plain], 'big.bin');
    // The file is two chunks; the second is the last and is more than two slices long.
    const chunkSize = 1000;
    const context = contextFor(file, size - chunkSize, key, new AbortController().signal);
    const last = await sealedBlob(context, 1);
    expect(last.size).toBe(chunkSize + 28);
    expect(Buffer.from(await decryptChunk(key, 1, true, new Uint8Array(await last.arrayBuffer())))).toEqual(
      Buffer.from(plain.subarray(size - chunkSize)),
    );
    const first = await sealedBlob(context, 0);
    expect(first.size).toBe(size - chunkSize + 28);
    const decrypted = await decryptChunk(key, 0, false, new Uint8Array(await first.arrayBuffer()));
    expect(Buffer.from(decrypted).equals(Buffer.from(plain.subarray(0, size - chunkSize)))).toBe(true);
  });

  it('stops when the upload is aborted while the chunk is encrypted', async () => {
    const key = await generateFileKey();
    const file = new File([new Uint8Array(3 * SLICE_BYTES)], 'big.bin');
    const controller = new AbortController();
    const context = contextFor(file, file.size, key, controller.signal);
    const encrypting = sealedBlob(context, 0);
    controller.abort();
    await expect(encrypting).rejects.toBeInstanceOf(TransferAbortedError);
  });
});

describe('store stage: heldOnPage', () => {
  it("is sent as a PUT of the page's Blob by the page's XHR, and has nothing to free", async () => {
    const requests: FakeXhrRequest[] = [];
    const part = heldOnPage(
      new Blob(['sealed']),
      () =>
        new FakeXhr((request) => {
          requests.push(request);
          return Promise.resolve({ kind: 'response', status: 200, body: '{"etag":"e"}' });
        }, 1) as unknown as XMLHttpRequest,
    );
    expect(part.size).toBe(6);
    const answer = await part.send({ url: '/p', headers: {}, signal: new AbortController().signal });
    expect(answer.responseText).toBe('{"etag":"e"}');
    expect(requests.map((request) => [request.method, request.url])).toEqual([['PUT', '/p']]);
    expect(new TextDecoder().decode(requests[0]?.bytes ?? new Uint8Array())).toBe('sealed');
    part.release();
  });
});
