import { useCallback, useEffect, useRef, useState } from 'react';
import { uploadMessages } from '@coffer/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEncryptionState } from '../../session/session-context';
import { useApiClient } from '../../lib/api/context';
import { statsApi } from '../../lib/api/endpoints';
import { retryUnlessClientError } from '../../lib/contacts/contact-errors';
import { statsQueryKey } from '../../lib/contacts/query-keys';
import { fileQueryKeys } from '../../lib/files/query-keys';
import { addToSelection, selectionMessages } from '../../lib/files/upload-selection';
import { snackbar } from '../../lib/snackbar';
import type { TransferItem, UploadKeys } from '../../lib/transfers';
import type { UploadRecord } from '../../lib/transfers/upload-records';
import { useCurrentUser } from '../../session/current-user';
import { useTransferManager, useTransfers } from '../files/use-transfers';
import { useMyFolders } from '../folders/use-my-folders';

/** The spec's text for one file; for a batch, how many arrived. */
function uploadedText(count: number): string {
  return count === 1 ? uploadMessages.success : `${count} files uploaded successfully!`;
}

/** A file in the upload list. */
export interface UploadEntry {
  readonly key: string;
  readonly file: File;
  /** Its upload in the transfer manager once Upload Files was pressed; null before (or after a failure). */
  readonly transferId: string | null;
  /** Why the last attempt failed. */
  readonly error: string | null;
}

export interface UploadList {
  readonly entries: readonly UploadEntry[];
  /** The running upload of an entry. */
  transferOf: (entry: UploadEntry) => TransferItem | undefined;
  /** An upload runs: the drop zone is disabled and nothing can be added. */
  readonly busy: boolean;
  /**
   * An upload has not ended yet (this list's, a folder's or a resumed one): running, or cancelled
   * while its server-side abort still runs (the server lists it as unfinished until then, but it is
   * not one to offer).
   */
  readonly underWay: boolean;
  /** Encryption is unlocked: uploads can start. */
  readonly ready: boolean;
  /** The folder uploaded into is open (always, at the top); until then Upload Files waits. */
  readonly placeOpen: boolean;
  add: (files: readonly File[]) => void;
  /** Removes a waiting entry, or cancels its running upload. */
  cancel: (entry: UploadEntry) => void;
  cancelAll: () => void;
  /** Starts every entry that is not running (Upload Files). */
  start: () => void;
  /** Resumes an unfinished upload this browser recorded, with the file re-opened or picked again. */
  resume: (file: File, record: UploadRecord) => void;
}

let sequence = 0;

/** Said when /new?folder= names a folder this browser cannot open (deleted, or not mine). */
export const FOLDER_NOT_OPENED = 'The folder to upload into could not be opened';

/**
 * The New Upload screen's list (spec sections 2, 4, 5): files wait until Upload Files is pressed,
 * then go to the transfer manager; finished uploads leave the list with 'File uploaded successfully!',
 * failed ones stay with their error so they can be retried. `target` is the folder of My Files they
 * go in (issue 31, /new?folder=<nodeId>); null: the top.
 */
