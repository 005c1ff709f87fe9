import { downloadMessages, uploadMessages } from '@coffer/contracts';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createInProcessChunkCipher } from '../crypto-worker';
import { installLeaveWarning } from './leave-warning';
import { MemorySink } from './testing/memory-sink';
import { FakeCofferServer, patternBytes } from './testing/fake-coffer-server';
import { ownerKeyPair } from './testing/keys';
import { encryptForStorage } from './testing/stored-file';
import { createTransferManager, type TransferItem, type TransferManagerDeps } from './transfer-manager';
import { TransferError } from './transfer-errors';

const testFormat = { chunkSize: 1024, directUploadThreshold: 4096 };

let keys: CryptoKeyPair;
beforeAll(async () => {
  keys = await ownerKeyPair();
});

function setUp(server: FakeCofferServer, deps: Partial<TransferManagerDeps> = {}) {
  const manager = createTransferManager({
    getCipher: createInProcessChunkCipher,
    createXhr: server.createXhr,
    fetchImpl: server.fetch as typeof fetch,
    retryDelaysMs: [],
    testFormat,
    saveCapabilities: { fsAccess: false, serviceWorker: true },
    openSink: () => Promise.resolve(new MemorySink()),
    ...deps,
  });
  /** Every distinct status text each item showed, in order. */
  const texts = new Map<string, string[]>();
  manager.subscribe(() => {
    for (const item of [...manager.getSnapshot().uploads, ...manager.getSnapshot().downloads]) {
      const seen = texts.get(item.fileName) ?? [];
      if (seen.at(-1) !== item.statusText) seen.push(item.statusText);
      texts.set(item.fileName, seen);
    }
  });
  const uploadKeys = { publicKey: keys.publicKey, keyVersion: 'key-1' };
  return { manager, texts, uploadKeys };
}

const file = (name: string, size: number): File => new File([patternBytes(size)], name);

/** Holds every part PUT until released, to observe the queue. */
function gatedParts(server: FakeCofferServer) {
  const gates: (() => void)[] = [];
  server.partBehaviour = () =>
    new Promise((resolve) => {
      gates.push(() => {
        resolve('ok');
      });
    });
  return {
    waiting: () => gates.length,
    releaseAll: () => {
      for (const open of gates.splice(0)) open();
    },
  };
}

