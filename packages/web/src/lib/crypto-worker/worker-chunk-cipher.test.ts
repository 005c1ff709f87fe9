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
  it('transfers buffers both ways and pairs answers with requests by id', async () => {
    const workers: FakeCryptoWorker[] = [];
    const cipher = createWorkerChunkCipher(() => {
      const worker = new FakeCryptoWorker();
      workers.push(worker);
      return worker;
    });
    const key = await generateFileKey();
    const first = new Uint8Array([1, 1, 1]).buffer;
    const second = new Uint8Array([2, 2]).buffer;
    const results = Promise.all([cipher.encrypt(key, 0, false, first), cipher.encrypt(key, 1, true, second)]);
    expect(first.byteLength).toBe(0);
    expect(second.byteLength).toBe(0);
    expect(workers).toHaveLength(1);
    await workers[0]?.flush();
    const [a, b] = await results;
    expect([...(await decryptChunk(key, 0, false, a))]).toEqual([1, 1, 1]);
    expect([...(await decryptChunk(key, 1, true, b))]).toEqual([2, 2]);

    const decrypting = cipher.decrypt(key, 1, true, b.buffer);
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
    const encrypting = cipher.encrypt(key, 0, true, new Uint8Array([5]).buffer);
    await worker.flush();
    const encrypted = await encrypting;
    const decrypting = cipher.decrypt(key, 1, true, encrypted.buffer);
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
    const pending = cipher.encrypt(key, 0, true, new Uint8Array([1]).buffer);
    workers[0]?.crash();
    await expect(pending).rejects.toBeInstanceOf(CryptoWorkerError);
    expect(workers[0]?.terminated).toBe(true);

    const next = cipher.encrypt(key, 0, true, new Uint8Array([1]).buffer);
    expect(workers).toHaveLength(2);
    await workers[1]?.flush();
    expect((await next).length).toBe(29);
  });

  it('dispose stops the worker and fails what is pending', async () => {
    const worker = new FakeCryptoWorker();
    const cipher = createWorkerChunkCipher(() => worker);
    const pending = cipher.encrypt(await generateFileKey(), 0, true, new Uint8Array([1]).buffer);
    cipher.dispose();
    await expect(pending).rejects.toBeInstanceOf(CryptoWorkerError);
    expect(worker.terminated).toBe(true);
  });
});
