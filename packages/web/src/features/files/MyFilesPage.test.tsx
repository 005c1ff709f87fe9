import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatDateTime, formatSize } from '@coffer/contracts';
import { createTestAppSession, type TestAppSession } from '../../session/testing/test-session';
import { MyFilesPage } from './MyFilesPage';
import {
  apiError,
  createFakeApi,
  createFakeTransferManager,
  fileItem,
  findSnackbar,
  renderScreen,
  type FakeApi,
} from '../../test/render-screen';

const report = fileItem('report.pdf', {
  uploadedAt: new Date(2024, 2, 5, 10, 20, 30).toISOString(),
  size: 1536,
});
const photo = fileItem('photo.png', { uploadedAt: new Date(2024, 5, 1, 8, 0, 0).toISOString() });
const notes = fileItem('notes.txt', { uploadedAt: new Date(2023, 11, 24, 18, 0, 0).toISOString() });

function apiWith(files = [report, photo, notes]): FakeApi {
  const api = createFakeApi({
    'GET /users/files?limit=500': () => ({ files, count: files.length }),
    'GET /users/stats': () => ({}),
  });
  for (const file of files) api.on(`GET /users/files/${file.fileId}/shares`, () => ({ shares: [] }));
  return api;
}

/** Size and upload time, as the confirmations show them beside the name (issue 15, point 11). */
const reportFacts = `(${formatSize(report.size)} · ${formatDateTime(report.uploadedAt)})`;

const cardTitles = () =>
  within(screen.getByRole('list', { name: 'My files' }))
    .getAllByRole('article')
    .map((card) => card.querySelector('[id]')?.textContent);

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

