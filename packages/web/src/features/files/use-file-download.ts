import { useCallback, useSyncExternalStore } from 'react';
import { downloadFailedSnackbarText, downloadMessages } from '@coffer/contracts';
import { useNavigate } from 'react-router';
import { paths } from '../../lib/navigation/paths';
import { useAuthSnapshot, useEncryptionState } from '../../session/session-context';
import { useApiClient } from '../../lib/api/context';
import {
  TransferError,
  type DownloadSource,
  type RawDownloadMetadata,
  type TransferItem,
} from '../../lib/transfers';
import { snackbar } from '../../lib/snackbar';
import { checkOwnFile, signatureBadge } from '../../lib/trust/signed-files';
import { subscribeOncePerTask, useTransferManager } from './use-transfers';

/** The file fields a download needs (FileView and SharedFileView fit). */
export interface DownloadableFile {
  readonly id: string;
  readonly title: string;
  readonly sizeBytes: number;
}

export interface FileDownloads {
  /**
   * Starts a download; call it straight from the click handler (the save dialog needs the click).
   * `checked`: the metadata answer a signature check accepted; the download uses exactly it.
   */
  start: (file: DownloadableFile, checked?: RawDownloadMetadata) => void;
  /** Cancels a running download: 'Download cancelled'. */
  cancel: (transferId: string) => void;
}

/** The danger snackbar of a failed download (spec section 8): own files name the reason, shared ones do not. */
export function downloadFailureText(source: DownloadSource, message: string | null): string {
  return source === 'own' ? downloadFailedSnackbarText(message) : downloadMessages.sharedFailed;
}

/**
 * Downloads of one list (`own`: My Files, `shared`: Shared With Me and /share/{id}) through the
 * transfer manager, with the spec's snackbars. The card shows the running item
 * ({@link useActiveDownload}): 'Starting download...' with a progress bar, then the engine's status
 * texts, then idle again.
 */
export function useFileDownloads(
  source: DownloadSource,
  /** After a failure: a better text than the spec's generic one, or null to keep it. */
  explainFailure?: (file: DownloadableFile) => Promise<string | null>,
): FileDownloads {
  const manager = useTransferManager();
  const api = useApiClient();
  const encryption = useEncryptionState();
  const navigate = useNavigate();
  const privateKey = encryption.status === 'unlocked' ? encryption.keys.privateKey : null;
  const signingKey = encryption.status === 'unlocked' ? encryption.keys.signingPublicKeyB64 : undefined;
  // The same source as the email the encryption session bound the signing key to.
  const email = useAuthSnapshot().user?.email ?? null;

  const start = useCallback(
    (file: DownloadableFile, checked?: RawDownloadMetadata) => {
      if (privateKey === null) {
        // Spec section 5: keys must be unlocked, otherwise the user is sent to /unlock.
        snackbar.danger(downloadFailureText(source, downloadMessages.notUnlocked));
        void navigate(paths.unlock);
        return;
      }
      let ticket;
      try {
        ticket = manager.startDownload(
          {
            fileId: file.id,
            source,
            fileName: file.title,
            size: file.sizeBytes,
            ...(checked === undefined ? {} : { checked }),
            ...(source === 'own' && email !== null ? { verify: ownFileVerifier(email, signingKey) } : {}),
          },
          { api, privateKey },
        );
      } catch (error) {
        snackbar.danger(downloadFailureText(source, error instanceof Error ? error.message : null));
        return;
      }
      void ticket.done.then((item) => {
        if (item.status === 'complete') snackbar.success(downloadMessages.success);
        else if (item.status === 'failed') {
          const generic = downloadFailureText(source, item.error);
          if (explainFailure === undefined) snackbar.danger(generic);
          else
            void explainFailure(file).then(
              (text) => snackbar.danger(text ?? generic),
              () => snackbar.danger(generic),
            );
        }
        // Aborted: the cancel action (or the navigation guard) says so itself.
        manager.dismiss(item.id);
      });
    },
    [api, manager, navigate, privateKey, source, email, signingKey, explainFailure],
  );

  const cancel = useCallback(
    (transferId: string) => {
      manager.abort(transferId).then(
        (message) => {
          snackbar.warning(message);
        },
        (error: unknown) => {
          snackbar.danger(error instanceof Error ? error.message : downloadMessages.cancelAllFailed);
        },
      );
    },
    [manager],
  );

  return { start, cancel };
}

/**
 * My own file's manifest, checked on the very metadata answer the download uses (issue 13): a
 * file the server changed after I signed it (its key, name, size or layout) is not opened. Files
 * from before signatures ("Unsigned") keep downloading.
 */
function ownFileVerifier(email: string, signingKey: string | undefined) {
  return async (raw: RawDownloadMetadata): Promise<void> => {
    if (raw.source !== 'own') return;
    const badge = signatureBadge(await checkOwnFile(raw.file, email, signingKey), 'you');
    if (!badge.canOpen) throw new TransferError('SIGNATURE', badge.text);
  };
}

/**
 * The running download of one file, if any. Only the component that shows it re-renders on each
 * progress step (a list page would otherwise re-render every card ~200 times per download): the
 * manager replaces an item only when it changes, so other files keep the same value.
 */
export function useActiveDownload(fileId: string): TransferItem | undefined {
  const manager = useTransferManager();
  const subscribe = useCallback((listener: () => void) => subscribeOncePerTask(manager, listener), [manager]);
  const select = useCallback(
    () =>
      manager
        .getSnapshot()
        .downloads.find(
          (item) => item.fileId === fileId && (item.status === 'processing' || item.status === 'queued'),
        ),
    [manager, fileId],
  );
  return useSyncExternalStore(subscribe, select, select);
}
