import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import type { UploadItem } from '@coffer/contracts';
import { generateFileKey, sealMetadata, wrapFileKey } from '@coffer/crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestAppSession, type TestAppSession } from '../../session/testing/test-session';
import {
  createFakeApi,
  createFakeTransferManager,
  findSnackbar,
  renderScreen,
} from '../../test/render-screen';
import { filesApi } from '../../lib/api/files';
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
