import { decryptChunk, generateFileKey, IntegrityError } from '@coffer/crypto';
import { uploadMessages } from '@coffer/contracts';
import { describe, expect, it } from 'vitest';
import { FakeXhr, type FakeXhrHandler } from '../transfers/testing/fake-xhr';
import { TransferAbortedError, TransferError, isRetryableTransferError } from '../transfers/transfer-errors';
import { CryptoWorkerError, PartLostError, responseTransfer } from './chunk-cipher';
import { processCryptoRequest } from './process-request';
import type { CryptoRequest, CryptoResponse } from './protocol';
import { LoopbackCryptoWorker, cloneMessage } from './testing/loopback-worker';
import { createWorkerChunkCipher, type CryptoWorkerLike } from './worker-chunk-cipher';

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

/** A cipher on fake workers; `workers` lists every worker it started, in order. */
function cipherOnFakeWorkers() {
  const workers: FakeCryptoWorker[] = [];
  const cipher = createWorkerChunkCipher(() => {
    const worker = new FakeCryptoWorker();
    workers.push(worker);
    return worker;
  });
  return { workers, cipher };
}

describe('worker chunk cipher', () => {
  it('transfers buffers, pairs answers with requests by id, and keeps one worker', async () => {
    const { workers, cipher } = cipherOnFakeWorkers();
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

  it.each([
    {
      what: 'dies',
      stop: (worker: FakeCryptoWorker) => {
        worker.crash();
      },
      message: 'The encryption worker failed: boom',
    },
    {
      what: 'sent an unreadable message',
      stop: (worker: FakeCryptoWorker) => {
        worker.dispatchEvent(new MessageEvent('messageerror'));
      },
      message: 'The encryption worker sent an unreadable message',
    },
  ])('stops a worker that $what, fails what is pending and starts a new one', async ({ stop, message }) => {
    const { workers, cipher } = cipherOnFakeWorkers();
    const key = await generateFileKey();
    const file = new Blob([new Uint8Array([1])]);
    const pending = cipher.encryptSlice(key, 0, true, file, 0, 1);
    if (workers[0] !== undefined) stop(workers[0]);
    await expect(pending).rejects.toThrow(new CryptoWorkerError(message));
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

describe('parts sealed and sent by the worker', () => {
  const neverAborted = new AbortController().signal;

  /** A worker whose XHR hands each part to `handler`. */
  function workerCipher(handler: FakeXhrHandler) {
    const worker = new LoopbackCryptoWorker(() => new FakeXhr(handler) as unknown as XMLHttpRequest);
    return { worker, cipher: createWorkerChunkCipher(() => worker) };
  }

  it('keeps the part in the worker, sends it from there with progress, and frees it on release', async () => {
    const sent: Uint8Array[] = [];
    const { worker, cipher } = workerCipher((request) => {
      if (request.bytes !== null) sent.push(request.bytes);
      return Promise.resolve({
        kind: 'response',
        status: 200,
        body: '{"etag":"e1"}',
        headers: { ETag: 'h1' },
      });
    });
    const key = await generateFileKey();
    const part = await cipher.sealPart?.(key, 2, true, new Blob([new Uint8Array([7, 8, 9, 10])]), 1, 4);
    if (part === undefined) throw new Error('the worker cipher seals parts');
    expect(part.size).toBe(12 + 3 + 16);
    expect(worker.heldParts).toBe(1);

    const progress: [number, number | null][] = [];
    const answer = await part.send({
      url: '/part/3',
      headers: { Authorization: 'Bearer t' },
      signal: neverAborted,
      onProgress: (loaded, total) => progress.push([loaded, total]),
    });
    expect([answer.status, answer.responseText, answer.header('ETag'), answer.header('Other')]).toEqual([
      200,
      '{"etag":"e1"}',
      'h1',
      null,
    ]);
    expect(progress.at(-1)).toEqual([part.size, part.size]);
    expect(progress.length).toBeGreaterThan(1);
    // What went out is chunk 2 of the file, the last one, sealed whole: IV, ciphertext and tag.
    expect([...(await decryptChunk(key, 2, true, sent[0] ?? new Uint8Array(0)))]).toEqual([8, 9, 10]);
    expect(worker.received.map((request) => request.op)).toEqual(['seal-part', 'send-part']);

    part.release();
    part.release();
    await worker.idle();
    expect(worker.heldParts).toBe(0);
    expect(worker.received.map((request) => request.op)).toEqual(['seal-part', 'send-part', 'drop-part']);
    await expect(part.send({ url: '/part/3', headers: {}, signal: neverAborted })).rejects.toBeInstanceOf(
      CryptoWorkerError,
    );
  });

  it('aborts the request in the worker when the signal aborts', async () => {
    let reached: () => void = () => undefined;
    const atServer = new Promise<void>((resolve) => {
      reached = resolve;
    });
    // The server never answers: only the abort ends the request.
    const { worker, cipher } = workerCipher(() => {
      reached();
      return new Promise(() => undefined);
    });
    const part = await cipher.sealPart?.(await generateFileKey(), 0, true, new Blob(['x']), 0, 1);
    if (part === undefined) throw new Error('the worker cipher seals parts');
    const controller = new AbortController();
    const sending = part.send({ url: '/part/1', headers: {}, signal: controller.signal });
    await atServer;
    controller.abort();
    await expect(sending).rejects.toBeInstanceOf(TransferAbortedError);
    await expect(sending).rejects.toMatchObject({ message: uploadMessages.aborted });
    expect(worker.received.map((request) => request.op)).toContain('cancel-send');
    part.release();
    await worker.idle();
  });

  it('fails like the page transport: a 401 tells the session, a 5xx keeps its status for the retry', async () => {
    const answers = [
      { status: 401, body: '{"code":"UNAUTHORIZED","message":"expired"}' },
      { status: 503, body: '' },
    ];
    const { worker, cipher } = workerCipher(() =>
      Promise.resolve({ kind: 'response', ...(answers.shift() ?? { status: 200, body: '' }) }),
    );
    const part = await cipher.sealPart?.(await generateFileKey(), 0, true, new Blob(['x']), 0, 1);
    if (part === undefined) throw new Error('the worker cipher seals parts');
    let unauthorized = 0;
    const request = {
      url: '/part/1',
      headers: {},
      signal: neverAborted,
      onUnauthorized: () => {
        unauthorized++;
      },
    };
    await expect(part.send(request)).rejects.toMatchObject({
      code: 'HTTP',
      status: 401,
      message: uploadMessages.sessionExpired,
    });
    expect(unauthorized).toBe(1);
    const failure = await part.send(request).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransferError);
    expect(isRetryableTransferError(failure)).toBe(true);
    expect(unauthorized).toBe(1);
    // The same part can be sent again after a failure.
    expect((await part.send(request)).status).toBe(200);
    part.release();
    await worker.idle();
  });

  it('a part whose worker stopped is lost: sending it says so, releasing it starts no worker', async () => {
    const workers: LoopbackCryptoWorker[] = [];
    const cipher = createWorkerChunkCipher(() => {
      const worker = new LoopbackCryptoWorker(() => new FakeXhr(() => new Promise(() => undefined)) as never);
      workers.push(worker);
      return worker;
    });
    const key = await generateFileKey();
    const crashed = await cipher.sealPart?.(key, 0, true, new Blob(['x']), 0, 1);
    if (crashed === undefined) throw new Error('the worker cipher seals parts');
    workers[0]?.crash();
    await expect(crashed.send({ url: '/part/1', headers: {}, signal: neverAborted })).rejects.toBeInstanceOf(
      PartLostError,
    );
    crashed.release();
    expect(workers).toHaveLength(1);

    const disposed = await cipher.sealPart?.(key, 0, true, new Blob(['x']), 0, 1);
    expect(workers).toHaveLength(2);
    cipher.dispose();
    disposed?.release();
    expect(workers).toHaveLength(2);
    expect(workers.map((worker) => worker.terminated)).toEqual([true, true]);
  });
});
