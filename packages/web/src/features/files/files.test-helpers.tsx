/**
 * Renders the file screens against a fake API client, a test session and a fake transfer manager,
 * for component tests. Not a test file itself, and imported only by tests.
 */
import type { ReactElement } from 'react';
import type { Contact, FileListItem, SharedFileItem } from '@coffer/contracts';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications, notifications } from '@mantine/notifications';
import { render, screen, type RenderResult } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { AppSession } from '../../app/session/app-session';
import { AppSessionContext } from '../../app/session/session-context';
import { theme } from '../../app/theme';
import { ApiClientContext } from '../../lib/api/context';
import { apiError, createFakeApi, type FakeApi, type RecordedCall } from '../../test/fake-api';
import type {
  CancelResult,
  DownloadTicket,
  TransferItem,
  TransferManager,
  TransfersSnapshot,
  UploadOutcome,
  UploadTicket,
} from '../../lib/transfers';
import { TransferManagerContext } from './use-transfers';
import { CurrentUserContext } from '../../app/session/current-user';
import { testUser } from '../contacts/screen.test-helpers';

export { apiError, createFakeApi };
export type { FakeApi, RecordedCall };

export function fileItem(name: string, overrides: Partial<FileListItem> = {}): FileListItem {
  return {
    fileId: `file-${name}`,
    name,
    contentType: 'application/octet-stream',
    isEncrypted: true,
    size: 2048,
    uploadedAt: '2024-03-05T10:20:30.000Z',
    ownerId: 'user-1',
    ...overrides,
  };
}

export function sharedItem(
  name: string,
  owner: string,
  overrides: Partial<SharedFileItem['file']> = {},
): SharedFileItem {
  return {
    fileId: `shared-${name}`,
    owner,
    file: {
      name,
      contentType: 'application/octet-stream',
      size: 1024 * 1024 * 3,
      uploadedAt: '2024-03-05T10:20:30.000Z',
      isEncrypted: true,
      ...overrides,
    },
  };
}

export function contact(overrides: Partial<Contact> & Pick<Contact, 'name' | 'email'>): Contact {
  return { color: '#0ca678', image: null, invited: false, ...overrides };
}

/** A transfer manager whose transfers the test moves by hand. */
export interface FakeTransferManager extends TransferManager {
  /** Files passed to `enqueueUploads`, in order. */
  readonly uploadedFiles: File[];
  readonly downloadTargets: { fileId: string; source: string }[];
  update(id: string, changes: Partial<TransferItem>): void;
  /** Ends a transfer: complete, failed (with `error`) or aborted. */
  finish(id: string, status: 'complete' | 'failed' | 'aborted', error?: string): void;
  /** The next `abort()` rejects (a failed server-side abort). */
  failNextAbort: boolean;
}

