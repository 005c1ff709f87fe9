import { openBlobSink } from '../transfers/save/blob-sink';
import { openFsAccessSink } from '../transfers/save/fs-access-sink';
import type { ResolvedSaveMethod, SaveSink } from '../transfers/save/save-sink';
import { activeDownloadWorker, openInHiddenFrame } from '../transfers/save/sw-registration';
import { createStreamSink } from '../transfers/save/stream-sink';
import { streamDownloadUrl, type StreamDownloadControlMessage } from './stream-download-protocol';

const KEEP_ALIVE_INTERVAL_MS = 10_000;
/** The iframe outlives the end of the stream by a little; the browser's download no longer needs it. */
const REMOVE_FRAME_AFTER_MS = 5_000;

/**
 * Where a ZIP goes, by the same save methods as a single download: the File System Access
 * writable (the picker opens at once: call this inside the click), the download service worker
 * (a stream this page fills, transferred to the worker, which answers the hidden iframe's URL with
 * it: an ordinary browser download), or a Blob for small archives.
 */
export function openZipSink(method: ResolvedSaveMethod, fileName: string, size: number): Promise<SaveSink> {
  const info = { fileName, size, contentType: 'application/zip' };
  switch (method) {
    case 'fs-access':
      return openFsAccessSink(info);
    case 'blob':
      return openBlobSink(info);
    case 'service-worker':
      return openServiceWorkerZipSink(fileName);
  }
}

async function openServiceWorkerZipSink(fileName: string): Promise<SaveSink> {
  const worker = await activeDownloadWorker();
  const id = crypto.randomUUID();
  let cancelledInBrowser = false;
  const { stream, sink } = createStreamSink(() => {
    cancelledInBrowser = true;
  });
  const post = (message: StreamDownloadControlMessage, transfer: Transferable[] = []): void => {
    worker.postMessage(message, transfer);
  };
  post({ type: 'coffer-download:stream', id, fileName, stream }, [stream]);
  const removeFrame = openInHiddenFrame(streamDownloadUrl(id, fileName));
  const keepAlive = setInterval(() => {
    post({ type: 'coffer-download:stream-keepalive', id });
  }, KEEP_ALIVE_INTERVAL_MS);
  const end = (): void => {
    clearInterval(keepAlive);
    setTimeout(removeFrame, REMOVE_FRAME_AFTER_MS);
  };
  return {
    write: (bytes) => sink.write(bytes),
    async close() {
      try {
        await sink.close();
      } finally {
        end();
      }
    },
    async abort(reason) {
      end();
      if (!cancelledInBrowser) await sink.abort(reason);
    },
  };
}