describe('transfer manager: uploads', () => {
  it('starts small files at once and reports them complete', async () => {
    const server = new FakeCofferServer();
    const { manager } = setUp(server);
    const [ticket] = manager.enqueueUploads([file('a.txt', 100)], {
      api: server.api,
      keys: { publicKey: keys.publicKey, keyVersion: 'key-1' },
    });
    expect(manager.getSnapshot().uploads[0]).toMatchObject({
      fileName: 'a.txt',
      status: 'processing',
      progress: 0,
    });
    expect(manager.hasActiveOperations()).toBe(true);
    const outcome = await ticket?.done;
    expect(outcome?.item).toMatchObject({
      status: 'complete',
      progress: 100,
      statusText: uploadMessages.complete,
      error: null,
    });
    expect(outcome?.file?.name).toBe('a.txt');
    expect(manager.hasActiveOperations()).toBe(false);
    const snapshot = manager.getSnapshot();
    expect(manager.getSnapshot()).toBe(snapshot);
  });

  it('queues large files under maxConcurrentUploads with Queued (n of total)', async () => {
    const server = new FakeCofferServer();
    const { manager, texts, uploadKeys } = setUp(server);
    const gate = gatedParts(server);
    manager.setMaxConcurrentUploads(1);
    const tickets = manager.enqueueUploads(
      [file('A', 5000), file('B', 5000), file('C', 5000), file('small', 100)],
      {
        api: server.api,
        keys: uploadKeys,
      },
    );
    const status = () =>
      Object.fromEntries(manager.getSnapshot().uploads.map((item) => [item.fileName, item.status]));
    expect(status()).toEqual({ A: 'processing', B: 'queued', C: 'queued', small: 'processing' });
    // Counted over the run's large files: A runs, B and C are 2nd and 3rd of 3.
    expect(texts.get('B')).toEqual(['Queued (2 of 3)']);
    expect(texts.get('C')).toEqual(['Queued (3 of 3)']);

    let maxRunning = 0;
    manager.subscribe(() => {
      const running = manager
        .getSnapshot()
        .uploads.filter((i) => i.fileName !== 'small' && i.status === 'processing');
      maxRunning = Math.max(maxRunning, running.length);
    });
    const release = setInterval(gate.releaseAll, 1);
    await Promise.all(tickets.map((ticket) => ticket.done));
    clearInterval(release);
    expect(maxRunning).toBe(1);
    // While B runs after A, C is still the 3rd of 3, never "1 of 1".
    expect(texts.get('C')?.filter((text) => text.startsWith('Queued'))).toEqual(['Queued (3 of 3)']);
    expect(status()).toEqual({ A: 'complete', B: 'complete', C: 'complete', small: 'complete' });
  });

  it('runs as many large uploads as the plan allows', async () => {
    const server = new FakeCofferServer();
    const { manager, uploadKeys } = setUp(server);
    const gate = gatedParts(server);
    manager.setMaxConcurrentUploads(2);
    const tickets = manager.enqueueUploads([file('A', 5000), file('B', 5000), file('C', 5000)], {
      api: server.api,
      keys: uploadKeys,
    });
    expect(manager.getSnapshot().uploads.map((item) => item.status)).toEqual([
      'processing',
      'processing',
      'queued',
    ]);
    expect(manager.getSnapshot().uploads[2]?.statusText).toBe('Queued (3 of 3)');
    const release = setInterval(gate.releaseAll, 1);
    await Promise.all(tickets.map((ticket) => ticket.done));
    clearInterval(release);
    manager.setMaxConcurrentUploads(undefined);
  });

  it('cancels a queued upload before it starts', async () => {
    const server = new FakeCofferServer();
    const { manager, uploadKeys } = setUp(server);
    const gate = gatedParts(server);
    const [first, second] = manager.enqueueUploads([file('A', 5000), file('B', 5000)], {
      api: server.api,
      keys: uploadKeys,
    });
    await expect(manager.abort(second?.id ?? '')).resolves.toBe(uploadMessages.cancelled);
    expect((await second?.done)?.item).toMatchObject({
      status: 'aborted',
      statusText: uploadMessages.aborted,
    });
    const release = setInterval(gate.releaseAll, 1);
    await first?.done;
    clearInterval(release);
    expect(server.createRequests.map((request) => request.name)).toEqual(['A']);
  });

  it('cancels running multipart uploads on the server too, with the spec messages', async () => {
    const server = new FakeCofferServer();
    const { manager, uploadKeys } = setUp(server);
    const gate = gatedParts(server);
    manager.setMaxConcurrentUploads(2);
    manager.enqueueUploads([file('A', 5000), file('B', 5000), file('C', 5000)], {
      api: server.api,
      keys: uploadKeys,
    });
    await vi.waitFor(() => {
      expect(gate.waiting()).toBe(2);
    });
    const result = await manager.abortAll('upload');
    expect(result).toEqual({ count: 3, message: '3 uploads cancelled' });
    expect(server.log.filter((line) => line.startsWith('DELETE'))).toHaveLength(2);
    expect(manager.getSnapshot().uploads.map((item) => item.status)).toEqual([
      'aborted',
      'aborted',
      'aborted',
    ]);
    expect(server.createRequests).toHaveLength(2);
    expect(manager.hasActiveOperations()).toBe(false);

    gate.releaseAll();
    manager.enqueueUploads([file('D', 5000)], { api: server.api, keys: uploadKeys });
    await vi.waitFor(() => {
      expect(gate.waiting()).toBe(1);
    });
    expect(await manager.abortAll('upload')).toEqual({ count: 1, message: uploadMessages.cancelled });
  });

  it("says 'Error cancelling upload' when the server-side abort fails", async () => {
    const server = new FakeCofferServer();
    const { manager, uploadKeys } = setUp(server);
    const gate = gatedParts(server);
    const [ticket] = manager.enqueueUploads([file('A', 5000)], { api: server.api, keys: uploadKeys });
    await vi.waitFor(() => {
      expect(gate.waiting()).toBe(1);
    });
    server.multipart.clear();
    await expect(manager.abort(ticket?.id ?? '')).rejects.toThrow(uploadMessages.cancelFailed);
    expect((await ticket?.done)?.item.status).toBe('aborted');
  });

  it('shows the mapped error of a failed upload', async () => {
    const server = new FakeCofferServer();
    const { manager, uploadKeys } = setUp(server);
    server.directBehaviour = () => ({
      kind: 'response',
      status: 403,
      body: '{"code":"QUOTA_EXCEEDED","message":"q"}',
    });
    const [ticket] = manager.enqueueUploads([file('a.txt', 10)], { api: server.api, keys: uploadKeys });
    expect((await ticket?.done)?.item).toMatchObject({
      status: 'failed',
      error: uploadMessages.quotaExceeded,
    });
  });

  it('refuses to start without unlocked encryption', () => {
    const server = new FakeCofferServer();
    const { manager } = setUp(server);
    expect(() =>
      manager.enqueueUploads([file('a', 1)], {
        api: server.api,
        keys: { publicKey: undefined, keyVersion: 'k' },
      }),
    ).toThrow(uploadMessages.encryptionNotInitialized);
    expect(manager.getSnapshot().uploads).toEqual([]);
  });

  it('forgets finished items on request', async () => {
    const server = new FakeCofferServer();
    const { manager, uploadKeys } = setUp(server);
    const [a, b] = manager.enqueueUploads([file('a', 1), file('b', 1)], {
      api: server.api,
      keys: uploadKeys,
    });
    await a?.done;
    await b?.done;
    manager.dismiss(a?.id ?? '');
    expect(manager.getSnapshot().uploads.map((item) => item.fileName)).toEqual(['b']);
    manager.clearFinished('upload');
    expect(manager.getSnapshot().uploads).toEqual([]);
  });
});