export function createFakeTransferManager(): FakeTransferManager {
  const items = new Map<string, TransferItem>();
  const settle = new Map<string, (item: TransferItem) => void>();
  const listeners = new Set<() => void>();
  let snapshot: TransfersSnapshot = { uploads: [], downloads: [] };
  let sequence = 0;
  const publish = (): void => {
    const all = [...items.values()];
    snapshot = {
      uploads: all.filter((item) => item.kind === 'upload'),
      downloads: all.filter((item) => item.kind === 'download'),
    };
    for (const listener of [...listeners]) listener();
  };
  const isActive = (item: TransferItem): boolean => item.status === 'queued' || item.status === 'processing';
  const manager: FakeTransferManager = {
    uploadedFiles: [],
    downloadTargets: [],
    failNextAbort: false,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => snapshot,
    enqueueUploads(files) {
      const tickets = files.map((file): UploadTicket => {
        const id = `upload-${++sequence}`;
        manager.uploadedFiles.push(file);
        items.set(id, {
          id,
          kind: 'upload',
          fileName: file.name,
          size: file.size,
          status: 'queued',
          progress: 0,
          statusText: 'Preparing file for upload...',
          error: null,
          fileId: null,
        });
        const done = new Promise<UploadOutcome>((resolve) => {
          settle.set(id, (item) => {
            resolve({ item, file: null });
          });
        });
        return { id, done };
      });
      publish();
      return tickets;
    },
    startDownload(target): DownloadTicket {
      const id = `download-${++sequence}`;
      manager.downloadTargets.push({ fileId: target.fileId, source: target.source });
      items.set(id, {
        id,
        kind: 'download',
        fileName: target.fileName,
        size: target.size,
        status: 'processing',
        progress: 0,
        statusText: 'Starting download...',
        error: null,
        fileId: target.fileId,
      });
      const done = new Promise<TransferItem>((resolve) => {
        settle.set(id, resolve);
      });
      publish();
      return { id, done };
    },
    update(id, changes) {
      const item = items.get(id);
      if (item === undefined) throw new Error(`no transfer ${id}`);
      items.set(id, { ...item, ...changes });
      publish();
    },
    finish(id, status, error) {
      const item = items.get(id);
      if (item === undefined) throw new Error(`no transfer ${id}`);
      const final = { ...item, status, error: error ?? null };
      items.set(id, final);
      publish();
      settle.get(id)?.(final);
    },
    async abort(id) {
      const item = items.get(id);
      if (manager.failNextAbort) {
        manager.failNextAbort = false;
        throw new Error('Error cancelling upload');
      }
      if (item !== undefined && isActive(item)) manager.finish(id, 'aborted');
      await Promise.resolve();
      return item?.kind === 'download' ? 'Download cancelled' : 'Upload cancelled';
    },
    async abortAll(kind): Promise<CancelResult> {
      const active = [...items.values()].filter((item) => item.kind === kind && isActive(item));
      for (const item of active) manager.finish(item.id, 'aborted');
      await Promise.resolve();
      return {
        count: active.length,
        message: active.length === 1 ? 'Upload cancelled' : `${active.length} uploads cancelled`,
      };
    },
    abortAllOperations: () => Promise.resolve(),
    abortAllForNavigation: () => Promise.resolve(),
    hasActiveOperations: () => [...items.values()].some(isActive),
    setMaxConcurrentUploads: () => undefined,
    dismiss(id) {
      items.delete(id);
      publish();
    },
    clearFinished: () => undefined,
  };
  return manager;
}

interface RenderFilesOptions {
  api: FakeApi;
  session: AppSession;
  manager?: TransferManager;
  /** The route pattern the screen is mounted at. */
  route?: string;
  path?: string;
}

export interface RenderedFilesScreen extends RenderResult {
  router: ReturnType<typeof createMemoryRouter>;
  queryClient: QueryClient;
}

/** Renders `ui` with Mantine (test mode), snackbars, queries, the session, the transfer manager and a router. */
export function renderFilesScreen(ui: ReactElement, options: RenderFilesOptions): RenderedFilesScreen {
  notifications.clean();
  const route = options.route ?? '/';
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, retryDelay: 0 }, mutations: { retry: false } },
  });
  const router = createMemoryRouter(
    [
      { path: route, element: ui },
      { path: '*', element: <p>Another page</p> },
    ],
    { initialEntries: [options.path ?? route] },
  );
  const result = render(
    <MantineProvider theme={theme} env="test">
      <QueryClientProvider client={queryClient}>
        <ApiClientContext.Provider value={options.api}>
          <AppSessionContext.Provider value={options.session}>
            <TransferManagerContext.Provider value={options.manager ?? createFakeTransferManager()}>
              <CurrentUserContext.Provider value={testUser}>
                <ModalsProvider>
                  <Notifications />
                  <RouterProvider router={router} />
                </ModalsProvider>
              </CurrentUserContext.Provider>
            </TransferManagerContext.Provider>
          </AppSessionContext.Provider>
        </ApiClientContext.Provider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...result, router, queryClient };
}

/** A snackbar with exactly this text: danger ones have role alert, others role status. */
export function findSnackbar(
  text: string,
  role: 'alert' | 'status' = 'alert',
  timeout = 1000,
): Promise<HTMLElement> {
  return screen.findByText(text, { selector: `[role="${role}"] *` }, { timeout });
}
