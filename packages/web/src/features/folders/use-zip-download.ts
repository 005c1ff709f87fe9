import { useCallback, useRef, useState } from 'react';
import { CHUNK_SIZE } from '@coffer/contracts';
import { unwrapFileKey } from '@coffer/crypto';
import { useApiClient } from '../../lib/api/context';
import { filesApi } from '../../lib/api/files';
import { seg } from '../../lib/api/http';
import { getSharedChunkCipher } from '../../lib/crypto-worker';
import type { DriveFile } from '../../lib/drive';
import { snackbar } from '../../lib/snackbar';
import { preferredSaveMethod, resolveSaveMethod, TransferAbortedError } from '../../lib/transfers';
import { DEFAULT_RESUME_DELAYS_MS } from '../../lib/transfers/download';
import { downloadZip, type ZipFile, type ZipProgress } from '../../lib/zip';
import { useEncryptionState } from '../../session/session-context';
import type { ZipPlan } from './zip-plan';

/** Where a file's content is served: my own files, or a file below a folder shared with me. */
export type ContentPath = (file: DriveFile) => string;

export const ownContentPath: ContentPath = (file) => `/users/files/${seg(file.fileId)}/download`;

export interface RunningZip {
  readonly name: string;
  readonly progress: ZipProgress | null;
  cancel(): void;
}

/**
 * Downloads a plan as one streaming ZIP (call `start` straight from the click: the save picker
 * needs it). Each file's key comes from the tree (my drive or a shared folder); an old file of mine
 * with a clear name has no node key yet and is opened with my RSA key, as its single download is.
 */
export function useZipDownload(contentPath: ContentPath = ownContentPath): {
  running: RunningZip | null;
  start: (plan: ZipPlan) => void;
} {
  const api = useApiClient();
  const encryption = useEncryptionState();
  const privateKey = encryption.status === 'unlocked' ? encryption.keys.privateKey : null;
  const [running, setRunning] = useState<RunningZip | null>(null);
  const busy = useRef(false);

  const start = useCallback(
    (plan: ZipPlan) => {
      if (busy.current) return;
      if (plan.files.length === 0 && plan.directories.length === 0) {
        snackbar.warning('Nothing to download');
        return;
      }
      const total = plan.files.reduce((sum, entry) => sum + entry.file.size, 0);
      let method;
      try {
        method = resolveSaveMethod(preferredSaveMethod(), total);
      } catch (error) {
        snackbar.danger(error instanceof Error ? error.message : 'Download failed');
        return;
      }
      const controller = new AbortController();
      const files: ZipFile[] = plan.files.map(({ path, file }) => ({
        path,
        size: file.size,
        modified: new Date(file.uploadedAt),
        job: async () => ({
          fileKey: file.fileKey ?? (await rsaFileKey(file)),
          size: file.size,
          chunkSize: CHUNK_SIZE,
          downloadPath: contentPath(file),
          retryDelaysMs: DEFAULT_RESUME_DELAYS_MS,
        }),
      }));
      const rsaFileKey = async (file: DriveFile): Promise<CryptoKey> => {
        const metadata = await filesApi.get(api, file.fileId);
        const wrapped = metadata.encryptionInfo?.encryptedFileKey;
        if (wrapped === undefined || privateKey === null) throw new Error('This file cannot be opened');
        return unwrapFileKey(wrapped, privateKey);
      };
      busy.current = true;
      const cancel = (): void => {
        controller.abort();
      };
      setRunning({ name: plan.name, progress: null, cancel });
      // Synchronously from here to the sink's opening: downloadZip opens it before its first await.
      const done = downloadZip({
        api,
        cipher: getSharedChunkCipher(),
        fileName: plan.name,
        files,
        directories: plan.directories,
        method,
        signal: controller.signal,
        onProgress: (progress) => {
          setRunning({ name: plan.name, progress, cancel });
        },
      });
      void done
        .then(
          () => {
            snackbar.success(`${plan.name} downloaded`);
          },
          (error: unknown) => {
            if (error instanceof TransferAbortedError || controller.signal.aborted)
              snackbar.warning('Download cancelled');
            else {
              console.warn('ZIP download failed', error);
              snackbar.danger(
                `Download failed${error instanceof Error && error.message !== '' ? `: ${error.message}` : ''}`,
              );
            }
          },
        )
        .finally(() => {
          busy.current = false;
          setRunning(null);
        });
    },
    [api, contentPath, privateKey],
  );
  return { running, start };
}
