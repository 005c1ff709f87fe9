import { downloadMessages } from '@coffer/contracts';
import { describe, expect, it } from 'vitest';
// The real service worker script, run here against a stand-in for its global scope.
import serviceWorkerSource from '../../../../public/download-sw.js?raw';
import { TransferAbortedError } from '../transfer-errors';
import type { SaveFileInfo } from './save-sink';
import {
  DOWNLOAD_NOT_STARTED_TEXT,
  openPortTargetSink,
  openServiceWorkerSink,
  type DownloadWorkerLike,
} from './service-worker-sink';

const ORIGIN = 'http://coffer.test';

interface FakeFetchEvent {
  request: { url: string };
  respondWith(response: Response | Promise<Response>): void;
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
  sliceBytes?: number,
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
    sliceBytes,
  });
  if (navigation.response === null) throw new Error('the worker did not answer');
  return { sink, response: await navigation.response };
}

async function readAll(response: Response): Promise<Uint8Array> {
  return new Uint8Array(await response.arrayBuffer());
}

describe('service worker sink + download-sw.js', () => {
  it('streams the plaintext as an attachment', async () => {
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

    const body = readAll(answer);
    await sink.write(new Uint8Array([1, 2, 3]));
    await sink.write(new Uint8Array([4, 5, 6]));
    await sink.close();
    expect([...(await body)]).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('sends at most 8 slices ahead of the browser (backpressure)', async () => {
    const sw = startServiceWorker();
    const { sink, response } = await openThrough(
      sw,
      { fileName: 'a.bin', size: 9, contentType: '' },
      undefined,
      1,
    );
    // Nobody reads yet: eight 1-byte slices go to the service worker, the ninth waits.
    let written = false;
    const writing = sink.write(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9])).then(() => {
      written = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(written).toBe(false);
    const reader = response.body?.getReader();
    if (reader === undefined) throw new Error('no body');
    // The browser takes one: room for one more.
    expect([...((await reader.read()).value ?? [])]).toEqual([1]);
    await writing;
    const closing = sink.close();
    const rest: number[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest.push(...value);
    }
    await closing;
    expect(rest).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('sends a chunk in slices, so no step copies a whole chunk', async () => {
    const sw = startServiceWorker();
    const { sink, response } = await openThrough(
      sw,
      { fileName: 'a.bin', size: 8, contentType: '' },
      undefined,
      3,
    );
    const reader = response.body?.getReader();
    if (reader === undefined) throw new Error('no body');
    const writing = sink
      .write(new Uint8Array([1, 2, 3, 4, 5, 6, 7]))
      .then(() => sink.write(new Uint8Array([8])))
      .then(() => sink.close());
    const pieces: number[][] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pieces.push([...value]);
    }
    await writing;
    expect(pieces).toEqual([[1, 2, 3], [4, 5, 6], [7], [8]]);
  });

  it('frees the chunk once every slice is sent, and not before', async () => {
    // Node 20 has no ArrayBuffer.prototype.transfer: give it one that detaches, as browsers do.
    const proto = ArrayBuffer.prototype as { transfer?: (length: number) => ArrayBuffer };
    const original = proto.transfer;
    proto.transfer ??= function (this: ArrayBuffer, length: number): ArrayBuffer {
      return structuredClone(this, { transfer: [this] }).slice(0, length);
    };
    try {
      const sw = startServiceWorker();
      const { sink, response } = await openThrough(
        sw,
        { fileName: 'a.bin', size: 5, contentType: '' },
        undefined,
        2,
      );
      const body = readAll(response);
      const chunk = new Uint8Array([1, 2, 3, 4, 5]);
      await sink.write(chunk);
      expect(chunk.byteLength).toBe(0);
      await sink.close();
      expect([...(await body)]).toEqual([1, 2, 3, 4, 5]);
    } finally {
      if (original === undefined) delete proto.transfer;
      else proto.transfer = original;
    }
  });

  it('ends a write still waiting for a pull when the download is aborted', async () => {
    const sw = startServiceWorker();
    const { sink } = await openThrough(sw, { fileName: 'a.bin', size: 9, contentType: '' }, undefined, 1);
    // Nobody reads: after eight slices the write waits for a pull that never comes.
    const writing = sink.write(new Uint8Array(9));
    await sink.abort(new Error('cancelled in the app'));
    await expect(writing).rejects.toBeInstanceOf(TransferAbortedError);
  });

  it('errors the download when the page aborts, so the browser marks it failed', async () => {
    const sw = startServiceWorker();
    const { sink, response } = await openThrough(sw, { fileName: 'a.bin', size: 10, contentType: '' });
    const reader = response.body?.getReader();
    const reading = reader?.read();
    await sink.write(new Uint8Array([1]));
    expect((await reading)?.value).toEqual(new Uint8Array([1]));
    await sink.abort(new Error('file is corrupted or was tampered with'));
    await expect(reader?.read()).rejects.toThrow('tampered');
  });

  it('fails pending writes with an abort when the user cancels the download', async () => {
    const sw = startServiceWorker();
    const { sink, response } = await openThrough(
      sw,
      { fileName: 'a.bin', size: 10, contentType: '' },
      undefined,
      1,
    );
    // Eight slices go ahead; the ninth waits for room.
    const writing = sink.write(new Uint8Array(9));
    await response.body?.cancel();
    await expect(writing).rejects.toBeInstanceOf(TransferAbortedError);
    await expect(sink.write(new Uint8Array([2]))).rejects.toMatchObject({
      message: downloadMessages.aborted,
    });
  });

  it('fails the browser download when the worker it was handed to dies mid-stream', async () => {
    const sw = startServiceWorker();
    const { sink, response } = await openThrough(sw, { fileName: 'a.bin', size: 10, contentType: '' });
    const handOff = sink.handOff?.();
    if (handOff?.target.kind !== 'port') throw new Error('no port hand-off');
    // The crypto worker's side writes a slice, then its thread is gone: no `end`, no `error`.
    const workerSide = openPortTargetSink(handOff.target.port, handOff.target.pulls, 4);
    const reader = response.body?.getReader();
    if (reader === undefined) throw new Error('no body');
    await workerSide.write(new Uint8Array([1, 2]));
    expect([...((await reader.read()).value ?? [])]).toEqual([1, 2]);
    const next = reader.read();
    await handOff.settle('aborted');
    await expect(next).rejects.toThrow('The download stopped');
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
