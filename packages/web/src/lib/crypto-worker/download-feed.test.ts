import { IntegrityError } from '@coffer/crypto';
import { TransferAbortedError } from '../transfers/transfer-errors';
import { describe, expect, it } from 'vitest';
import { blobChunkStore, type ChunkStore } from '../transfers/download/chunk-store';
import { runDownloadPipeline } from '../transfers/download/download-run';
import type { SaveSink } from '../transfers/save/save-sink';
import {
  downloadThroughStore,
  jobOf,
  servedFrom,
  smallObject,
  type SmallObject,
} from '../transfers/testing/store-download';
import { chunkFeed, feedVerifiedChunks, type FeedMessage } from './download-feed';

const CHUNK = 1024;
const SLICE = 256;

/**
 * Two linked ports that hand messages over as they are (a Blob stays a Blob): this environment's
 * Blob is the DOM stand-in's, which Node's MessageChannel cannot clone. Delivery is asynchronous and
 * in order, as between a worker and a service worker; a closed port delivers and receives nothing.
 */
function linkedPorts(): { port1: MessagePort; port2: MessagePort } {
  interface Port {
    onmessage: ((event: { data: unknown }) => void) | null;
    closed: boolean;
    other: Port | null;
    postMessage(data: unknown): void;
    close(): void;
  }
  const make = (): Port => ({
    onmessage: null,
    closed: false,
    other: null,
    postMessage(data) {
      const to = this.other;
      if (this.closed || to === null) return;
      setTimeout(() => {
        if (!to.closed) to.onmessage?.({ data });
      }, 0);
    },
    close() {
      this.closed = true;
    },
  });
  const [a, b] = [make(), make()];
  a.other = b;
  b.other = a;
  return { port1: a as unknown as MessagePort, port2: b as unknown as MessagePort };
}

/** A store that counts the chunks it holds (Blobs), to see how far the crypto worker runs ahead. */
function countingStore(): {
  store: ChunkStore;
  held: () => number;
  most: () => number;
  cleared: () => boolean;
} {
  const inner = blobChunkStore();
  let held = 0;
  let most = 0;
  let cleared = false;
  const store: ChunkStore = {
    kind: 'files',
    async begin() {
      const writer = await inner.begin();
      return {
        append: (bytes) => writer.append(bytes),
        async finish() {
          const chunk = await writer.finish();
          held++;
          most = Math.max(most, held);
          let removed = false;
          return {
            data: chunk.data,
            remove: () => {
              if (!removed) held--;
              removed = true;
            },
          };
        },
        abandon: () => writer.abandon(),
      };
    },
    clear: () => {
      cleared = true;
      return Promise.resolve();
    },
  };
  return { store, held: () => held, most: () => most, cleared: () => cleared };
}

/**
 * The two threads of a download, here on one: the crypto worker's side feeds chunks of `object`
 * over linked ports to the service worker's pipeline, which saves into a recording sink.
 */
