import { decryptChunk, generateFileKey, IntegrityError } from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import { CryptoWorkerError, responseTransfer } from './chunk-cipher';
import { processCryptoRequest } from './process-request';
import type { CryptoRequest, CryptoResponse } from './protocol';
import { createWorkerChunkCipher, type CryptoWorkerLike } from './worker-chunk-cipher';

/**
 * `postMessage`'s structured clone, top-level Blobs kept as references (as a browser sends them):
 * happy-dom's Blob is not one Node's `structuredClone` knows.
 */
function cloneMessage<T extends object>(message: T, transfer: Transferable[]): T {
  const blobs = Object.entries(message).filter(([, value]) => value instanceof Blob);
  const rest = Object.fromEntries(Object.entries(message).filter(([, value]) => !(value instanceof Blob)));
  return { ...structuredClone(rest, { transfer }), ...Object.fromEntries(blobs) } as T;
}

/**
 * A worker on the same thread that keeps the real thing's message semantics: messages are
 * structured-cloned with their transfer lists, so transferred buffers are detached, and answers
 * arrive asynchronously (here in reverse order, to prove ids pair them up).
 */
class FakeCryptoWorker extends EventTarget implements CryptoWorkerLike {
  readonly received: CryptoRequest[] = [];
  terminated = false;
  #queue: CryptoRequest[] = [];

  postMessage(message: unknown, transfer?: Transferable[] | StructuredSerializeOptions): void {
    const list = Array.isArray(transfer) ? transfer : (transfer?.transfer ?? []);
    const request = cloneMessage(message as CryptoRequest, list);
    this.received.push(request);
    this.#queue.push(request);
  }

  /** Answers every queued request, last first. */
  async flush(): Promise<void> {
    const batch = this.#queue.reverse();
    this.#queue = [];
    for (const request of batch) {
      const response = await processCryptoRequest(request);
      const cloned = cloneMessage(response, responseTransfer(response));
      this.dispatchEvent(new MessageEvent<CryptoResponse>('message', { data: cloned }));
    }
  }

  crash(): void {
    this.dispatchEvent(new ErrorEvent('error', { message: 'boom' }));
  }

  terminate(): void {
    this.terminated = true;
  }
}

describe('worker chunk cipher', () => {
  it('transfers buffers, pairs answers with requests by id, and keeps one worker', async () => {
    const workers: FakeCryptoWorker[] = [];
    const cipher = createWorkerChunkCipher(() => {
      const worker = new FakeCryptoWorker();
      workers.push(worker);
      return worker;
    });
    const key = await generateFileKey();
    const file = new Blob([new Uint8Array([1, 1, 1, 2, 2])]);
    const results = Promise.all([
      cipher.encryptSlice(key, 0, false, file, 0, 3),
      cipher.encryptSlice(key, 1, true, file, 3, 5),
    ]);
    expect(workers).toHaveLength(1);
    await workers[0]?.flush();
    const [a, b] = (await results).map(({ iv, ciphertext }) => new Uint8Array([...iv, ...ciphertext]));
    expect([...(await decryptChunk(key, 0, false, a ?? new Uint8Array(0)))]).toEqual([1, 1, 1]);
    expect([...(await decryptChunk(key, 1, true, b ?? new Uint8Array(0)))]).toEqual([2, 2]);

    const input = (b ?? new Uint8Array(0)).buffer;
    const decrypting = cipher.decrypt(key, 1, true, input);
    expect(input.byteLength).toBe(0);
    await workers[0]?.flush();
    expect([...(await decrypting)]).toEqual([2, 2]);
    expect(workers).toHaveLength(1);
  });

  it('sends the File by reference for encryptSlice and gets IV and ciphertext back', async () => {
    const worker = new FakeCryptoWorker();
    const cipher = createWorkerChunkCipher(() => worker);
    const key = await generateFileKey();
    const file = new Blob([new Uint8Array([10, 11, 12, 13, 14])]);
    const encrypting = cipher.encryptSlice(key, 0, false, file, 1, 4);
    expect(worker.received[0]).toMatchObject({
      op: 'encrypt-slice',
      index: 0,
      isLast: false,
      start: 1,
      end: 4,
    });
    await worker.flush();
    const { iv, ciphertext } = await encrypting;
    expect([iv.length, ciphertext.length]).toEqual([12, 3 + 16]);

    const input = new Uint8Array([...iv, ...ciphertext]).buffer;
    const decrypting = cipher.decrypt(key, 0, false, input);
    expect(input.byteLength).toBe(0);
    await worker.flush();
    expect([...(await decrypting)]).toEqual([11, 12, 13]);
  });

  it('turns an integrity failure in the worker into IntegrityError', async () => {
    const worker = new FakeCryptoWorker();
    const cipher = createWorkerChunkCipher(() => worker);
    const key = await generateFileKey();
    const encrypting = cipher.encryptSlice(key, 0, true, new Blob([new Uint8Array([5])]), 0, 1);
    await worker.flush();
    const { iv, ciphertext } = await encrypting;
    const decrypting = cipher.decrypt(key, 1, true, new Uint8Array([...iv, ...ciphertext]).buffer);
    await worker.flush();
    await expect(decrypting).rejects.toBeInstanceOf(IntegrityError);
  });

  it('fails pending calls when the worker dies and starts a new one for the next call', async () => {
    const workers: FakeCryptoWorker[] = [];
    const cipher = createWorkerChunkCipher(() => {
      const worker = new FakeCryptoWorker();
      workers.push(worker);
      return worker;
    });
    const key = await generateFileKey();
    const file = new Blob([new Uint8Array([1])]);
    const pending = cipher.encryptSlice(key, 0, true, file, 0, 1);
    workers[0]?.crash();
    await expect(pending).rejects.toBeInstanceOf(CryptoWorkerError);
    expect(workers[0]?.terminated).toBe(true);

    const next = cipher.encryptSlice(key, 0, true, file, 0, 1);
    expect(workers).toHaveLength(2);
    await workers[1]?.flush();
    expect((await next).ciphertext.length).toBe(1 + 16);
  });

  it('dispose stops the worker and fails what is pending', async () => {
    const worker = new FakeCryptoWorker();
    const cipher = createWorkerChunkCipher(() => worker);
    const pending = cipher.encryptSlice(await generateFileKey(), 0, true, new Blob(['x']), 0, 1);
    cipher.dispose();
    await expect(pending).rejects.toBeInstanceOf(CryptoWorkerError);
    expect(worker.terminated).toBe(true);
  });
});
