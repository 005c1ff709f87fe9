import { useCallback, useRef, useState } from 'react';
import type { ApiClient } from '../lib/api/http';
import { getSharedChunkCipher } from '../lib/crypto-worker';
import { snackbar } from '../lib/snackbar';
import { preferredSaveMethod, resolveSaveMethod, TransferAbortedError } from '../lib/transfers';
import { downloadZip, type ZipFile, type ZipProgress } from '../lib/zip';

export interface RunningZip {
  readonly name: string;
  readonly progress: ZipProgress | null;
  cancel(): void;
}

/** What a ZIP download is of: its name, its files (each with its decrypting job), its folders. */
export interface ZipRun {
  readonly name: string;
  readonly files: readonly ZipFile[];
  readonly directories?: readonly (readonly string[])[];
  /** The client whose headers the content requests carry (mine, or a link page's). */
  readonly api: ApiClient;
}

/**
 * Runs one streaming ZIP download at a time (call `run` straight from the click: the save picker
 * needs it), with its progress and Cancel for a progress card, and a snackbar at its end. The
 * folders' Download ZIP and a link page's "Download all" build their files and run them here.
 */
export function useZipRun(): { running: RunningZip | null; run: (zip: ZipRun) => void } {
  const [running, setRunning] = useState<RunningZip | null>(null);
  const busy = useRef(false);

  const run = useCallback((zip: ZipRun) => {
    if (busy.current) return;
    if (zip.files.length === 0 && (zip.directories ?? []).length === 0) {
      snackbar.warning('Nothing to download');
      return;
    }
    const total = zip.files.reduce((sum, file) => sum + file.size, 0);
    let method;
    try {
      method = resolveSaveMethod(preferredSaveMethod(), total);
    } catch (error) {
      snackbar.danger(error instanceof Error ? error.message : 'Download failed');
      return;
    }
    const controller = new AbortController();
    busy.current = true;
    const cancel = (): void => {
      controller.abort();
    };
    setRunning({ name: zip.name, progress: null, cancel });
    // Synchronously from here to the sink's opening: downloadZip opens it before its first await.
    const done = downloadZip({
      api: zip.api,
      cipher: getSharedChunkCipher(),
      fileName: zip.name,
      files: zip.files,
      ...(zip.directories === undefined ? {} : { directories: zip.directories }),
      method,
      signal: controller.signal,
      onProgress: (progress) => {
        setRunning({ name: zip.name, progress, cancel });
      },
    });
    void done
      .then(
        () => {
          snackbar.success(`${zip.name} downloaded`);
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
  }, []);
  return { running, run };
}