describe('transfer manager: downloads', () => {
  async function stored(server: FakeCofferServer, size: number) {
    const { ciphertext, encryptionInfo } = await encryptForStorage(patternBytes(size), keys.publicKey, 1024);
    return server.addFile('doc.pdf', size, encryptionInfo, ciphertext);
  }

  it("flags the engine's progress steps as progressOnly, and the start and the end as not", async () => {
    const server = new FakeCofferServer();
    const { manager } = setUp(server, { openSink: () => Promise.resolve(new MemorySink()) });
    const item = await stored(server, 3000);
    const heard: [boolean, string | undefined][] = [];
    manager.subscribe((progressOnly) => {
      heard.push([progressOnly, manager.getSnapshot().downloads[0]?.status]);
    });
    const ticket = manager.startDownload(
      { fileId: item.fileId, source: 'own', fileName: 'doc.pdf', size: 3000 },
      { api: server.api, privateKey: keys.privateKey },
    );
    expect(heard[0]).toEqual([false, 'processing']);
    await ticket.done;
    // Screens hear progress once per task (use-transfers.ts) and everything else at once.
    expect(heard.slice(1, -1).length).toBeGreaterThan(0);
    expect(heard.slice(1, -1).every(([progressOnly]) => progressOnly)).toBe(true);
    expect(heard.at(-1)).toEqual([false, 'complete']);
  });

  it('downloads and reports progress, then completes', async () => {
    const server = new FakeCofferServer();
    const sink = new MemorySink();
    const { manager } = setUp(server, { openSink: () => Promise.resolve(sink) });
    const item = await stored(server, 3000);
    const seen: TransferItem[] = [];
    manager.subscribe(() => {
      const download = manager.getSnapshot().downloads[0];
      if (download !== undefined) seen.push(download);
    });
    const ticket = manager.startDownload(
      { fileId: item.fileId, source: 'own', fileName: 'doc.pdf', size: 3000 },
      { api: server.api, privateKey: keys.privateKey },
    );
    expect(manager.getSnapshot().downloads[0]).toMatchObject({ status: 'processing', fileId: item.fileId });
    expect(await ticket.done).toMatchObject({
      status: 'complete',
      progress: 100,
      statusText: downloadMessages.complete,
    });
    expect(sink.state).toBe('closed');
    expect(seen.map((entry) => entry.statusText)).toContain(downloadMessages.preparing);
  });

  it('publishes a moved percentage at most every progressIntervalMs, a new text and the end at once', async () => {
    const percentOnlySnapshots = async (progressIntervalMs: number): Promise<number> => {
      const server = new FakeCofferServer();
      const { manager } = setUp(server, { progressIntervalMs });
      const item = await stored(server, 40_000);
      const seen: Pick<TransferItem, 'progress' | 'statusText'>[] = [];
      manager.subscribe(() => {
        const download = manager.getSnapshot().downloads[0];
        const last = seen.at(-1);
        if (
          download !== undefined &&
          (last?.progress !== download.progress || last.statusText !== download.statusText)
        )
          seen.push({ progress: download.progress, statusText: download.statusText });
      });
      const ticket = manager.startDownload(
        { fileId: item.fileId, source: 'own', fileName: 'doc.pdf', size: 40_000 },
        { api: server.api, privateKey: keys.privateKey },
      );
      expect(await ticket.done).toMatchObject({ status: 'complete', progress: 100 });
      expect(seen.at(-1)).toEqual({ progress: 100, statusText: downloadMessages.complete });
      return seen.filter((e, i) => i > 0 && e.progress < 100 && e.statusText === seen[i - 1]?.statusText)
        .length;
    };
    expect(await percentOnlySnapshots(0)).toBeGreaterThan(0);
    // The whole download takes far less than a minute: no snapshot only moved the percentage.
    expect(await percentOnlySnapshots(60_000)).toBe(0);
  });

  it('fails with a readable error and sends the user to unlock without a key', async () => {
    const server = new FakeCofferServer();
    const { manager } = setUp(server);
    const item = await stored(server, 100);
    server.downloadBehaviour = 'tamper';
    const ticket = manager.startDownload(
      { fileId: item.fileId, source: 'own', fileName: 'doc.pdf', size: 100 },
      { api: server.api, privateKey: keys.privateKey },
    );
    expect(await ticket.done).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('tampered') as unknown,
    });
    expect(() =>
      manager.startDownload(
        { fileId: item.fileId, source: 'own', fileName: 'x', size: 1 },
        { api: server.api, privateKey: null },
      ),
    ).toThrow(TransferError);
  });

  it("cancels downloads with 'Download cancelled' / 'n downloads cancelled'", async () => {
    const server = new FakeCofferServer();
    const { manager } = setUp(server);
    const item = await stored(server, 5000);
    server.downloadBehaviour = 'stall';
    const start = () =>
      manager.startDownload(
        { fileId: item.fileId, source: 'own', fileName: 'doc.pdf', size: 5000 },
        { api: server.api, privateKey: keys.privateKey },
      );
    const one = start();
    expect(await manager.abort(one.id)).toBe(downloadMessages.cancelled);
    expect((await one.done).status).toBe('aborted');
    const [a, b] = [start(), start()];
    expect(await manager.abortAll('download')).toEqual({ count: 2, message: '2 downloads cancelled' });
    expect((await a.done).statusText).toBe(downloadMessages.aborted);
    expect((await b.done).status).toBe('aborted');
  });
});

