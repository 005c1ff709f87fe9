import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import type { Folder } from '@coffer/contracts';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFolder } from '../../lib/drive';
import { createTestAppSession, type TestAppSession } from '../../session/testing/test-session';
import {
  createFakeApi,
  createFakeTransferManager,
  findSnackbar,
  renderScreen,
  testUser,
  type FakeTransferManager,
} from '../../test/render-screen';
import { NewUploadPage } from './NewUploadPage';

const file = (name: string, bytes = 5) => new File([new Uint8Array(bytes)], name, { type: 'text/plain' });
const api = () =>
  createFakeApi({ 'GET /users/stats': () => ({ subscription: { limits: { maxConcurrentUploads: 2 } } }) });

let session: TestAppSession;
let user: ReturnType<typeof userEvent.setup>;
beforeAll(async () => {
  session = await createTestAppSession({ unlocked: true });
});
beforeEach(() => {
  user = userEvent.setup({ delay: null, applyAccept: false });
});
afterEach(() => {
  act(() => {
    notifications.clean();
  });
});

function renderPage(
  manager: FakeTransferManager = createFakeTransferManager(),
  s: TestAppSession = session,
  path = '/new',
) {
  const rendered = renderScreen(<NewUploadPage />, { api: api(), session: s, manager, route: '/new', path });
  const input = (): HTMLInputElement => {
    const element = rendered.container.querySelector<HTMLInputElement>('input[type="file"]');
    if (element === null) throw new Error('no file input');
    return element;
  };
  return { ...rendered, manager, input };
}

const rows = () => screen.queryAllByRole('listitem').map((row) => row.getAttribute('aria-label'));
const row = (name: string) => screen.getByRole('listitem', { name });