describe('My Files', () => {
  it('shows the empty state with an Upload button to /new', async () => {
    const { router } = renderScreen(<MyFilesPage />, { api: apiWith([]), session });
    expect(await screen.findByText('No files found')).toBeTruthy();
    expect(screen.getByText('Try adjusting your search or filters.')).toBeTruthy();
    const [, emptyStateUpload] = screen.getAllByRole('link', { name: 'Upload' });
    if (emptyStateUpload === undefined) throw new Error('no Upload button in the empty state');
    await user.click(emptyStateUpload);
    expect(router.state.location.pathname).toBe('/new');
  });

  it('says so when the files cannot be loaded', async () => {
    const api = createFakeApi({
      'GET /users/files?limit=500': () => {
        throw apiError(500, 'INTERNAL', 'boom');
      },
    });
    renderScreen(<MyFilesPage />, { api, session });
    expect(await findSnackbar('Error loading files!')).toBeTruthy();
  });

  it('shows cards with type, size and day/month/year datetime, newest first', async () => {
    renderScreen(<MyFilesPage />, { api: apiWith(), session });
    const card = await screen.findByRole('article', { name: 'report.pdf' });
    expect(within(card).getByText('1.50 KB')).toBeTruthy();
    expect(within(card).getByText(formatDateTime(report.uploadedAt))).toBeTruthy();
    expect(within(card).getByRole('img', { name: 'PDF' })).toBeTruthy();
    expect(await within(card).findByText('Only you')).toBeTruthy();
    expect(cardTitles()).toEqual(['photo.png', 'report.pdf', 'notes.txt']);
  });

  it('searches, filters by type and sorts oldest first', async () => {
    renderScreen(<MyFilesPage />, { api: apiWith(), session });
    await screen.findByRole('article', { name: 'report.pdf' });

    await user.click(screen.getByRole('textbox', { name: 'Search files' }));
    await user.paste('REP');
    expect(cardTitles()).toEqual(['report.pdf']);
    await user.click(screen.getByRole('button', { name: 'Clear search' }));

    await user.click(screen.getByRole('combobox', { name: 'File type' }));
    await user.click(await screen.findByRole('option', { name: 'Images' }));
    expect(cardTitles()).toEqual(['photo.png']);
    await user.click(screen.getByRole('combobox', { name: 'File type' }));
    await user.click(await screen.findByRole('option', { name: 'Videos' }));
    expect(screen.getByText('No files found')).toBeTruthy();
    await user.click(screen.getByRole('combobox', { name: 'File type' }));
    await user.click(await screen.findByRole('option', { name: 'All types' }));

    await user.click(screen.getByRole('combobox', { name: 'Sort order' }));
    await user.click(await screen.findByRole('option', { name: 'Oldest first' }));
    expect(cardTitles()).toEqual(['notes.txt', 'report.pdf', 'photo.png']);
  });

  it('deletes a file after confirmation', async () => {
    const api = apiWith().on(`DELETE /users/files/${report.fileId}`, () => ({ ok: true }));
    renderScreen(<MyFilesPage />, { api, session });
    await user.click(await screen.findByRole('button', { name: 'Delete report.pdf' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete file' });
    expect(dialog.textContent).toContain(`Delete report.pdf ${reportFacts}?`);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await findSnackbar('File deleted successfully!', 'status')).toBeTruthy();
    expect(api.callsTo(`DELETE /users/files/${report.fileId}`)).toHaveLength(1);
  });

  it('reports a failed delete', async () => {
    const api = apiWith().on(`DELETE /users/files/${report.fileId}`, () => {
      throw apiError(500, 'INTERNAL');
    });
    renderScreen(<MyFilesPage />, { api, session });
    await user.click(await screen.findByRole('button', { name: 'Delete report.pdf' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete file' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await findSnackbar('Error deleting file!')).toBeTruthy();
  });

  it('lists who a file is shared with and revokes access after a "Revoke access?" confirmation', async () => {
    let shares = [
      { email: 'ada@example.com', name: 'Ada Lovelace' },
      { email: 'alan@example.com', name: 'Alan Turing' },
    ];
    // The list says the report is shared (issue 31: only then does its card ask with whom).
    const api = apiWith([{ ...report, shared: true }, photo, notes])
      .on(`GET /users/files/${report.fileId}/shares`, () => ({ shares }))
      .on(`DELETE /users/files/${report.fileId}/share/ada%40example.com`, () => {
        shares = shares.filter((s) => s.email !== 'ada@example.com');
        return { ok: true };
      })
      .on(`DELETE /users/files/${report.fileId}/share/alan%40example.com`, () => {
        throw apiError(404, 'FILE_NOT_FOUND');
      });
    renderScreen(<MyFilesPage />, { api, session });
    const card = await screen.findByRole('article', { name: 'report.pdf' });
    expect(await within(card).findByText('Ada Lovelace')).toBeTruthy();

    const chipButton = within(card).getByRole('button', { name: 'Revoke access for Ada Lovelace' });
    await user.click(chipButton);
    const dialog = await screen.findByRole('dialog', { name: 'Revoke access?' });
    expect(within(dialog).getByText(/will no longer be able to open/)).toBeTruthy();
    expect(dialog.textContent).toContain(`will no longer be able to open report.pdf ${reportFacts}.`);
    // Cancelling revokes nothing and gives focus back to the chip's "×".
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog', { name: 'Revoke access?' })).toBeNull();
    });
    expect(api.calls.some((call) => call.method === 'DELETE')).toBe(false);
    await waitFor(() => {
      expect(document.activeElement).toBe(chipButton);
    });

    await user.click(chipButton);
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Revoke access?' })).getByRole('button', {
        name: 'Revoke',
      }),
    );
    expect(await findSnackbar('Access revoked for Ada Lovelace', 'status')).toBeTruthy();
    await waitFor(() => {
      expect(within(card).queryByText('Ada Lovelace')).toBeNull();
    });

    await user.click(within(card).getByRole('button', { name: 'Revoke access for Alan Turing' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Revoke access?' })).getByRole('button', {
        name: 'Revoke',
      }),
    );
    expect(await findSnackbar('Failed to revoke access for Alan Turing')).toBeTruthy();
  });

  it('downloads through the transfer manager: Starting download..., progress, then success', async () => {
    const manager = createFakeTransferManager();
    renderScreen(<MyFilesPage />, { api: apiWith(), session, manager });
    const card = await screen.findByRole('article', { name: 'report.pdf' });
    await user.click(within(card).getByRole('button', { name: 'Download report.pdf' }));
    expect(manager.downloadTargets).toEqual([{ fileId: report.fileId, source: 'own' }]);
    expect(within(card).getByText('Starting download...')).toBeTruthy();
    expect(within(card).getByRole('progressbar', { name: 'Download of report.pdf' })).toBeTruthy();

    const id = manager.getSnapshot().downloads[0]?.id ?? '';
    act(() => {
      manager.update(id, { progress: 50, statusText: 'Downloading and decrypting file' });
    });
    // The card hears the manager once per task (use-transfers.ts): it renders after this one.
    expect(await within(card).findByText('Downloading and decrypting file')).toBeTruthy();
    expect(within(card).getByText('50%')).toBeTruthy();
    act(() => {
      manager.finish(id, 'complete');
    });
    expect(await findSnackbar('File downloaded successfully!', 'status')).toBeTruthy();
    await waitFor(() => {
      expect(within(card).getByRole('button', { name: 'Download report.pdf' })).toBeTruthy();
    });
  });

  it('shows a failed download as Download failed: <reason>', async () => {
    const manager = createFakeTransferManager();
    renderScreen(<MyFilesPage />, { api: apiWith(), session, manager });
    await user.click(await screen.findByRole('button', { name: 'Download notes.txt' }));
    act(() => {
      manager.finish(
        manager.getSnapshot().downloads[0]?.id ?? '',
        'failed',
        'The file you are trying to download no longer exists.',
      );
    });
    expect(
      await findSnackbar('Download failed: The file you are trying to download no longer exists.'),
    ).toBeTruthy();
  });

  it('cancels a running download', async () => {
    const manager = createFakeTransferManager();
    renderScreen(<MyFilesPage />, { api: apiWith(), session, manager });
    await user.click(await screen.findByRole('button', { name: 'Download notes.txt' }));
    await user.click(screen.getByRole('button', { name: 'Cancel download of notes.txt' }));
    expect(await findSnackbar('Download cancelled', 'status')).toBeTruthy();
  });

  it('refuses to share an unencrypted file', async () => {
    renderScreen(<MyFilesPage />, {
      api: apiWith([fileItem('legacy.txt', { isEncrypted: false })]),
      session,
    });
    await user.click(await screen.findByRole('button', { name: 'Share legacy.txt' }));
    expect(await findSnackbar('This file is not encrypted and cannot be shared securely.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('My Files: signatures (issue 13)', () => {
  it('labels a file uploaded before signatures as Unsigned, and still offers its download', async () => {
    const api = apiWith([report]);
    api.on(`GET /users/files/${report.fileId}`, () => ({
      fileId: report.fileId,
      name: report.name,
      originalFilename: report.name,
      contentType: report.contentType,
      size: report.size,
      isEncrypted: true,
      uploadedAt: report.uploadedAt,
      encryptionInfo: { version: 'key-1', algorithm: 'AES-GCM', iv: '', encryptedFileKey: 'AAAA' },
    }));
    renderScreen(<MyFilesPage />, { api, session });
    const card = await screen.findByRole('article', { name: report.name });
    expect(await within(card).findByText('Unsigned')).toBeTruthy();
    expect(within(card).getByRole('button', { name: `Download ${report.name}` })).toBeTruthy();
  });
});
