import { useCallback, useRef, useState } from 'react';
import { CHUNK_SIZE, downloadMessages, type Folder, type FileListItem } from '@coffer/contracts';
import { unwrapFileKey } from '@coffer/crypto';
import { useQueryClient } from '@tanstack/react-query';
import { seg } from '../../lib/api/http';
import { openSharedFileName, type DriveFile, type DriveFolder } from '../../lib/drive';
import type { SharedFileView } from '../../lib/files/file-views';
import { snackbar } from '../../lib/snackbar';
import { toDownloadMetadata } from '../../lib/transfers/download-metadata';
import { failedItemsText } from '../folders/bulk-failures';
import { useZipDownload, type RunningZip } from '../folders/use-zip-download';
import { zipPlan } from '../folders/zip-plan';
import { useRecipient } from './use-recipient';
import { sharedFileCheckQuery } from './use-shared-file-check';
import { sharedFolderTreeQuery, type ReceivedFolder } from './use-shared-folders';

/** The archive's name when the selection is not one folder. */
export const SHARED_ZIP_NAME = 'Shared with me';

/** One selected item that went into the archive, or why not. */
type Prepared =
  | {
      readonly ok: true;
      readonly files: readonly DriveFile[];
      readonly folders: readonly DriveFolder[];
      /** The shared folder its content is served through; null for a file shared on its own. */
      readonly via: string | null;
    }
  | { readonly ok: false; readonly name: string };

/**
 * Download ZIP of Shared With Me's own list (issue 31): the selected shared files and folders as one
 * streaming archive. Each file first passes the very check its single download needs (issue 13),
 * through the query client with the card's key and function, and its key is opened from exactly the
 * metadata answer that check judged; content comes from the shared download path. A file the check
 * refuses, or an unsigned one (its single download asks first), is left out and named. A folder
 * brings its whole tree, opened and checked as the folder's own view does, from the folder share.
 */
export function useSharedZip(): {
  running: RunningZip | null;
  /** The checks before the archive starts are running. */
  preparing: boolean;
  start: (files: readonly SharedFileView[], folders: readonly ReceivedFolder[]) => void;
} {
  const recipient = useRecipient();
  const queryClient = useQueryClient();
  const paths = useRef(new Map<string, string>());
  const contentPath = useCallback((file: DriveFile) => paths.current.get(file.fileId) ?? '', []);
  const zip = useZipDownload(contentPath);
  const [preparing, setPreparing] = useState(false);
  const { api, keys } = recipient;

  const start = useCallback(
    (files: readonly SharedFileView[], folders: readonly ReceivedFolder[]) => {
      if (keys === null) {
        snackbar.danger(downloadMessages.sharedFailed);
        return;
      }
      const privateKey = keys.privateKey;
      const sharedFile = async (view: SharedFileView): Promise<Prepared> => {
        try {
          const check = await queryClient.query(sharedFileCheckQuery(recipient, view.id, view.owner));
          if (!check.canOpen || check.askFirst) return { ok: false, name: view.title };
          // Exactly the answer the check judged, never a fresh one (issue 13).
          const metadata = toDownloadMetadata(
            { source: 'shared', shared: check.metadata },
            view.id,
            CHUNK_SIZE,
          );
          const fileKey = await unwrapFileKey(metadata.encryptedFileKey, privateKey);
          const opened = await openSharedFileName(fileKey, check.metadata.file);
          return {
            ok: true,
            via: null,
            folders: [],
            files: [
              {
                kind: 'file',
                fileId: view.id,
                nodeId: null,
                parentNodeId: null,
                name: opened.name,
                contentType: opened.contentType,
                size: metadata.size,
                uploadedAt: check.metadata.file.uploadedAt,
                state: 'open',
                fileKey,
                item: {} as FileListItem,
              },
            ],
          };
        } catch (error) {
          console.warn('A shared file was left out of the ZIP', error);
          return { ok: false, name: view.title };
        }
      };
      const sharedFolder = async (folder: ReceivedFolder): Promise<Prepared> => {
        const name = folder.ok ? folder.name : 'Unverified folder';
        if (!folder.ok || folder.ownerSigningKey === undefined) return { ok: false, name };
        try {
          const tree = await queryClient.query(sharedFolderTreeQuery(api, folder));
          const rootId = folder.item.nodeId;
          const root: DriveFolder = {
            kind: 'folder',
            nodeId: rootId,
            parentNodeId: null,
            name: folder.name,
            state: 'open',
            createdAt: folder.item.sharedAt,
            updatedAt: folder.item.sharedAt,
            item: {} as Folder,
          };
          return {
            ok: true,
            via: rootId,
            folders: [
              root,
              ...tree.folders.map((item) => ({ ...item, parentNodeId: item.parentNodeId ?? rootId })),
            ],
            files: tree.files.map((file) => ({ ...file, parentNodeId: file.parentNodeId ?? rootId })),
          };
        } catch (error) {
          console.warn('A shared folder was left out of the ZIP', error);
          return { ok: false, name };
        }
      };

      setPreparing(true);
      void Promise.all([...folders.map(sharedFolder), ...files.map(sharedFile)])
        .then((prepared) => {
          const failed = prepared.filter((item) => !item.ok);
          if (failed.length > 0) {
            snackbar.danger(failedItemsText('download', failed, prepared.length));
          }
          const included = prepared.filter((item) => item.ok);
          if (included.length === 0) return;
          const allFiles = included.flatMap((item) => item.files);
          const allFolders = included.flatMap((item) => item.folders);
          // Files shared on their own first: a file also inside a selected folder is taken from the
          // folder (zipPlan), with the folder's key, so its content comes through the folder share.
          const served = new Map<string, string>();
          for (const item of [...included].sort(
            (a, b) => (a.via === null ? 0 : 1) - (b.via === null ? 0 : 1),
          )) {
            for (const file of item.files) {
              served.set(
                file.fileId,
                item.via === null
                  ? `/users/files/shared/${seg(file.fileId)}/download`
                  : `/users/folders/shared/${seg(item.via)}/files/${seg(file.fileId)}/download`,
              );
            }
          }
          paths.current = served;
          zip.start(
            zipPlan(
              {
                files: included.flatMap((item) => (item.via === null ? item.files : [])),
                folders: included.flatMap((item) => (item.via === null ? [] : item.folders.slice(0, 1))),
              },
              { files: allFiles, folders: allFolders },
              SHARED_ZIP_NAME,
            ),
          );
        })
        .catch((error: unknown) => {
          console.warn('The ZIP could not be prepared', error);
          snackbar.danger(downloadMessages.sharedFailed);
        })
        .finally(() => {
          setPreparing(false);
        });
    },
    [api, keys, queryClient, recipient, zip],
  );
  return { running: zip.running, preparing, start };
}
