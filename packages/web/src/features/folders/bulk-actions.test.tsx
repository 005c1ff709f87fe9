import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FileListItem, FileMetadata, Folder } from '@coffer/contracts';
import { generateFileKey } from '@coffer/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../lib/api/http';
import { createFolder, fileNodeFor } from '../../lib/drive';
import { createTestAppSession, type TestAppSession } from '../../session/testing/test-session';
import { MyFilesPage } from '../files/MyFilesPage';
import { createFakeApi, fileItem, findSnackbar, renderScreen, testUser } from '../../test/render-screen';

// Issue 31, bulk actions: a delete or move of a selection goes on past a failed item, names what
// failed (by its decrypted name) and keeps it selected; what succeeded leaves the selection.

let session: TestAppSession;
let files: FileListItem[];
let archive: Folder;

const OWNER = testUser.email ?? '';

beforeAll(async () => {
  session = await createTestAppSession({ unlocked: true });
  const keys = session.encryption.requireKeys();
  const driveKey = keys.driveKey;
  const signingPrivateKey = keys.signingPrivateKey;
  if (driveKey === undefined || signingPrivateKey === undefined) throw new Error('no drive key');
  const sealed = async (fileId: string, name: string): Promise<FileListItem> => ({
    ...fileItem('encrypted', { fileId }),
    ...(await fileNodeFor({
      fileKey: await generateFileKey(),
      name,
      contentType: 'text/plain',
      parent: { nodeId: null, key: driveKey },
      ownerEmail: OWNER,
      signingPrivateKey,
    })),
  });
  files = [
    await sealed('f-1', 'a-plan.txt'),
    await sealed('f-2', 'b-stuck.txt'),
    await sealed('f-3', 'c-late.txt'),
  ];
  // A folder to move into, as POST /users/folders stores it.
  const echo = {
    request: (_method: string, _path: string, options?: { body?: unknown }) =>
      Promise.resolve({
        ...(options?.body as object),
        createdAt: '2024-03-05T10:20:30.000Z',
        updatedAt: '2024-03-05T10:20:30.000Z',
      }),
  } as unknown as ApiClient;
  archive = (
    await createFolder(
      echo,
      { parent: { nodeId: null, key: driveKey }, name: 'Archive' },
      { ownerEmail: OWNER, signingPrivateKey },
    )
  ).folder;
});

/** My Files with the three files and the folder; `b-stuck.txt` (f-2) cannot be deleted or moved. */
function renderMyFiles() {
  const metadata = (item: FileListItem): FileMetadata => ({
    ...item,
    originalFilename: item.name,
    encryptionInfo: null,
  });
  const api = createFakeApi({
    'GET /users/files?limit=500': () => ({ files, count: files.length }),
    'GET /users/folders': () => ({ folders: [archive] }),
    'DELETE /users/files/f-1': () => ({ ok: true }),
    'DELETE /users/files/f-3': () => ({ ok: true }),
  });
  for (const item of files) {
    api.on(`GET /users/files/${item.fileId}`, () => metadata(item));
    if (item.fileId !== 'f-2') api.on(`PUT /users/files/${item.fileId}/node`, () => metadata(item));
  }
  renderScreen(<MyFilesPage />, { api, session });
  return api;
}

const checkedBoxes = () =>
  Object.fromEntries(
    ['a-plan.txt', 'b-stuck.txt', 'c-late.txt'].map((name) => [
      name,
      screen.getByRole<HTMLInputElement>('checkbox', { name: `Select ${name}` }).checked,
    ]),
  );

async function selectAllThree(user: ReturnType<typeof userEvent.setup>): Promise<void> {
  await user.click(await screen.findByRole('button', { name: 'Select' }));
  for (const name of ['a-plan.txt', 'b-stuck.txt', 'c-late.txt']) {
    await user.click(await screen.findByRole('checkbox', { name: `Select ${name}` }));
  }
}

describe('bulk actions name what failed and keep it selected (issue 31)', () => {
  it('delete goes on past a failure, names it, and keeps only it selected', async () => {
    const api = renderMyFiles();
    const user = userEvent.setup({ delay: null });
    await screen.findByText('a-plan.txt', {}, { timeout: 20_000 });
    await selectAllThree(user);
    const bar = screen.getByRole('button', { name: 'Delete' });
    await user.click(bar);
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(
      await findSnackbar('Could not delete 1 of 3 items: “b-stuck.txt”. It stays selected.', 'alert', 10_000),
    ).toBeTruthy();
    expect(api.callsTo('DELETE /users/files/f-3')).toHaveLength(1);
    await waitFor(() => {
      expect(checkedBoxes()).toEqual({ 'a-plan.txt': false, 'b-stuck.txt': true, 'c-late.txt': false });
    });
  }, 60_000);

  it('move goes on past a failure, names it, and keeps only it selected', async () => {
    const api = renderMyFiles();
    const user = userEvent.setup({ delay: null });
    await screen.findByText('a-plan.txt', {}, { timeout: 20_000 });
    await selectAllThree(user);
    await user.click(screen.getByRole('button', { name: 'Move' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: /Archive/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Move here' }));

    expect(
      await findSnackbar('Could not move 1 of 3 items: “b-stuck.txt”. It stays selected.', 'alert', 10_000),
    ).toBeTruthy();
    // The file after the failed one was still moved.
    expect(api.callsTo('PUT /users/files/f-3/node')).toHaveLength(1);
    expect(api.callsTo('PUT /users/files/f-1/node')).toHaveLength(1);
    await waitFor(() => {
      expect(checkedBoxes()).toEqual({ 'a-plan.txt': false, 'b-stuck.txt': true, 'c-late.txt': false });
    });
  }, 60_000);
});
