import { openBlobSink } from './blob-sink';
import { openFsAccessSink } from './fs-access-sink';
import type { ResolvedSaveMethod, SaveFileInfo, SaveSink } from './save-sink';

/**
 * Opens the browser's sink for a resolved method (see `resolveSaveMethod`). Service-worker
 * downloads have no sink on the page: the download service worker runs them (`sw-download.ts`).
 */
export function openSaveSink(method: ResolvedSaveMethod, info: SaveFileInfo): Promise<SaveSink> {
  switch (method) {
    case 'fs-access':
      return openFsAccessSink(info);
    case 'service-worker':
      return Promise.reject(new Error('Service-worker downloads run in the download service worker'));
    case 'blob':
      return openBlobSink(info);
  }
}
