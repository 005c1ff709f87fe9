import { openBlobSink } from './blob-sink';
import { openFsAccessSink } from './fs-access-sink';
import type { ResolvedSaveMethod, SaveFileInfo, SaveSink } from './save-sink';
import { openServiceWorkerSink } from './service-worker-sink';

/** Opens the browser's sink for a resolved method (see `resolveSaveMethod`). */
export function openSaveSink(method: ResolvedSaveMethod, info: SaveFileInfo): Promise<SaveSink> {
  switch (method) {
    case 'fs-access':
      return openFsAccessSink(info);
    case 'service-worker':
      return openServiceWorkerSink(info);
    case 'blob':
      return openBlobSink(info);
  }
}
