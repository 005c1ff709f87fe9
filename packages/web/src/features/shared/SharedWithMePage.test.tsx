import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestAppSession, type TestAppSession } from '../../session/testing/test-session';
import {
  apiError,
  createFakeApi,
  createFakeTransferManager,
  findSnackbar,
  renderScreen,
  sharedItem,
} from '../../test/render-screen';
import { FilesReceivedPage } from '../share/FilesReceivedPage';
import { SharedWithMePage } from './SharedWithMePage';

const song = sharedItem('song.mp3', 'ada@example.com', {
  uploadedAt: new Date(2024, 0, 2, 3, 4, 5).toISOString(),
});
const slides = sharedItem('slides.pptx', 'alan@example.com', {
  uploadedAt: new Date(2024, 6, 1).toISOString(),
});
/** The received file's metadata as the server answers it: an unsigned share (from before signatures). */
const sharedMetadata = (item: typeof song) => ({
  file: {
    fileId: item.fileId,
    name: item.file.name,
    originalFilename: item.file.name,
    contentType: item.file.contentType,
    size: item.file.size,
    isEncrypted: true,
    encryptionInfo: null,
    uploadedAt: item.file.uploadedAt,
  },
  owner: item.owner,
  encryptedFileKey: 'd3JhcHBlZA==',
});

/** The list, and what the signature check reads before a file is offered: its metadata, the sender's key. */
const apiWith = (files = [song, slides]) => {
  const routes: Parameters<typeof createFakeApi>[0] = {
    'GET /users/files/shared?limit=500': () => ({ files }),
    // The pins the check reads, and writes when it pins a sender on first sight.
    'GET /users/pins': () => ({ pinSet: null }),
    'PUT /users/pins': () => ({ ok: true }),
  };
  for (const item of files) {
    routes[`GET /users/files/shared/${encodeURIComponent(item.fileId)}`] = () => sharedMetadata(item);
    routes[`GET /users/keys/public/${encodeURIComponent(item.owner)}`] = () => ({
      publicKey: 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA',
      keyId: `key-of-${item.owner}`,
    });
  }
  return createFakeApi(routes);
};

let session: TestAppSession;
let user: ReturnType<typeof userEvent.setup>;
beforeAll(async () => {
  session = await createTestAppSession({ unlocked: true });
});
beforeEach(() => {
  user = userEvent.setup({ delay: null });
});
afterEach(() => {
  act(() => {
    notifications.clean();
  });
});

