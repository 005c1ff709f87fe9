import { describe, expect, it, vi } from 'vitest';
import { TransferAbortedError } from '../transfer-errors';
import { createStreamSink } from './stream-sink';

/** Node 20 has no ArrayBuffer.prototype.transfer: give it one that detaches, as browsers do. */
function withTransfer(): () => void {
  const proto = ArrayBuffer.prototype as { transfer?: (length: number) => ArrayBuffer };
  const original = proto.transfer;
  proto.transfer ??= function (this: ArrayBuffer, length: number): ArrayBuffer {
    return structuredClone(this, { transfer: [this] }).slice(0, length);
  };
  return () => {
    if (original === undefined) delete proto.transfer;
    else proto.transfer = original;
  };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<number[][]> {
  const pieces: number[][] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return pieces;
    pieces.push([...value]);
  }
}

describe('stream sink (the download service worker writes the response body)', () => {
  it('queues each chunk in slices and ends the stream behind them', async () => {
    const { stream, sink } = createStreamSink(() => undefined, { sliceBytes: 3 });
    const body = readAll(stream);
    await sink.write(new Uint8Array([1, 2, 3, 4, 5, 6, 7]));
    await sink.write(new Uint8Array([8]));
    await sink.close();
    expect(await body).toEqual([[1, 2, 3], [4, 5, 6], [7], [8]]);
  });

  it('takes the next chunk only once the browser has taken every slice of the previous one', async () => {
    const { stream, sink } = createStreamSink(() => undefined, { sliceBytes: 2 });
    await sink.write(new Uint8Array([1, 2, 3, 4]));
    // The first chunk is queued whole (the browser writes it while the next one decrypts)...
    let second = false;
    const writing = sink.write(new Uint8Array([5, 6])).then(() => {
      second = true;
    });
    const reader = stream.getReader();
    expect((await reader.read()).value).toEqual(new Uint8Array([1, 2]));
    await Promise.resolve();
    // ...but the second waits while part of the first is still queued: at most one chunk waits.
    expect(second).toBe(false);
    expect((await reader.read()).value).toEqual(new Uint8Array([3, 4]));
    await writing;
    expect(second).toBe(true);
    expect((await reader.read()).value).toEqual(new Uint8Array([5, 6]));
  });

  it('frees a chunk as soon as the browser has taken it, not before, while the next one is still on its way', async () => {
    const restore = withTransfer();
    try {
      const { stream, sink } = createStreamSink(() => undefined, { sliceBytes: 2 });
      const first = new Uint8Array([1, 2, 3]);
      await sink.write(first);
      expect(first.byteLength).toBe(3);
      const reader = stream.getReader();
      expect([...((await reader.read()).value ?? [])]).toEqual([1, 2]);
      await Promise.resolve();
      expect(first.byteLength).toBe(3);
      // The last slice is a copy: once it is taken, nothing reads the chunk's buffer any more. No
      // next write is needed (that chunk may still be decrypting).
      expect([...((await reader.read()).value ?? [])]).toEqual([3]);
      await vi.waitFor(() => {
        expect(first.byteLength).toBe(0);
      });
      await sink.write(new Uint8Array([4, 5]));
      expect([...((await reader.read()).value ?? [])]).toEqual([4, 5]);
    } finally {
      restore();
    }
  });

  it('queues a write of one slice as a copy in its own memory, freeing the written buffer at once', async () => {
    const { stream, sink } = createStreamSink(() => undefined, { sliceBytes: 4 });
    const reader = stream.getReader();
    const first = new Uint8Array([1, 2, 3, 4]);
    await sink.write(first);
    // WebCrypto's output is freed as soon as it is copied: its memory serves the next call.
    expect(first.byteLength).toBe(0);
    const taken = (await reader.read()).value;
    expect([...(taken ?? [])]).toEqual([1, 2, 3, 4]);
    expect(taken?.buffer).not.toBe(first.buffer);
  });

  it('packs smaller writes into whole slices, and queues what is left at close', async () => {
    const { stream, sink } = createStreamSink(() => undefined, { sliceBytes: 4 });
    const body = readAll(stream);
    await sink.write(new Uint8Array([1, 2]));
    await sink.write(new Uint8Array([3, 4, 5]));
    await sink.write(new Uint8Array([6]));
    // A whole chunk goes behind what was packed before it.
    await sink.write(new Uint8Array([7, 8, 9, 10, 11]));
    await sink.write(new Uint8Array([12]));
    await sink.close();
    expect(await body).toEqual([[1, 2, 3, 4], [5, 6], [7, 8, 9, 10], [11], [12]]);
  });

  it('reuses the memory of a slice once the browser has taken a later one, never before', async () => {
    const restore = withTransfer();
    try {
      const { stream, sink } = createStreamSink(() => undefined, { sliceBytes: 2 });
      const reader = stream.getReader();
      await sink.write(new Uint8Array([1, 2]));
      const first = (await reader.read()).value;
      await Promise.resolve();
      // The last slice taken may still be read by the browser: it stays whole.
      expect([...(first ?? [])]).toEqual([1, 2]);
      await sink.write(new Uint8Array([3, 4]));
      const second = (await reader.read()).value;
      // A later slice was taken: the first slice's memory went back to the pool, and the object the
      // browser had is detached (empty), so it can never show bytes of another slice.
      await vi.waitFor(() => {
        expect(first?.byteLength).toBe(0);
      });
      expect([...(second ?? [])]).toEqual([3, 4]);
      await sink.write(new Uint8Array([5, 6]));
      // Written into the first slice's memory, taken whole.
      expect([...((await reader.read()).value ?? [])]).toEqual([5, 6]);
    } finally {
      restore();
    }
  });

  it('without ArrayBuffer.prototype.transfer, gives each slice memory of its own and detaches nothing taken', async () => {
    const proto = ArrayBuffer.prototype as { transfer?: unknown };
    const original = proto.transfer;
    delete proto.transfer;
    try {
      const { stream, sink } = createStreamSink(() => undefined, { sliceBytes: 2 });
      const reader = stream.getReader();
      const taken: Uint8Array[] = [];
      for (const bytes of [
        [1, 2],
        [3, 4],
        [5, 6],
      ]) {
        await sink.write(new Uint8Array(bytes));
        taken.push((await reader.read()).value ?? new Uint8Array());
      }
      expect(taken.map((value) => [...value])).toEqual([
        [1, 2],
        [3, 4],
        [5, 6],
      ]);
    } finally {
      if (original !== undefined) proto.transfer = original;
    }
  });

  it('lets up to four packed slices wait together, then waits until the browser has taken them all', async () => {
    const { stream, sink } = createStreamSink(() => undefined, { sliceBytes: 1 });
    for (let i = 0; i < 4; i++) await sink.write(new Uint8Array([i]));
    let fifth = false;
    const writing = sink.write(new Uint8Array([4])).then(() => {
      fifth = true;
    });
    await Promise.resolve();
    expect(fifth).toBe(false);
    const reader = stream.getReader();
    const taken: number[] = [];
    for (let i = 0; i < 5; i++) taken.push(...((await reader.read()).value ?? []));
    await writing;
    expect(taken).toEqual([0, 1, 2, 3, 4]);
  });

  it('counts the download complete only once the browser has taken the last slice', async () => {
    const { stream, sink } = createStreamSink(() => undefined, { sliceBytes: 2 });
    await sink.write(new Uint8Array([1, 2, 3]));
    let closed = false;
    const closing = sink.close().then(() => {
      closed = true;
    });
    const reader = stream.getReader();
    expect((await reader.read()).value).toEqual(new Uint8Array([1, 2]));
    await Promise.resolve();
    expect(closed).toBe(false);
    expect((await reader.read()).value).toEqual(new Uint8Array([3]));
    await closing;
    expect(closed).toBe(true);
    expect((await reader.read()).done).toBe(true);
  });

  it('errors the stream on abort, so the browser marks the download failed', async () => {
    const { stream, sink } = createStreamSink(() => undefined);
    const reader = stream.getReader();
    await sink.write(new Uint8Array([1]));
    await sink.abort(new Error('integrity'));
    // Queued bytes are dropped with the error: no complete-looking file.
    await expect(reader.read()).rejects.toThrow('integrity');
    // A later write (a pipeline still running) fails instead of queueing more.
    await expect(sink.write(new Uint8Array([2]))).rejects.toBeInstanceOf(TransferAbortedError);
  });

  it('tells the download and fails a waiting write when the user cancels it in the browser', async () => {
    const onCancel = vi.fn();
    const { stream, sink } = createStreamSink(onCancel, { sliceBytes: 1 });
    await sink.write(new Uint8Array([1, 2]));
    const waiting = sink.write(new Uint8Array([3]));
    await stream.cancel();
    expect(onCancel).toHaveBeenCalledOnce();
    await expect(waiting).rejects.toBeInstanceOf(TransferAbortedError);
    // A close after the browser's cancel is the same abort: the download did not complete.
    await expect(sink.close()).rejects.toBeInstanceOf(TransferAbortedError);
  });
});
