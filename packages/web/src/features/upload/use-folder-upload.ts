import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../../lib/api/context';
import { statsQueryKey } from '../../lib/contacts/query-keys';
import { createFolder, folderPath, newNodeId, type NodeParent } from '../../lib/drive';
import { fileQueryKeys } from '../../lib/files/query-keys';
import { snackbar } from '../../lib/snackbar';
import type { UploadKeys } from '../../lib/transfers';
import { useCurrentUser } from '../../session/current-user';
import { useEncryptionState } from '../../session/session-context';
import { useMyFolders } from '../folders/use-my-folders';
import { useTransferManager } from '../files/use-transfers';
import type { FolderFile } from './folder-entries';
import { folderUploadProblem, planFolderUpload } from './folder-plan';

/** A folder upload as the page shows it. */
export interface FolderUploadState {
  /** The top folder name(s) ("Trip", or "2 folders"). */
  readonly label: string;
  readonly phase: 'creating' | 'uploading' | 'done' | 'failed';
  readonly total: number;
  readonly done: number;
  readonly failed: number;
  /** Transfer ids of its files, for their per-file rows. */
  readonly transferIds: readonly string[];
  readonly error: string | null;
}

/**
 * Uploads a whole folder tree (issue 31): its folders are created first, top down (node ids chosen
 * here, keys made and names sealed in this browser, one call each), then every file goes through
 * the ordinary upload pipeline under its folder's key. The 10-files rule of the drop zone is for
 * loose files: a folder counts as one item, its files are limited only by the server's limits
 * (folders per drive, nesting depth, file size, storage).
 */
export function useFolderUpload(target: string | null): {
  state: FolderUploadState | null;
  start: (entries: readonly FolderFile[]) => void;
  clear: () => void;
  ready: boolean;
} {
  const api = useApiClient();
  const drive = useMyFolders();
  const manager = useTransferManager();
  const queryClient = useQueryClient();
  const encryption = useEncryptionState();
  const ownerEmail = useCurrentUser()?.email ?? null;
  const [state, setState] = useState<FolderUploadState | null>(null);
  const keys = encryption.status === 'unlocked' ? encryption.keys : null;
  const ready = keys !== null && drive.signer !== null && drive.parentFor(target) !== null;

  const start = useCallback(
    (entries: readonly FolderFile[]) => {
      const parent = drive.parentFor(target);
      const signer = drive.signer;
      if (keys === null || signer === null || parent === null || ownerEmail === null) {
        snackbar.danger('Unlock encryption to upload a folder');
        return;
      }
      const problem = folderUploadProblem(
        entries,
        drive.folders.length,
        folderPath(drive.folders, target).length,
      );
      if (problem !== null) {
        snackbar.warning(problem);
        return;
      }
      const plan = planFolderUpload(entries);
      const tops = [...new Set(entries.map((entry) => entry.path[0] ?? ''))];
      const label = tops.length === 1 ? (tops[0] ?? '') : `${tops.length} folders`;
      const uploadKeys: UploadKeys = {
        publicKey: keys.publicKey,
        keyVersion: keys.keyVersion,
        signing: signer,
        ...(keys.driveKey === undefined ? {} : { driveKey: keys.driveKey }),
      };
      const base = { label, total: plan.files.length, done: 0, failed: 0, transferIds: [], error: null };
      setState({ ...base, phase: 'creating' });
      void (async () => {
        // Folders first, parents before children.
        const created = new Map<string | null, NodeParent>([[null, parent]]);
        try {
          for (const folder of plan.folders) {
            const under = created.get(folder.parentKey);
            if (under === undefined) throw new Error('a parent folder was not created');
            const nodeId = newNodeId();
            const { folderKey } = await createFolder(
              api,
              { parent: under, name: folder.name, nodeId },
              signer,
            );
            created.set(folder.key, { nodeId, key: folderKey });
          }
        } catch (error) {
          const message = error instanceof Error ? error.message : 'the folders could not be created';
          setState({ ...base, phase: 'failed', error: `Could not create the folders: ${message}` });
          await drive.refresh();
          return;
        }
        // Then the files, each through the pipeline with its folder as parent.
        const ids: string[] = [];
        const outcomes: Promise<'complete' | 'other'>[] = [];
        let done = 0;
        let failed = 0;
        for (const { file, folderKey } of plan.files) {
          const place = created.get(folderKey) ?? parent;
          const [ticket] = manager.enqueueUploads([file], { api, keys: uploadKeys, parent: place });
          if (ticket === undefined) continue;
          ids.push(ticket.id);
          outcomes.push(
            ticket.done.then(({ item }) => {
              manager.dismiss(item.id);
              if (item.status === 'complete') done += 1;
              else failed += 1;
              setState((current) => (current === null ? current : { ...current, done, failed }));
              return item.status === 'complete' ? 'complete' : 'other';
            }),
          );
        }
        setState({ ...base, phase: 'uploading', transferIds: ids });
        await Promise.all(outcomes);
        setState((current) =>
          current === null
            ? current
            : {
                ...current,
                done,
                failed,
                phase: failed > 0 ? 'failed' : 'done',
                error: failed > 0 ? `${failed} files failed` : null,
              },
        );
        if (failed === 0)
          snackbar.success(`Folder ${label} uploaded (${done} ${done === 1 ? 'file' : 'files'})`);
        else snackbar.danger(`${failed} of ${plan.files.length} files of ${label} failed to upload`);
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: fileQueryKeys.all }),
          queryClient.invalidateQueries({ queryKey: statsQueryKey }),
        ]);
      })();
    },
    [api, drive, keys, manager, ownerEmail, queryClient, target],
  );
  return {
    state,
    start,
    ready,
    clear: () => {
      setState(null);
    },
  };
}