async function feedDownload(
  object: SmallObject,
  options: { streaming?: boolean; cancelAfterFirst?: boolean; windowBytes?: number } = {},
) {
  const job = jobOf(object);
  const serve = servedFrom(object.body);
  const channel = linkedPorts();
  const counting = countingStore();
  const workerOpens: number[] = [];
  const serviceWorkerOpens: number[] = [];
  const fed = feedVerifiedChunks({
    job,
    open: (offset) => {
      workerOpens.push(offset);
      return serve(offset);
    },
    store: counting.store,
    port: channel.port2,
    streaming: options.streaming ?? true,
    signal: new AbortController().signal,
    sliceBytes: SLICE,
    ...(options.windowBytes === undefined ? {} : { windowBytes: options.windowBytes }),
  });
  const written: Uint8Array[] = [];
  const heldWhenWritten: number[] = [];
  let aborted: unknown = null;
  const feed = chunkFeed(channel.port1);
  const sink: SaveSink = {
    write: (bytes) => {
      written.push(bytes.slice());
      heldWhenWritten.push(counting.held());
      if (options.cancelAfterFirst === true) feed.cancel();
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
    abort: (reason) => {
      aborted = reason;
      return Promise.resolve();
    },
  };
  const outcome = await downloadThroughStore(
    object,
    blobChunkStore(),
    sink,
    SLICE,
    serviceWorkerOpens,
    feed,
    options.windowBytes,
  );
  await fed;
  const saved = new Uint8Array(await new Blob(written as Uint8Array<ArrayBuffer>[]).arrayBuffer());
  return { outcome, saved, aborted, heldWhenWritten, counting, workerOpens, serviceWorkerOpens };
}

describe('a download fed by the crypto worker', () => {
  it('saves the right bytes, fetched by the crypto worker only, at most two chunks stored, all removed', async () => {
    const object = await smallObject(CHUNK, null);
    const run = await feedDownload(object);
    expect(run.outcome).toBeNull();
    expect(run.saved).toEqual(object.plain);
    expect(run.workerOpens).toEqual([0]);
    expect(run.serviceWorkerOpens).toEqual([]);
    expect(run.counting.most()).toBeLessThanOrEqual(2);
    expect(run.counting.held()).toBe(0);
    expect(run.counting.cleared()).toBe(true);
  });

  it('asks for each chunk in windows, in the crypto worker and in the service worker alone', async () => {
    const object = await smallObject(CHUNK, null);
    // Two chunks of 1052 bytes in windows of 512 (512, 512 and 28 bytes each), and a last one of 128.
    const windowStarts = [0, 512, 1024, 1052, 1564, 2076, 2104];
    const fed = await feedDownload(object, { windowBytes: 2 * SLICE });
    expect(fed.saved).toEqual(object.plain);
    expect(fed.workerOpens).toEqual(windowStarts);
    const alone = await feedDownload(object, { windowBytes: 2 * SLICE, streaming: false });
    expect(alone.saved).toEqual(object.plain);
    expect(alone.serviceWorkerOpens).toEqual(windowStarts);
  });

  it('saves nothing of a tampered chunk: the IntegrityError crosses to the service worker, which aborts the save', async () => {
    const object = await smallObject(CHUNK, 1);
    const run = await feedDownload(object);
    expect(run.outcome).toBeInstanceOf(IntegrityError);
    expect(run.aborted).toBeInstanceOf(IntegrityError);
    // Not one byte of chunk 1 (or later) reached the sink: what was saved is chunk 0's, or less of it.
    expect(run.saved.length).toBeLessThanOrEqual(CHUNK);
    expect(run.saved).toEqual(object.plain.subarray(0, run.saved.length));
    expect(run.counting.held()).toBe(0);
  });

  it('refuses an object extended after its last chunk before the last chunk is handed on', async () => {
    const object = await smallObject(CHUNK, null);
    const extended = { ...object, body: new Uint8Array([...object.body, 1, 2, 3]) };
    const run = await feedDownload(extended);
    expect(run.outcome).toBeInstanceOf(IntegrityError);
    // Nothing of the last chunk; of the two before it, what the sink took before the failure arrived.
    expect(run.saved.length).toBeLessThanOrEqual(2 * CHUNK);
    expect(run.saved).toEqual(object.plain.subarray(0, run.saved.length));
  });

  it('runs in the service worker alone where the crypto worker declines (no streaming there)', async () => {
    const object = await smallObject(CHUNK, null);
    const run = await feedDownload(object, { streaming: false });
    expect(run.outcome).toBeNull();
    expect(run.saved).toEqual(object.plain);
    expect(run.workerOpens).toEqual([]);
    expect(run.serviceWorkerOpens).toEqual([0]);
  });

  it('stops the crypto worker and removes its chunks when the service worker ends the download', async () => {
    const object = await smallObject(CHUNK, null);
    const run = await feedDownload(object, { cancelAfterFirst: true });
    expect(run.outcome).not.toBeNull();
    expect(run.counting.held()).toBe(0);
    expect(run.counting.cleared()).toBe(true);
  });

  it('hands on nothing but verified chunks and small messages', async () => {
    const object = await smallObject(CHUNK, 1);
    const channel = linkedPorts();
    const seen: FeedMessage['type'][] = [];
    channel.port1.onmessage = (event: MessageEvent<FeedMessage>) => {
      seen.push(event.data.type);
      // As the service worker does: a chunk taken once saved, the download ended on a failure.
      if (event.data.type === 'chunk') channel.port1.postMessage({ type: 'taken', index: event.data.index });
      if (event.data.type === 'failed') channel.port1.postMessage({ type: 'cancel' });
    };
    await feedVerifiedChunks({
      job: jobOf(object),
      open: servedFrom(object.body),
      store: blobChunkStore(),
      port: channel.port2,
      streaming: true,
      signal: new AbortController().signal,
      sliceBytes: SLICE,
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    channel.port1.close();
    expect(seen.filter((type) => type === 'chunk')).toHaveLength(1);
    expect(seen.at(-1)).toBe('failed');
  });

  it('ends a wait for a chunk that will not come when the download is cancelled here', async () => {
    const object = await smallObject(CHUNK, null);
    const channel = linkedPorts();
    const replies: string[] = [];
    // A crypto worker that answered the first request and then went quiet.
    channel.port2.onmessage = (event: MessageEvent<{ type: string }>) => {
      replies.push(event.data.type);
    };
    channel.port2.postMessage({ type: 'opened' } satisfies FeedMessage);
    const cancel = new AbortController();
    const running = runDownloadPipeline({
      job: jobOf(object),
      open: () => Promise.reject(new Error('the feed fetches')),
      decrypt: () => Promise.reject(new Error('not this route')),
      inSlices: { sliceBytes: SLICE },
      feed: chunkFeed(channel.port1),
      openSink: () =>
        Promise.resolve({
          write: () => Promise.resolve(),
          close: () => Promise.resolve(),
          abort: () => Promise.resolve(),
        }),
      progress: { text: () => undefined, fraction: () => undefined },
      signal: cancel.signal,
    }).then(
      () => null,
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    cancel.abort();
    expect(await running).toBeInstanceOf(TransferAbortedError);
    await new Promise((resolve) => setTimeout(resolve, 5));
    // The crypto worker heard that the download ended.
    expect(replies).toContain('cancel');
  });

  it('always has a last word for the service worker, also when the page cancelled it', async () => {
    const object = await smallObject(CHUNK, null);
    const channel = linkedPorts();
    const seen: string[] = [];
    channel.port1.onmessage = (event: MessageEvent<FeedMessage>) => {
      seen.push(event.data.type);
    };
    const page = new AbortController();
    const fed = feedVerifiedChunks({
      job: jobOf(object),
      open: servedFrom(object.body),
      store: blobChunkStore(),
      port: channel.port2,
      streaming: true,
      signal: page.signal,
      sliceBytes: SLICE,
    });
    // Two chunks posted, none taken: the worker waits; the page gives up.
    await new Promise((resolve) => setTimeout(resolve, 50));
    page.abort();
    await fed;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(seen.at(-1)).toBe('failed');
  });
});
