import { CHUNK_SIZE, LINK_DOWNLOAD_HEADER } from '@coffer/contracts';
import { getSharedChunkCipher } from '../crypto-worker';
import { DEFAULT_RESUME_DELAYS_MS, downloadFile } from '../transfers/download';
import { preferredSaveMethod } from '../transfers/save/save-method';
import type { ProgressListener } from '../transfers/transfer-types';
import type { ZipFile } from '../zip';

import type { OpenedLink, OpenedLinkFile } from './link-open';
import { publicLinksApi } from './links-api';

/**
 * Downloads one file of an opened link with the signed-in downloads' pipeline (streaming, chunk by
 * chunk verified, `Range` resume, the download service worker where the browser has it): the file
 * key is already unwrapped under the link key, and the link's client answers the pipeline's header
 * requests with `X-Link-Auth` instead of a bearer token.
 */
export function downloadLinkFile(
  link: OpenedLink,
  file: OpenedLinkFile,
  signal: AbortSignal,
  onProgress: ProgressListener,
): Promise<void> {
  link.session.begin([file.fileId]);
  return downloadFile({
    api: link.client,
    target: { fileId: file.fileId, source: 'own', fileName: file.name, size: file.size },
    privateKey: null,
    opened: {
      fileKey: file.fileKey,
      metadata: {
        name: file.name,
        contentType: file.contentType,
        size: file.size,
        encryptedFileKey: '',
        downloadPath: publicLinksApi.downloadPath(link.linkId, file.fileId),
      },
      // A resumed download sends back its counted start's token: counted once.
      resumeTokenHeader: LINK_DOWNLOAD_HEADER,
    },
    cipher: getSharedChunkCipher(),
    signal,
    onProgress,
    saveMethod: preferredSaveMethod(),
  });
}

/**
 * A link's files as the entries of one streaming ZIP ("Download all"), each through the same
 * decrypting pipeline with its key from under the link key. Begins the page's download session for
 * all of them first: the ZIP counts as one download of the link. Call from the click, then run the
 * ZIP (`useZipRun`) with the link's client.
 */
export function linkZipFiles(link: OpenedLink, files: readonly OpenedLinkFile[]): ZipFile[] {
  link.session.begin(files.map((file) => file.fileId));
  return files.map((file) => ({
    path: [file.name],
    size: file.size,
    job: () =>
      Promise.resolve({
        fileKey: file.fileKey,
        size: file.size,
        chunkSize: CHUNK_SIZE,
        downloadPath: publicLinksApi.downloadPath(link.linkId, file.fileId),
        retryDelaysMs: DEFAULT_RESUME_DELAYS_MS,
      }),
  }));
}