describe('transfer manager: leaving', () => {
  it('aborts uploads, waits 200 ms, aborts downloads, waits 300 ms on navigation', async () => {
    const server = new FakeCofferServer();
    const order: string[] = [];
    const { manager, uploadKeys } = setUp(server, {
      sleep: (ms) => {
        order.push(`wait ${ms}`);
        return Promise.resolve();
      },
    });
    gatedParts(server);
    const { ciphertext, encryptionInfo } = await encryptForStorage(patternBytes(5000), keys.publicKey, 1024);
    const stored = server.addFile('doc.pdf', 5000, encryptionInfo, ciphertext);
    server.downloadBehaviour = 'stall';
    manager.subscribe(() => {
      for (const item of [...manager.getSnapshot().uploads, ...manager.getSnapshot().downloads]) {
        const line = `${item.kind} aborted`;
        if (item.status === 'aborted' && !order.includes(line)) order.push(line);
      }
    });
    manager.enqueueUploads([file('A', 5000)], { api: server.api, keys: uploadKeys });
    manager.startDownload(
      { fileId: stored.fileId, source: 'own', fileName: 'doc.pdf', size: 5000 },
      { api: server.api, privateKey: keys.privateKey },
    );
    await manager.abortAllForNavigation();
    expect(order).toEqual(['upload aborted', 'wait 200', 'download aborted', 'wait 300']);
    expect(manager.hasActiveOperations()).toBe(false);
  });

  it('warns before the page unloads while a transfer runs', () => {
    let active = true;
    const remove = installLeaveWarning({ hasActiveOperations: () => active });
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    active = false;
    const quiet = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(quiet);
    expect(quiet.defaultPrevented).toBe(false);
    remove();
    active = true;
    const removed = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(removed);
    expect(removed.defaultPrevented).toBe(false);
  });
});
