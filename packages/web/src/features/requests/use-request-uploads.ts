import { useCallback, useRef, useState } from 'react';
import type { OpenedRequest } from '../../lib/links/request-open';
import { uploadToRequest } from '../../lib/links/request-open';
import { TransferAbortedError } from '../../lib/transfers/transfer-errors';

export type RequestUploadStatus = 'waiting' | 'running' | 'done' | 'cancelled' | 'failed';

export interface RequestUploadRow {
  readonly id: string;
  readonly file: File;
  readonly status: RequestUploadStatus;
  readonly percent: number;
  readonly text: string;
}

/** The name a note travels under: a small text file, encrypted to the owner like the files. */
export const NOTE_FILE_NAME = 'Note.txt';

/**
 * The uploader's files on a request page: added, then sent one after another through the upload
 * pipeline; each can be cancelled (a running one aborts, a waiting one is skipped).
 */
export function useRequestUploads(request: OpenedRequest | null) {
  const [rows, setRows] = useState<readonly RequestUploadRow[]>([]);
  const [sending, setSending] = useState(false);
  const controllers = useRef(new Map<string, AbortController>());
  /** Rows cancelled before their turn: the send loop skips them. */
  const skipped = useRef(new Set<string>());
  const nextId = useRef(0);

  const update = useCallback((id: string, change: Partial<RequestUploadRow>) => {
    setRows((current) => current.map((row) => (row.id === id ? { ...row, ...change } : row)));
  }, []);

  const add = useCallback((files: readonly File[]) => {
    setRows((current) => [
      ...current,
      ...files.map((file) => ({
        id: `r${String(nextId.current++)}`,
        file,
        status: 'waiting' as const,
        percent: 0,
        text: 'Ready to send',
      })),
    ]);
  }, []);

  const cancel = useCallback(
    (id: string) => {
      const controller = controllers.current.get(id);
      if (controller !== undefined) {
        controller.abort();
        return;
      }
      skipped.current.add(id);
      update(id, { status: 'cancelled', text: 'Cancelled' });
    },
    [update],
  );

  const send = useCallback(
    async (note: string) => {
      if (request === null || sending) return;
      setSending(true);
      const noteRow: RequestUploadRow[] =
        note.trim() === ''
          ? []
          : [
              {
                id: `r${String(nextId.current++)}`,
                file: new File([note.trim()], NOTE_FILE_NAME, { type: 'text/plain' }),
                status: 'waiting',
                percent: 0,
                text: 'Ready to send',
              },
            ];
      setRows((current) => [...current, ...noteRow]);
      const queue = [...rows, ...noteRow].filter((row) => row.status === 'waiting');
      for (const row of queue) {
        if (skipped.current.has(row.id)) continue;
        const controller = new AbortController();
        controllers.current.set(row.id, controller);
        update(row.id, { status: 'running', text: 'Encrypting...' });
        try {
          await uploadToRequest(request, row.file, controller.signal, ({ percent, text }) => {
            update(row.id, { percent, text });
          });
          update(row.id, { status: 'done', percent: 100, text: 'Sent' });
        } catch (error) {
          update(
            row.id,
            error instanceof TransferAbortedError
              ? { status: 'cancelled', text: 'Cancelled' }
              : { status: 'failed', text: error instanceof Error ? error.message : 'The upload failed.' },
          );
        } finally {
          controllers.current.delete(row.id);
        }
      }
      setSending(false);
    },
    [request, rows, sending, update],
  );

  return { rows, sending, add, cancel, send };
}