describe('Shared With Me', () => {
  it('shows the empty state with View My Files', async () => {
    const { router } = renderScreen(<SharedWithMePage />, { api: apiWith([]), session });
    expect(await screen.findByText('No shared files yet')).toBeTruthy();
    await user.click(screen.getByRole('link', { name: 'View My Files' }));
    expect(router.state.location.pathname).toBe('/myfiles');
  });

  it('says so when the list cannot be loaded', async () => {
    const api = createFakeApi({
      'GET /users/files/shared?limit=500': () => {
        throw apiError(500, 'INTERNAL');
      },
    });
    renderScreen(<SharedWithMePage />, { api, session });
    expect(await findSnackbar('Error loading shared files!')).toBeTruthy();
  });

  it('lists files with their sender, searchable by sender and sortable', async () => {
    renderScreen(<SharedWithMePage />, { api: apiWith(), session });
    const card = await screen.findByRole('article', { name: 'song.mp3' });
    expect(within(card).getByText('From ada@example.com')).toBeTruthy();
    expect(within(card).getByText('3.00 MB')).toBeTruthy();
    expect(within(card).getByText('02/01/2024 03:04:05')).toBeTruthy();
    const titles = () => screen.getAllByRole('article').map((c) => c.querySelector('a')?.textContent);
    expect(titles()).toEqual(['slides.pptx', 'song.mp3']);

    await user.click(screen.getByRole('combobox', { name: 'Sort order' }));
    await user.click(await screen.findByRole('option', { name: 'Oldest first' }));
    expect(titles()).toEqual(['song.mp3', 'slides.pptx']);

    await user.click(screen.getByRole('textbox', { name: 'Search files' }));
    await user.paste('alan@');
    expect(titles()).toEqual(['slides.pptx']);
  });

  it('downloads a shared file and reports a failure as Download failed', async () => {
    const manager = createFakeTransferManager();
    renderScreen(<SharedWithMePage />, { api: apiWith(), session, manager });
    const card = await screen.findByRole('article', { name: 'song.mp3' });
    // Offered once the signature check has run: a share from before signatures is labelled so.
    expect(await within(card).findByText(/Unsigned/)).toBeTruthy();
    await user.click(within(card).getByRole('button', { name: 'Download song.mp3' }));
    expect(manager.downloadTargets).toEqual([{ fileId: song.fileId, source: 'shared' }]);
    act(() => {
      manager.finish(manager.getSnapshot().downloads[0]?.id ?? '', 'failed', 'Error downloading file!');
    });
    expect(await findSnackbar('Download failed')).toBeTruthy();
  });

  it('a click while the signature check still runs waits for it, then downloads (no false "could not check")', async () => {
    const manager = createFakeTransferManager();
    const api = apiWith();
    let answer = (): void => undefined;
    const checked = new Promise<void>((resolve) => {
      answer = resolve;
    });
    api.on(`GET /users/files/shared/${encodeURIComponent(song.fileId)}`, async () => {
      await checked;
      return sharedMetadata(song);
    });
    renderScreen(<SharedWithMePage />, { api, session, manager });
    const card = await screen.findByRole('article', { name: 'song.mp3' });
    expect(await within(card).findByText('Checking signature')).toBeTruthy();
    await user.click(within(card).getByRole('button', { name: 'Download song.mp3' }));
    expect(manager.downloadTargets).toEqual([]);
    act(() => {
      answer();
    });
    await waitFor(() => {
      expect(manager.downloadTargets).toEqual([{ fileId: song.fileId, source: 'shared' }]);
    });
    expect(screen.queryByText(/could not check who sent this file/)).toBeNull();
  });

  it('refetches the list when the tab regains focus, so a revoked file leaves it', async () => {
    const api = apiWith();
    renderScreen(<SharedWithMePage />, { api, session });
    expect(await screen.findByRole('article', { name: 'song.mp3' })).toBeTruthy();
    api.on('GET /users/files/shared?limit=500', () => ({ files: [slides] }));
    act(() => {
      window.dispatchEvent(new Event('visibilitychange'));
    });
    await waitFor(() => {
      expect(screen.queryByRole('article', { name: 'song.mp3' })).toBeNull();
    });
    expect(screen.getByRole('article', { name: 'slides.pptx' })).toBeTruthy();
  });

  it('says a file is no longer shared when its share is gone (404)', async () => {
    const api = apiWith().on(`GET /users/files/shared/${encodeURIComponent(song.fileId)}`, () => {
      throw apiError(404, 'FILE_NOT_FOUND');
    });
    const manager = createFakeTransferManager();
    renderScreen(<SharedWithMePage />, { api, session, manager });
    const card = await screen.findByRole('article', { name: 'song.mp3' });
    expect(await within(card).findByText('This file is no longer shared with you.')).toBeTruthy();
    await user.click(within(card).getByRole('button', { name: 'Download song.mp3' }));
    expect(await findSnackbar('This file is no longer shared with you.')).toBeTruthy();
    expect(manager.downloadTargets).toEqual([]);
  });

  it('after a failed download, refetches the list and says the file is no longer shared', async () => {
    const manager = createFakeTransferManager();
    const api = apiWith();
    renderScreen(<SharedWithMePage />, { api, session, manager });
    const card = await screen.findByRole('article', { name: 'song.mp3' });
    expect(await within(card).findByText(/Unsigned/)).toBeTruthy();
    await user.click(within(card).getByRole('button', { name: 'Download song.mp3' }));
    // The owner revokes while the download runs.
    api.on('GET /users/files/shared?limit=500', () => ({ files: [slides] }));
    act(() => {
      manager.finish(manager.getSnapshot().downloads[0]?.id ?? '', 'failed', 'Error downloading file!');
    });
    expect(await findSnackbar('This file is no longer shared with you.')).toBeTruthy();
    await waitFor(() => {
      expect(screen.queryByRole('article', { name: 'song.mp3' })).toBeNull();
    });
  });
});

describe('Received-file page', () => {
  it('shows the sender, title, upload date, size and a Download button', async () => {
    const manager = createFakeTransferManager();
    renderScreen(<FilesReceivedPage />, {
      api: apiWith(),
      session,
      manager,
      route: '/share/:id',
      path: `/share/${song.fileId}`,
    });
    expect(screen.getByRole('heading', { name: 'Files Received' })).toBeTruthy();
    const card = await screen.findByRole('article', { name: 'song.mp3' });
    expect(within(card).getAllByText('ada@example.com').length).toBeGreaterThan(0);
    expect(within(card).getByText('02/01/2024 03:04:05')).toBeTruthy();
    expect(within(card).getByText('3.00 MB')).toBeTruthy();
    await user.click(await within(card).findByRole('button', { name: 'Download' }));
    expect(within(card).getByText('Starting download...')).toBeTruthy();
    act(() => {
      manager.finish(manager.getSnapshot().downloads[0]?.id ?? '', 'complete');
    });
    expect(await findSnackbar('File downloaded successfully!', 'status')).toBeTruthy();
  });

  it('says File with ID {id} not found for a file not shared with me', async () => {
    renderScreen(<FilesReceivedPage />, {
      api: apiWith(),
      session,
      route: '/share/:id',
      path: '/share/nope-42',
    });
    expect(await screen.findByText('File with ID nope-42 not found')).toBeTruthy();
  });
});
