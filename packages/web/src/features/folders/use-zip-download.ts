import { useCallback } from 'react';
import { CHUNK_SIZE } from '@coffer/contracts';
import { unwrapFileKey } from '@coffer/crypto';
import { useApiClient } from '../../lib/api/context';
import { filesApi } from '../../lib/api/files';
import { seg } from '../../lib/api/http';
import type { DriveFile } from '../../lib/drive';
import { DEFAULT_RESUME_DELAYS_MS } from '../../lib/transfers/download';
import type { ZipFile } from '../../lib/zip';
import { useEncryptionState } from '../../session/session-context';
import { useZipRun, type RunningZip } from '../../ui/use-zip-run';
import type { ZipPlan } from './zip-plan';

/** Where a file's content is served: my own files, or a file below a folder shared with me. */
export type ContentPath = (file: DriveFile) => string;

export const ownContentPath: ContentPath = (file) => `/users/files/${seg(file.fileId)}/download`;

export type { RunningZip } from '../../ui/use-zip-run';

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
  const { running, run } = useZipRun();

  const start = useCallback(
    (plan: ZipPlan) => {
      const rsaFileKey = async (file: DriveFile): Promise<CryptoKey> => {
        const metadata = await filesApi.get(api, file.fileId);
        const wrapped = metadata.encryptionInfo?.encryptedFileKey;
        if (wrapped === undefined || privateKey === null) throw new Error('This file cannot be opened');
        return unwrapFileKey(wrapped, privateKey);
      };
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
      run({ name: plan.name, files, directories: plan.directories, api });
    },
    [api, contentPath, privateKey, run],
  );
  return { running, start };
}
