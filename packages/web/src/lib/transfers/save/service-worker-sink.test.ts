import { downloadMessages } from '@coffer/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
// The real service worker script, run here against a stand-in for its global scope.
import serviceWorkerSource from '../../../../public/download-sw.js?raw';
import { TransferAbortedError } from '../transfer-errors';
import type { SaveFileInfo } from './save-sink';
import {
  DOWNLOAD_NOT_STARTED_TEXT,
  openServiceWorkerSink,
  type DownloadWorkerLike,
} from './service-worker-sink';

const ORIGIN = 'http://coffer.test';

interface FakeFetchEvent {
  request: { url: string };
  respondWith(response: Response | Promise<Response>): void;
}

/**
 * A MessageChannel that delivers asynchronously and passes values by reference, as a browser passes
 * a Blob. The environment's own (Node's) cannot clone happy-dom's Blob.
 */
class InMemoryPort {
  onmessage: ((event: MessageEvent) => void) | null = null;
  other: InMemoryPort | null = null;
  closed = false;

  postMessage(data: unknown): void {
    const target = this.other;
    if (this.closed || target === null) return;
    setTimeout(() => {
      if (!target.closed) target.onmessage?.(new MessageEvent('message', { data }));
    }, 0);
  }

  close(): void {
    this.closed = true;
  }
}

class InMemoryMessageChannel {
  readonly port1 = new InMemoryPort();
  readonly port2 = new InMemoryPort();

  constructor() {
    this.port1.other = this.port2;
    this.port2.other = this.port1;
  }
}

/** A Blob whose stream gives its parts one by one, as a browser reads a large Blob (happy-dom's gives all at once). */
class PiecewiseBlob extends Blob {
  constructor(readonly parts: Uint8Array<ArrayBuffer>[]) {
    super(parts);
  }

  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    const queue = [...this.parts];
    return new ReadableStream({
      pull(controller) {
        const next = queue.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(next);
      },
    });
  }
}

/** Loads download-sw.js with a fake `self` and lets the test play the browser. */
function startServiceWorker() {
  const handlers = new Map<string, (event: unknown) => void>();
  const scope = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, handler: (event: unknown) => void) => handlers.set(type, handler),
    skipWaiting: () => Promise.resolve(),
    clients: { claim: () => Promise.resolve() },
  };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- runs the SW's own source as its script would run
  const run = new Function('self', serviceWorkerSource) as (self: unknown) => void;
  run(scope);

  const worker: DownloadWorkerLike = {
    postMessage(message, transfer = []) {
      handlers.get('message')?.({ data: message, ports: transfer });
    },
  };
  /** A navigation (or any request) reaching the worker; resolves with its answer, or null if it let it pass. */
  const navigate = (path: string): Promise<Response> | null => {
    let answer: Promise<Response> | null = null;
    const event: FakeFetchEvent = {
      request: { url: `${ORIGIN}${path}` },
      respondWith: (response) => {
        answer = Promise.resolve(response);
      },
    };
    handlers.get('fetch')?.(event);
    return answer;
  };
  return { worker, navigate };
}

/** Opens a sink whose download URL goes to `sw`; returns the sink and the browser's response. */
async function openThrough(
  sw: ReturnType<typeof startServiceWorker>,
  info: SaveFileInfo,
  check?: (url: string) => void,
) {
  const navigation: { response: Promise<Response> | null } = { response: null };
  const sink = await openServiceWorkerSink(info, {
    getWorker: () => Promise.resolve(sw.worker),
    openUrl: (url) => {
      check?.(url);
      navigation.response = sw.navigate(url);
      return () => undefined;
    },
    cleanUpDelayMs: 0,
  });
  if (navigation.response === null) throw new Error('the worker did not answer');
  return { sink, response: await navigation.response };
}

const blobOf = (...values: number[]): Blob => new Blob([new Uint8Array(values)]);

/** Reads the body as the browser's download does, piece by piece (happy-dom's arrayBuffer() is not). */
async function readAll(response: Response): Promise<Uint8Array> {
  const reader = response.body?.getReader();
  if (reader === undefined) throw new Error('no body');
  const pieces: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return new Uint8Array(Buffer.concat(pieces));
    pieces.push(value);
  }
}

