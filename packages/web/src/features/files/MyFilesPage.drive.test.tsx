import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FileListItem } from '@coffer/contracts';
import { generateFileKey } from '@coffer/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileNodeFor } from '../../lib/drive';
import { fileQueryKeys } from '../../lib/files/query-keys';
import { createTestAppSession, type TestAppSession } from '../../session/testing/test-session';
import { MyFilesPage } from './MyFilesPage';
import { TAMPERED_NODE_TEXT, UNREADABLE_NAME_TEXT } from './DriveNodeWarning';
import { appQueryClient, createFakeApi, fileItem, renderScreen, testUser } from '../../test/render-screen';

let session: TestAppSession;
beforeAll(async () => {
  session = await createTestAppSession({ unlocked: true });
});

/** A file uploaded with sealed metadata, as GET /users/files lists it. */
async function sealedItem(fileId: string, name: string): Promise<FileListItem> {
  const keys = session.encryption.requireKeys();
  if (keys.driveKey === undefined || keys.signingPrivateKey === undefined) throw new Error('no drive key');
  const node = await fileNodeFor({
    fileKey: await generateFileKey(),
    name,
    contentType: 'text/plain',
    parent: { nodeId: null, key: keys.driveKey },
    ownerEmail: testUser.email ?? '',
    signingPrivateKey: keys.signingPrivateKey,
  });
  return { ...fileItem('encrypted', { fileId }), ...node };
}

const titles = () =>
  within(screen.getByRole('list', { name: 'My files' }))
    .getAllByTestId('file-title')
    .map((title) => title.textContent);

describe('My Files with encrypted names (issue 31)', () => {
  it('shows and searches decrypted names; flags unreadable and tampered nodes', async () => {
    const marker = await sealedItem('f-1', 'zz-marker-plan.txt');
    const other = await sealedItem('f-2', 'holiday.jpg');
    const swapped = await sealedItem('f-3', 'swapped.txt');
    const moved = await sealedItem('f-4', 'moved.txt');
    const files = [
      marker,
      other,
      { ...swapped, encryptedMetadata: other.encryptedMetadata },
      // A genuine node whose record names another node: opens, but is flagged.
      { ...moved, nodeRecord: marker.nodeRecord },
    ];
    const api = createFakeApi({
      'GET /users/files?limit=500': () => ({ files, count: files.length }),
      'GET /users/folders': () => ({ folders: [] }),
    });
    renderScreen(<MyFilesPage />, { api, session });
    await waitFor(() => {
      expect(titles()).toContain('zz-marker-plan.txt');
    });
    expect(titles()).toContain('holiday.jpg');
    expect(titles()).not.toContain('encrypted');
    expect(await screen.findByText(UNREADABLE_NAME_TEXT)).toBeTruthy();
    const flagged = await screen.findAllByText(TAMPERED_NODE_TEXT);
    expect(flagged.map((text) => text.closest('article')?.getAttribute('data-file-id'))).toEqual(['f-4']);

    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByRole('textbox', { name: 'Search files' }), 'MARKER');
    await waitFor(() => {
      expect(titles()).toEqual(['zz-marker-plan.txt']);
    });
  });

  it('cards make no call of their own where the list already says enough (issue 31: was 2 per card)', async () => {
    const sealed = await Promise.all(
      Array.from({ length: 30 }, (_, index) => sealedItem(`n-${index}`, `note-${index}.txt`)),
    );
    const files: FileListItem[] = sealed.map((item, index) =>
      index === 0 ? { ...item, shared: true } : item,
    );
    const api = createFakeApi({
      'GET /users/files?limit=500': () => ({ files, count: files.length }),
      'GET /users/folders': () => ({ folders: [] }),
      'GET /users/files/n-0/shares': () => ({ shares: [{ email: 'bob@example.com', name: 'Bob' }] }),
    });
    renderScreen(<MyFilesPage />, { api, session });
    await waitFor(() => {
      expect(titles()).toContain('note-0.txt');
    });
    expect(await screen.findByText('Bob')).toBeTruthy();
    const perCard = () =>
      api.calls
        .filter((call) => call.method === 'GET' && /^\/users\/files\/[^/?]+(\/shares)?$/.test(call.path))
        .map((call) => call.path);
    // Only the shared file asks who it is shared with; no card reads its metadata to check it.
    expect(perCard()).toEqual(['/users/files/n-0/shares']);
    expect(screen.getAllByText('Only you')).toHaveLength(screen.getAllByRole('article').length - 1);
  }, 60_000);
});

describe('My Files after an upload that ends while the list was still loading', () => {
  // CI (session 24): the list refetched as its owner went to New Upload; the upload's refresh came
  // while that load was still running with no screen, and the load, ending after it, marked the old
  // list fresh: back on My Files the new file stayed missing (the app keeps a list for 30 s).
  it('lists the new file when My Files opens again', async () => {
    const before = await sealedItem('f-before', 'before.txt');
    const after = await sealedItem('f-after', 'after.txt');
    let listed: FileListItem[] = [before];
    let hold: Promise<void> | null = null;
    const api = createFakeApi({
      'GET /users/files?limit=500': async () => {
        const answer = { files: listed, count: listed.length };
        if (hold !== null) await hold;
        return answer;
      },
      'GET /users/folders': () => ({ folders: [] }),
    });
    const queryClient = appQueryClient();
    const { router } = renderScreen(<MyFilesPage />, { api, session, queryClient });
    await waitFor(() => {
      expect(titles()).toEqual(['before.txt']);
    });

    // A refetch starts (the list is older than 30 s) and is slow; its owner leaves for New Upload.
    let release = (): void => undefined;
    hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const calls = () => api.callsTo('GET /users/files?limit=500').length;
    const callsBefore = calls();
    void queryClient.invalidateQueries({ queryKey: fileQueryKeys.list });
    await waitFor(() => {
      expect(calls()).toBe(callsBefore + 1);
    });
    await router.navigate('/new');
    expect(await screen.findByText('Another page')).toBeTruthy();

    // The upload ends: the server lists the new file and the upload refreshes every file list.
    listed = [after, before];
    hold = null;
    await queryClient.invalidateQueries({ queryKey: fileQueryKeys.all });
    // Then the slow load, which asked before the upload ended, answers.
    release();
    await waitFor(() => {
      expect(queryClient.isFetching({ queryKey: fileQueryKeys.list })).toBe(0);
    });

    await router.navigate('/');
    await waitFor(() => {
      expect(titles()).toEqual(['after.txt', 'before.txt']);
    });
  });

  it('loads the whole list again when My Files is left during its first load', async () => {
    const first = await sealedItem('f-new', 'newest.txt');
    const second = await sealedItem('f-old', 'older.txt');
    let release = (): void => undefined;
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding = true;
    const api = createFakeApi({
      'GET /users/files?limit=500': () => ({ files: [first], count: 2, nextCursor: 'c1' }),
      'GET /users/files?limit=500&cursor=c1': async () => {
        if (holding) await hold;
        return { files: [second], count: 2 };
      },
      'GET /users/folders': () => ({ folders: [] }),
    });
    const queryClient = appQueryClient();
    const { router } = renderScreen(<MyFilesPage />, { api, session, queryClient });
    // The first page shows while the second is still on its way; then its owner leaves.
    await waitFor(() => {
      expect(titles()).toEqual(['newest.txt']);
    });
    await router.navigate('/new');
    expect(await screen.findByText('Another page')).toBeTruthy();
    holding = false;
    release();

    await router.navigate('/');
    await waitFor(() => {
      expect(titles()).toEqual(['newest.txt', 'older.txt']);
    });
  });
});