describe('New Upload', () => {
  it('adds files without starting them; same name and size is refused', async () => {
    const { input, manager } = renderPage();
    expect(screen.getByText('Drop files here or click to upload')).toBeTruthy();
    await user.upload(input(), [file('a.txt'), file('b.txt')]);
    expect(rows()).toEqual(['a.txt', 'b.txt']);
    expect(within(row('a.txt')).getByText(/Ready to upload/)).toBeTruthy();
    expect(manager.uploadedFiles).toEqual([]);

    await user.upload(input(), [file('a.txt'), file('a.txt', 6)]);
    expect(await findSnackbar('File already added', 'status')).toBeTruthy();
    expect(rows()).toEqual(['a.txt', 'b.txt', 'a.txt']);
  });

  it('holds at most 10 files', async () => {
    const { input } = renderPage();
    await user.upload(
      input(),
      Array.from({ length: 12 }, (_, i) => file(`f${i}.txt`)),
    );
    expect(rows()).toHaveLength(10);
    expect(await findSnackbar('You can not upload any more files.', 'status')).toBeTruthy();
    expect(
      screen.getByText('You can not upload any more files.', { selector: '[data-testid="dropzone-text"]' }),
    ).toBeTruthy();
  });

  it('shows Queued, Processing and a green percentage, then removes a finished file', async () => {
    const { input, manager } = renderPage();
    await user.upload(input(), [file('small.txt'), file('big.bin', 9)]);
    await user.click(screen.getByRole('button', { name: 'Upload Files' }));
    expect(manager.uploadedFiles.map((f) => f.name)).toEqual(['small.txt', 'big.bin']);
    const [small, big] = manager.getSnapshot().uploads;
    if (small === undefined || big === undefined) throw new Error('uploads not started');

    // While uploading the drop zone is disabled and says so.
    expect(screen.getByText('Upload in progress. Please wait...')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Upload Files' }).disabled).toBe(true);

    act(() => {
      manager.update(big.id, { statusText: 'Queued (1 of 1)' });
      manager.update(small.id, { status: 'processing', statusText: 'Encrypting chunk 1 of 1...' });
    });
    // The list hears the manager once per task (use-transfers.ts): it renders after this one.
    expect(await within(row('big.bin')).findByText(/Queued \(1 of 1\)/)).toBeTruthy();
    expect(within(row('big.bin')).getByText('Queued')).toBeTruthy();
    expect(row('big.bin').dataset.uploadPhase).toBe('queued');
    expect(within(row('small.txt')).getByText('Processing')).toBeTruthy();
    expect(row('small.txt').dataset.uploadPhase).toBe('processing');

    act(() => {
      manager.update(small.id, { progress: 37.5, statusText: 'Encrypting and uploading file' });
    });
    expect(await within(row('small.txt')).findByText('37.5%')).toBeTruthy();
    expect(row('small.txt').dataset.uploadPhase).toBe('uploading');

    act(() => {
      manager.finish(small.id, 'complete');
    });
    await waitFor(() => {
      expect(rows()).toEqual(['big.bin']);
    });
    // One summary snackbar once the whole batch has ended, not one per file.
    expect(screen.queryByText('File uploaded successfully!')).toBeNull();
    act(() => {
      manager.finish(big.id, 'complete');
    });
    expect(await findSnackbar('2 files uploaded successfully!', 'status')).toBeTruthy();
    expect(screen.queryByText('File uploaded successfully!')).toBeNull();
    await waitFor(() => {
      expect(rows()).toEqual([]);
    });
  });

  it('says File uploaded successfully! for a batch of one', async () => {
    const { input, manager } = renderPage();
    await user.upload(input(), [file('only.txt')]);
    await user.click(screen.getByRole('button', { name: 'Upload Files' }));
    act(() => {
      manager.finish(manager.getSnapshot().uploads[0]?.id ?? '', 'complete');
    });
    expect(await findSnackbar('File uploaded successfully!', 'status')).toBeTruthy();
  });

  it('cancels a running upload, and keeps a failed one with its error', async () => {
    const { input, manager } = renderPage();
    await user.upload(input(), [file('one.txt'), file('two.txt')]);
    await user.click(screen.getByRole('button', { name: 'Upload Files' }));
    const [one, two] = manager.getSnapshot().uploads;
    if (one === undefined || two === undefined) throw new Error('uploads not started');

    await user.click(screen.getByRole('button', { name: 'Cancel upload of one.txt' }));
    expect(await findSnackbar('Upload cancelled', 'status')).toBeTruthy();
    await waitFor(() => {
      expect(rows()).toEqual(['two.txt']);
    });

    act(() => {
      manager.finish(
        two.id,
        'failed',
        'Storage quota exceeded. Please free up some space or upgrade your plan.',
      );
    });
    expect(
      await findSnackbar('Storage quota exceeded. Please free up some space or upgrade your plan.'),
    ).toBeTruthy();
    expect(row('two.txt').dataset.uploadPhase).toBe('failed');
    // Not busy any more: it can be retried.
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Upload Files' }).disabled).toBe(false);
  });

  it('reports a failed server-side cancel', async () => {
    const { input, manager } = renderPage();
    await user.upload(input(), [file('one.txt')]);
    await user.click(screen.getByRole('button', { name: 'Upload Files' }));
    manager.failNextAbort = true;
    await user.click(screen.getByRole('button', { name: 'Cancel upload of one.txt' }));
    expect(await findSnackbar('Error cancelling upload')).toBeTruthy();
  });

  it('uploads into the folder /new?folder= names, and links back to it (issue 31)', async () => {
    const keys = session.encryption.requireKeys();
    if (keys.driveKey === undefined || keys.signingPrivateKey === undefined) throw new Error('no drive key');
    const made = createFakeApi({
      'POST /users/folders': ({ body }) => ({ ...(body as object), createdAt: 'x', updatedAt: 'x' }),
    });
    const { folder } = await createFolder(
      made,
      { parent: { nodeId: null, key: keys.driveKey }, name: 'Trip' },
      { ownerEmail: testUser.email ?? '', signingPrivateKey: keys.signingPrivateKey },
    );
    const folders: Folder[] = [folder];
    const manager = createFakeTransferManager();
    const enqueue = vi.spyOn(manager, 'enqueueUploads');
    const rendered = renderScreen(<NewUploadPage />, {
      api: api().on('GET /users/folders', () => ({ folders })),
      session,
      manager,
      route: '/new',
      path: `/new?folder=${folder.nodeId}`,
    });
    await waitFor(() => {
      expect(screen.getByTestId('upload-place').textContent).toBe('Uploading into My Files › Trip');
    });
    expect(screen.getByRole('link', { name: 'Back to My Files' }).getAttribute('href')).toBe(
      `/myfiles?folder=${folder.nodeId}`,
    );
    const input = rendered.container.querySelector<HTMLInputElement>('input[type="file"]');
    if (input === null) throw new Error('no file input');
    await user.upload(input, [file('in-trip.txt')]);
    await user.click(screen.getByRole('button', { name: 'Upload Files' }));
    expect(manager.uploadedFiles.map((f) => f.name)).toEqual(['in-trip.txt']);
    expect(enqueue.mock.calls[0]?.[1].parent?.nodeId).toBe(folder.nodeId);
  });

  it('does not upload into a folder it cannot open', async () => {
    const { input, manager } = renderPage(createFakeTransferManager(), session, '/new?folder=gone');
    expect(await screen.findByText('The folder to upload into could not be opened')).toBeTruthy();
    await user.upload(input(), [file('a.txt')]);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Upload Files' }).disabled).toBe(true);
    expect(manager.uploadedFiles).toEqual([]);
  });

  it('shows the banner and does not upload without encryption', async () => {
    const locked = await createTestAppSession({ signedIn: true });
    const { input, manager } = renderPage(createFakeTransferManager(), locked);
    expect(
      screen.getByText(
        'Encryption is not initialized. Please set up your encryption keys before uploading files.',
      ),
    ).toBeTruthy();
    await user.upload(input(), [file('a.txt')]);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Upload Files' }).disabled).toBe(true);
    expect(manager.uploadedFiles).toEqual([]);
  });
});