describe('service worker sink + download-sw.js', () => {
  beforeEach(() => {
    vi.stubGlobal('MessageChannel', InMemoryMessageChannel);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('streams chunks as an attachment, one chunk per browser pull', async () => {
    const sw = startServiceWorker();
    const { sink, response: answer } = await openThrough(
      sw,
      { fileName: 'Résumé "final".pdf', size: 6, contentType: 'application/pdf' },
      (url) => {
        expect(url).toMatch(/^\/__coffer_download__\/[0-9a-f-]+\/R%C3%A9sum%C3%A9%20%22final%22\.pdf$/);
      },
    );
    expect(answer.headers.get('Content-Disposition')).toBe(
      `attachment; filename="R_sum_ _final_.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22.pdf`,
    );
    expect(answer.headers.get('Content-Length')).toBe('6');
    expect(answer.headers.get('Content-Type')).toBe('application/octet-stream');

    // Nobody reads yet: the first write waits for the browser's pull (backpressure).
    let written = false;
    const first = sink.write(blobOf(1, 2, 3)).then(() => {
      written = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(written).toBe(false);

    const body = readAll(answer);
    await first;
    await sink.write(blobOf(4, 5, 6));
    await sink.close();
    expect([...(await body)]).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('hands a chunk to the browser piece by piece and asks for the next one only after it', async () => {
    const sw = startServiceWorker();
    const size = 300_000;
    const { sink, response } = await openThrough(sw, {
      fileName: 'big.bin',
      size: size + 1,
      contentType: '',
    });
    const reader = response.body?.getReader();
    if (reader === undefined) throw new Error('no body');
    const big = new Uint8Array(size).map((_, i) => i % 251);
    const reading = reader.read();
    await sink.write(new PiecewiseBlob([big.subarray(0, 100_000), big.subarray(100_000)]));
    const first = await reading;
    expect(first.value?.length).toBeGreaterThan(0);
    expect(first.value?.length).toBeLessThan(size);

    // The rest of the first chunk is still in the worker: the page gets no credit for the next.
    let secondWritten = false;
    const second = sink.write(blobOf(99)).then(() => {
      secondWritten = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(secondWritten).toBe(false);

    const received: Uint8Array[] = [first.value ?? new Uint8Array(0)];
    const closing = second.then(() => sink.close());
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received.push(value);
    }
    await closing;
    expect(Buffer.concat(received).equals(Buffer.concat([big, new Uint8Array([99])]))).toBe(true);
  });

  it('still takes a chunk sent as bytes by a page of an older version', async () => {
    const sw = startServiceWorker();
    const channel = new MessageChannel();
    const pulls: number[] = [];
    channel.port1.onmessage = (event: MessageEvent<{ type: string }>) => {
      if (event.data.type !== 'pull') return;
      pulls.push(pulls.length);
      if (pulls.length === 1)
        channel.port1.postMessage({ type: 'chunk', bytes: new Uint8Array([7, 8]).buffer });
      else channel.port1.postMessage({ type: 'end' });
    };
    sw.worker.postMessage(
      { type: 'coffer-download:register', id: 'old-page', fileName: 'a.bin', size: 2, contentType: '' },
      [channel.port2],
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    const response = await sw.navigate('/__coffer_download__/old-page/a.bin');
    if (response === null) throw new Error('the worker did not answer');
    expect([...(await readAll(response))]).toEqual([7, 8]);
    channel.port1.close();
  });

  it('errors the download when the page aborts, so the browser marks it failed', async () => {
    const sw = startServiceWorker();
    const { sink, response } = await openThrough(sw, { fileName: 'a.bin', size: 10, contentType: '' });
    const reader = response.body?.getReader();
    const reading = reader?.read();
    await sink.write(blobOf(1));
    expect([...((await reading)?.value ?? [])]).toEqual([1]);
    await sink.abort(new Error('file is corrupted or was tampered with'));
    await expect(reader?.read()).rejects.toThrow('tampered');
  });

  it('fails pending writes with an abort when the user cancels the download', async () => {
    const sw = startServiceWorker();
    const { sink, response } = await openThrough(sw, { fileName: 'a.bin', size: 10, contentType: '' });
    const writing = sink.write(blobOf(1));
    await response.body?.cancel();
    await expect(writing).rejects.toBeInstanceOf(TransferAbortedError);
    await expect(sink.write(blobOf(2))).rejects.toMatchObject({
      message: downloadMessages.aborted,
    });
  });

  it('gives up when the worker never takes the download', async () => {
    const sw = startServiceWorker();
    await expect(
      openServiceWorkerSink(
        { fileName: 'a.bin', size: 1, contentType: '' },
        {
          getWorker: () => Promise.resolve(sw.worker),
          openUrl: () => () => undefined,
          startTimeoutMs: 30,
          cleanUpDelayMs: 0,
        },
      ),
    ).rejects.toThrow(DOWNLOAD_NOT_STARTED_TEXT);
  });

  it('leaves every other request alone and answers unknown downloads with 404', async () => {
    const sw = startServiceWorker();
    expect(sw.navigate('/api/users/files')).toBeNull();
    expect(sw.navigate('/myfiles')).toBeNull();
    const unknown = sw.navigate('/__coffer_download__/nope/file.txt');
    expect((await unknown)?.status).toBe(404);
  });
});
