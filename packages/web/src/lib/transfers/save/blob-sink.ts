import { blobPartsOf, releaseBuffer } from '../buffers';
import type { SaveFileInfo, SaveSink } from './save-sink';

/** How long the object URL stays valid after the click, so the browser can start the download. */
const REVOKE_AFTER_MS = 60_000;

/**
 * The fallback for small files (≤ 100 MB) when nothing can stream: verified chunks are kept as
 * Blobs and handed to the browser as one `<a download>` at the end. Nothing is saved on failure.
 */
export function openBlobSink(info: SaveFileInfo): Promise<SaveSink> {
  let pieces: Blob[] = [];
  return Promise.resolve({
    async write(bytes) {
      pieces.push(...(await blobPartsOf(bytes)));
      releaseBuffer(bytes.buffer);
    },
    close() {
      const blob = new Blob(pieces, { type: info.contentType });
      pieces = [];
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = info.fileName;
      link.hidden = true;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => {
        URL.revokeObjectURL(url);
      }, REVOKE_AFTER_MS);
      return Promise.resolve();
    },
    abort() {
      pieces = [];
      return Promise.resolve();
    },
  });
}
