import { LINK_DOWNLOAD_HEADER } from '@coffer/contracts';
import { getSharedChunkCipher } from '../crypto-worker';
import { downloadFile } from '../transfers/download';
import { preferredSaveMethod } from '../transfers/save/save-method';
import type { ProgressListener } from '../transfers/transfer-types';

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
