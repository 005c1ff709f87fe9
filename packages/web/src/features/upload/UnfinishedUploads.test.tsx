import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import type { UploadItem } from '@coffer/contracts';
import { generateFileKey, sealMetadata, wrapFileKey } from '@coffer/crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestAppSession, type TestAppSession } from '../../session/testing/test-session';
import {
  appQueryClient,
  createFakeApi,
  createFakeTransferManager,
  findSnackbar,
  renderScreen,
} from '../../test/render-screen';
import { filesApi } from '../../lib/api/files';
import { fileQueryKeys } from '../../lib/files/query-keys';
import { NewUploadPage } from './NewUploadPage';
import { ageText, unfinishedUploads } from './use-unfinished-uploads';

const GiB = 1024 ** 3;
const item = (overrides: Partial<UploadItem>): UploadItem => ({
  uploadId: 'u1',
  fileName: 'holiday.mp4',
  contentType: 'video/mp4',
  isEncrypted: true,
  size: 2 * GiB,
  createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
  userId: 'me',
  status: 'pending',
  parts: 22,
  completedParts: 3,
  encryptionInfo: { version: 'k1', algorithm: 'AES-GCM', iv: '', encryptedFileKey: 'a2V5' },
  objectKey: 'u/me/u1',
  ...overrides,
});

let session: TestAppSession;
beforeAll(async () => {
  session = await createTestAppSession({ unlocked: true });
});
afterEach(() => {
  act(() => {
    notifications.clean();
  });
});

/** My upload of `name`, sealed (issue 31) and listed by the server as 'encrypted'. */
async function sealedUpload(
  uploadId: string,
  name: string,
  nodeId: string,
  sealedFor = nodeId,
  overrides: Partial<UploadItem> = {},
): Promise<UploadItem> {
  const keys = session.encryption.requireKeys();
  const fileKey = await generateFileKey();
  return item({
    uploadId,
    fileName: 'encrypted',
    contentType: 'application/octet-stream',
    nodeId,
    parentNodeId: null,
    encryptedMetadata: await sealMetadata(fileKey, sealedFor, { name, contentType: 'video/mp4' }),
    encryptionInfo: {
      version: keys.keyVersion,
      algorithm: 'AES-GCM',
      iv: '',
      encryptedFileKey: await wrapFileKey(fileKey, keys.publicKey),
    },
    ...overrides,
  });
}

describe('unfinished uploads on the upload screen', () => {
  it('lists pending large uploads with their age, and cancels one on the server', async () => {
    let uploads = [
      item({}),
      item({ uploadId: 'done', status: 'complete' }),
      item({ uploadId: 'small', size: 1000, parts: 1 }),
    ];
    const api = createFakeApi({
      'GET /users/stats': () => ({ subscription: { limits: { maxConcurrentUploads: 1 } } }),
      'GET /users/uploads?limit=20': () => ({ uploads, count: uploads.length }),
      'DELETE /users/uploads/multipart/u1': () => {
        uploads = uploads.map((u) => (u.uploadId === 'u1' ? { ...u, status: 'aborted' } : u));
        return { ok: true };
      },
    });
    renderScreen(<NewUploadPage />, { api, session, manager: createFakeTransferManager() });

    const entry = await screen.findByRole('listitem', { name: 'Unfinished upload holiday.mp4' });
    expect(within(entry).getByText(/started 5 minutes ago/)).toBeTruthy();
    expect(within(entry).getByText(/3 of 22 parts/)).toBeTruthy();
    expect(screen.queryAllByRole('listitem', { name: /Unfinished upload/ })).toHaveLength(1);

    await userEvent.setup().click(within(entry).getByRole('button', { name: 'Cancel' }));
    expect(await findSnackbar('Upload cancelled', 'status')).toBeTruthy();
    await waitFor(() => {
      expect(screen.queryByRole('region', { name: 'Unfinished uploads' })).toBeNull();
    });
    expect(api.callsTo('DELETE /users/uploads/multipart/u1')).toHaveLength(1);
  });

  it('opens the sealed name of an upload another browser started (listed as encrypted)', async () => {
    const uploads = [
      await sealedUpload('u-tax', 'tax-return\u202E.mp4', crypto.randomUUID()),
      // Metadata of another node served with this one: it does not open, the server's word stays.
      await sealedUpload('u-swapped', 'swapped.mp4', crypto.randomUUID(), crypto.randomUUID()),
    ];
    const api = createFakeApi({
      'GET /users/stats': () => ({ subscription: { limits: { maxConcurrentUploads: 1 } } }),
      'GET /users/uploads?limit=20': () => ({ uploads, count: uploads.length }),
    });
    renderScreen(<NewUploadPage />, { api, session, manager: createFakeTransferManager() });

    // Opened and sanitized (the bidi override removed).
    expect(await screen.findByRole('listitem', { name: 'Unfinished upload tax-return.mp4' })).toBeTruthy();
    expect(screen.getByRole('listitem', { name: 'Unfinished upload encrypted' })).toBeTruthy();
  });

  it('Recent uploads opens the sealed name of a finished upload another browser sent', async () => {
    const uploads = [
      await sealedUpload('u-done', 'minutes-2026.mp4', crypto.randomUUID(), undefined, {
        status: 'complete',
        completedParts: 22,
      }),
    ];
    const api = createFakeApi({
      'GET /users/stats': () => ({ subscription: { limits: { maxConcurrentUploads: 1 } } }),
      'GET /users/uploads?limit=20': () => ({ uploads, count: uploads.length }),
    });
    renderScreen(<NewUploadPage />, { api, session, manager: createFakeTransferManager() });

    const recent = await screen.findByRole('region', { name: 'Recent uploads' });
    expect(await within(recent).findByText('minutes-2026.mp4')).toBeTruthy();
    expect(within(recent).queryByText('encrypted')).toBeNull();
  });

  it('keeps only pending multipart uploads and words their age', () => {
    expect(unfinishedUploads([item({}), item({ status: 'aborted' }), item({ size: 10 })])).toHaveLength(1);
    const now = Date.parse('2026-01-02T00:00:00Z');
    expect(ageText('2026-01-01T23:59:30Z', now)).toBe('started less than a minute ago');
    expect(ageText('2026-01-01T23:00:00Z', now)).toBe('started 1 hour ago');
    expect(ageText('2025-12-28T00:00:00Z', now)).toBe('started 5 days ago');
  });
});