export function useUploadList(target: string | null = null): UploadList {
  const manager = useTransferManager();
  const { uploads } = useTransfers();
  const api = useApiClient();
  const queryClient = useQueryClient();
  const encryption = useEncryptionState();
  const ownerEmail = useCurrentUser()?.email ?? null;
  const drive = useMyFolders();
  const [entries, setEntries] = useState<readonly UploadEntry[]>([]);
  const entriesRef = useRef(entries);
  entriesRef.current = entries;

  // The plan's maxConcurrentUploads (default 1) limits the queue of files above 100 MB.
  const stats = useQuery({
    queryKey: statsQueryKey,
    queryFn: () => statsApi.get(api),
    retry: retryUnlessClientError,
  });
  const maxConcurrent = stats.data?.subscription.limits.maxConcurrentUploads;
  useEffect(() => {
    manager.setMaxConcurrentUploads(maxConcurrent);
  }, [manager, maxConcurrent]);

  const transferOf = useCallback(
    (entry: UploadEntry) =>
      entry.transferId === null ? undefined : uploads.find((item) => item.id === entry.transferId),
    [uploads],
  );
  const busy = uploads.some((item) => item.status === 'queued' || item.status === 'processing');
  // Every caller dismisses a transfer once it settles: an aborted one still listed is an abort still
  // running on the server (even when its row was removed, or the page left and opened again).
  const underWay = uploads.some((item) => item.status !== 'complete' && item.status !== 'failed');

  const add = useCallback(
    (files: readonly File[]) => {
      if (busy) {
        snackbar.warning(uploadMessages.dropZoneBusy);
        return;
      }
      const result = addToSelection(
        entriesRef.current.map((entry) => entry.file),
        files,
      );
      for (const message of selectionMessages(result)) snackbar.warning(message);
      if (result.accepted.length === 0) return;
      const added = result.accepted.map((file): UploadEntry => ({
        key: `upload-entry-${++sequence}`,
        file,
        transferId: null,
        error: null,
      }));
      setEntries((previous) => [...previous, ...added]);
    },
    [busy],
  );

  const patch = (key: string, changes: Partial<UploadEntry> | null): void => {
    setEntries((previous) =>
      changes === null
        ? previous.filter((entry) => entry.key !== key)
        : previous.map((entry) => (entry.key === key ? { ...entry, ...changes } : entry)),
    );
  };

  const start = (): void => {
    const waiting = entriesRef.current.filter((entry) => entry.transferId === null);
    if (waiting.length === 0 || busy) return;
    // Into the folder the URL names: its key wraps each file's key (no parent: the top of My Files).
    const parent = target === null ? undefined : drive.parentFor(target);
    if (parent === null) {
      snackbar.danger(FOLDER_NOT_OPENED);
      return;
    }
    const keys: UploadKeys =
      encryption.status === 'unlocked'
        ? {
            publicKey: encryption.keys.publicKey,
            keyVersion: encryption.keys.keyVersion,
            ...(encryption.keys.signingPrivateKey === undefined || ownerEmail === null
              ? {}
              : { signing: { ownerEmail, signingPrivateKey: encryption.keys.signingPrivateKey } }),
            ...(encryption.keys.driveKey === undefined ? {} : { driveKey: encryption.keys.driveKey }),
          }
        : { publicKey: null, keyVersion: null };
    let tickets;
    try {
      tickets = manager.enqueueUploads(
        waiting.map((entry) => entry.file),
        { api, keys, ...(parent === undefined ? {} : { parent }) },
      );
    } catch (error) {
      snackbar.danger(error instanceof Error ? error.message : uploadMessages.defaultError);
      return;
    }
    const byKey = new Map(waiting.map((entry, index) => [entry.key, tickets[index]]));
    setEntries((previous) =>
      previous.map((entry) => {
        const ticket = byKey.get(entry.key);
        return ticket === undefined ? entry : { ...entry, transferId: ticket.id, error: null };
      }),
    );
    const outcomes: Promise<TransferItem['status']>[] = [];
    for (const [key, ticket] of byKey) {
      if (ticket === undefined) continue;
      const outcome = ticket.done.then(({ item }) => {
        manager.dismiss(item.id);
        switch (item.status) {
          case 'complete':
            patch(key, null);
            void queryClient.invalidateQueries({ queryKey: fileQueryKeys.all });
            void queryClient.invalidateQueries({ queryKey: statsQueryKey });
            break;
          case 'failed': {
            const message = item.error ?? uploadMessages.defaultError;
            patch(key, { transferId: null, error: message });
            snackbar.danger(message);
            // A failed large upload may stay pending on the server, to be resumed: list it now.
            void queryClient.invalidateQueries({ queryKey: fileQueryKeys.uploads });
            break;
          }
          case 'aborted':
          case 'queued':
          case 'processing':
            // Cancelled (the cancel action or the navigation guard says so). Its server-side abort
            // has ended: a list of uploads loaded while it ran (Recent uploads loads during a batch)
            // still has it pending, and must not offer it as unfinished.
            patch(key, null);
            void queryClient.invalidateQueries({ queryKey: fileQueryKeys.uploads });
            break;
        }
        return item.status;
      });
      outcomes.push(outcome);
    }
    // One success snackbar for the whole batch (issue 15, point 10): ten files must not stack ten.
    void Promise.all(outcomes).then((statuses) => {
      const uploaded = statuses.filter((status) => status === 'complete').length;
      if (uploaded > 0) snackbar.success(uploadedText(uploaded));
    });
  };

  const resume = (file: File, record: UploadRecord): void => {
    if (busy) return;
    let ticket;
    try {
      ticket = manager.resumeUpload(file, record, {
        api,
        privateKey: encryption.status === 'unlocked' ? encryption.keys.privateKey : null,
      });
    } catch (error) {
      snackbar.danger(error instanceof Error ? error.message : uploadMessages.defaultError);
      return;
    }
    const key = `upload-entry-${++sequence}`;
    setEntries((previous) => [...previous, { key, file, transferId: ticket.id, error: null }]);
    void ticket.done.then(({ item }) => {
      manager.dismiss(item.id);
      // A refused or failed resume is not a file to upload anew: the unfinished upload stays listed.
      patch(key, null);
      if (item.status === 'complete') snackbar.success(uploadMessages.success);
      if (item.status === 'failed') snackbar.danger(item.error ?? uploadMessages.defaultError);
      void queryClient.invalidateQueries({ queryKey: fileQueryKeys.all });
      void queryClient.invalidateQueries({ queryKey: statsQueryKey });
    });
  };

  const cancel = (entry: UploadEntry): void => {
    const transfer = transferOf(entry);
    if (transfer === undefined || (transfer.status !== 'queued' && transfer.status !== 'processing')) {
      patch(entry.key, null);
      return;
    }
    manager.abort(transfer.id).then(
      (message) => {
        snackbar.warning(message);
      },
      () => {
        snackbar.danger(uploadMessages.cancelFailed);
      },
    );
  };

  const cancelAll = (): void => {
    manager.abortAll('upload').then(
      (result) => {
        if (result.count > 0) snackbar.warning(result.message);
      },
      () => {
        snackbar.danger(uploadMessages.cancelAllFailed);
      },
    );
  };

  return {
    entries,
    transferOf,
    busy,
    underWay,
    ready: encryption.status === 'unlocked',
    placeOpen: target === null || drive.parentFor(target) !== null,
    add,
    cancel,
    cancelAll,
    start,
    resume,
  };
}