describe('file lists', () => {
  it('follow nextCursor page by page until the last page', async () => {
    const file = (id: string) => ({ fileId: id });
    const api = createFakeApi({
      'GET /users/files?limit=500': () => ({ files: [file('a'), file('b')], count: 2, nextCursor: 'c1' }),
      'GET /users/files?limit=500&cursor=c1': () => ({ files: [file('c')], count: 1 }),
    });
    const list = await filesApi.list(api);
    expect(list).toEqual({ files: [file('a'), file('b'), file('c')], count: 3 });
  });
});

describe('an upload of this page, cancelled', () => {
  // CI (session 24): the manager marks a cancelled upload aborted at once and settles it once the
  // server-side abort has ended. In between the page was no longer busy, so the unfinished uploads
  // showed the list of uploads (loaded again while the batch ran), where the upload was still
  // pending, and offered it as one to resume or cancel; nothing loaded that list after the abort.
  it('is not offered as unfinished while its server-side abort runs', async () => {
    let uploads: UploadItem[] = [];
    const api = createFakeApi({
      'GET /users/stats': () => ({ subscription: { limits: { maxConcurrentUploads: 1 } } }),
      'GET /users/uploads?limit=20': () => ({ uploads, count: uploads.length }),
    });
    const manager = createFakeTransferManager();
    const queryClient = appQueryClient();
    const { container } = renderScreen(<NewUploadPage />, { api, session, manager, queryClient });
    await waitFor(() => {
      expect(api.callsTo('GET /users/uploads?limit=20').length).toBeGreaterThan(0);
    });
    const input = container.querySelector<HTMLInputElement>('input[type="file"]');
    if (input === null) throw new Error('no file input');
    const user = userEvent.setup({ delay: null, applyAccept: false });
    await user.upload(input, [new File([new Uint8Array(5)], 'holiday.mp4', { type: 'video/mp4' })]);
    await user.click(screen.getByRole('button', { name: 'Upload Files' }));
    const [running] = manager.getSnapshot().uploads;
    if (running === undefined) throw new Error('upload not started');
    // The server has it as a pending multipart upload while it runs; the page's list of uploads grows
    // old meanwhile (here: marked for a new load, as after 30 s).
    uploads = [item({ createdAt: new Date().toISOString() })];
    await act(() => queryClient.invalidateQueries({ queryKey: fileQueryKeys.uploads }));

    // Cancelled: aborted at once, the server-side abort still running.
    act(() => {
      manager.update(running.id, { status: 'aborted' });
    });
    await waitFor(() => {
      expect(queryClient.isFetching()).toBe(0);
    });
    expect(screen.queryByRole('region', { name: 'Unfinished uploads' })).toBeNull();
    // Its row removed meanwhile: the abort still runs, so it is still not offered.
    await user.click(screen.getByRole('button', { name: 'Remove holiday.mp4' }));
    await waitFor(() => {
      expect(queryClient.isFetching()).toBe(0);
    });
    expect(screen.queryByRole('region', { name: 'Unfinished uploads' })).toBeNull();

    // The abort ends: the server no longer lists it as pending, and the list loads again.
    uploads = [item({ createdAt: new Date().toISOString(), status: 'aborted' })];
    const loadsBefore = api.callsTo('GET /users/uploads?limit=20').length;
    act(() => {
      manager.finish(running.id, 'aborted');
    });
    await waitFor(() => {
      expect(api.callsTo('GET /users/uploads?limit=20').length).toBeGreaterThan(loadsBefore);
    });
    await waitFor(() => {
      expect(queryClient.isFetching()).toBe(0);
    });
    expect(screen.queryByRole('region', { name: 'Unfinished uploads' })).toBeNull();
    expect(screen.queryAllByRole('listitem', { name: /holiday\.mp4/ })).toHaveLength(0);
  });
});
