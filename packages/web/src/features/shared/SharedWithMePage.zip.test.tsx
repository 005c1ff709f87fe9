/**
 * Issue 31: files shared with me, selected in Shared With Me's own list, download as one ZIP. Each
 * file first passes the signature check its single download needs (issue 13), with the answer the
 * check judged; a file whose grant does not verify is left out and named.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CHUNK_SIZE,
  type Folder,
  type SharedFileItem,
  type SharedFileMetadata,
  type SharedFolderFile,
} from '@coffer/contracts';
import {
  createDriveKey,
  exportSigningPublicKeyB64,
  generateSigningKeyPair,
  generateUserKeyPair,
  importPublicKeyB64,
  signFileManifest,
  signShareGrant,
  wrapFileKey,
} from '@coffer/crypto';
import type { ApiClient } from '../../lib/api/http';
import { createFolder } from '../../lib/drive';
import { folderFile, openedSharedFolder } from '../../lib/drive/testing/folder-file';
import { createTestAppSession, type TestAppSession } from '../../session/testing/test-session';
import { encryptForStorage } from '../../lib/transfers/testing/stored-file';
import { makeTrustIdentity, servedKeyOf, type TrustIdentity } from '../../lib/trust/testing/trust-identities';
import type { ZipRun } from '../../ui/use-zip-run';
import { createFakeApi, findSnackbar, renderScreen, testUser } from '../../test/render-screen';
import { SharedWithMePage } from './SharedWithMePage';
import type { ReceivedFolder } from './use-shared-folders';

// The ZIP layer is faked: the test sees the one run the page starts, with its files.
const zipRuns = vi.hoisted(() => [] as ZipRun[]);
vi.mock('../../ui/use-zip-run', () => ({
  useZipRun: () => ({
    running: null,
    run: (zip: ZipRun) => {
      zipRuns.push(zip);
    },
  }),
}));

// The folders shared with me, as their list (already opened and checked) gives them.
const received = vi.hoisted(() => ({ folders: [] as unknown[] }));
vi.mock('./use-shared-folders', async (importOriginal) => {
  const actual: object = await importOriginal();
  return {
    ...actual,
    useSharedFolders: () => ({ data: received.folders, isPending: false }),
  };
});

const UPLOADED = '2026-01-02T03:04:05.000Z';

let session: TestAppSession;
let alice: TrustIdentity;
let mallory: TrustIdentity;
const shares = new Map<string, SharedFileMetadata>();

/** A file Alice shared with me, signed by `signer` (Alice, unless the grant is forged). */
async function share(fileId: string, name: string, signer: TrustIdentity): Promise<void> {
  const me = session.encryption.requireKeys();
  const content = new TextEncoder().encode(`the content of ${name}`);
  const stored = await encryptForStorage(content, me.publicKey, CHUNK_SIZE);
  const ownerCopy = await wrapFileKey(stored.fileKey, await importPublicKeyB64(alice.publicKeyB64));
  const manifest = await signFileManifest(
    {
      ownerEmail: alice.email,
      ownerKeyId: alice.keyId,
      ownerEncryptedFileKeyB64: ownerCopy,
      name,
      contentType: 'application/octet-stream',
      size: content.length,
      chunkSize: CHUNK_SIZE,
    },
    signer.signingPrivateKey,
  );
  const shareGrant = await signShareGrant(
    {
      fileId,
      ownerEmail: alice.email,
      recipientEmail: testUser.email ?? '',
      recipientKeyId: me.keyVersion,
      recipientPublicKeyB64: me.publicKeyB64,
      encryptedFileKeyB64: stored.encryptionInfo.encryptedFileKey,
      manifestJson: manifest,
    },
    signer.signingPrivateKey,
  );
  shares.set(fileId, {
    file: {
      fileId,
      name,
      originalFilename: name,
      contentType: 'application/octet-stream',
      size: content.length,
      isEncrypted: true,
      uploadedAt: UPLOADED,
      encryptionInfo: { ...stored.encryptionInfo, version: alice.keyId, encryptedFileKey: ownerCopy },
      manifest,
    },
    owner: alice.email,
    encryptedFileKey: stored.encryptionInfo.encryptedFileKey,
    shareGrant,
  });
}

beforeAll(async () => {
  session = await createTestAppSession({ unlocked: true });
  alice = await makeTrustIdentity('alice@example.com');
  mallory = await makeTrustIdentity('mallory@example.com');
  await share('file-report', 'report.pdf', alice);
  await share('file-notes', 'notes.txt', alice);
  // The server's own share, passed off as Alice's: its grant is not signed by her key.
  await share('file-forged', 'forged.doc', mallory);
  // A share from before signatures: its single download asks first, so the ZIP leaves it out.
  const old = shares.get('file-notes');
  if (old === undefined) throw new Error('no notes');
  shares.set('file-old', {
    file: {
      ...old.file,
      manifest: undefined,
      fileId: 'file-old',
      name: 'old.txt',
      originalFilename: 'old.txt',
    },
    owner: old.owner,
    encryptedFileKey: old.encryptedFileKey,
  });
});

beforeEach(() => {
  zipRuns.length = 0;
  received.folders = [];
});

afterEach(() => {
  act(() => {
    notifications.clean();
  });
});

const listItem = (metadata: SharedFileMetadata): SharedFileItem => ({
  fileId: metadata.file.fileId,
  owner: metadata.owner,
  file: {
    name: metadata.file.name,
    contentType: metadata.file.contentType,
    size: metadata.file.size,
    uploadedAt: UPLOADED,
    isEncrypted: true,
  },
});

function server(extra: Parameters<typeof createFakeApi>[0] = {}) {
  const routes: Parameters<typeof createFakeApi>[0] = {
    ...extra,
    'GET /users/files/shared?limit=500': () => ({ files: [...shares.values()].map(listItem) }),
    [`GET /users/keys/public/${encodeURIComponent(alice.email)}`]: () => servedKeyOf(alice),
  };
  for (const [fileId, metadata] of shares) routes[`GET /users/files/shared/${fileId}`] = () => metadata;
  return createFakeApi(routes);
}

/** Renders the page and waits until every card's check has given its verdict. */
async function openPage(extra: Parameters<typeof createFakeApi>[0] = {}) {
  const api = server(extra);
  renderScreen(<SharedWithMePage />, { api, session });
  for (const name of ['report.pdf', 'notes.txt']) {
    const card = await screen.findByRole('article', { name });
    expect(await within(card).findByText(`Signed by ${alice.email}`)).toBeTruthy();
  }
  const forged = await screen.findByRole('article', { name: 'forged.doc' });
  expect(await within(forged).findByText(/Not signed by/)).toBeTruthy();
  return api;
}

describe('Shared With Me: a selection as one ZIP (issue 31)', () => {
  it('downloads two selected shared files in one ZIP run, with the checked answers', async () => {
    const api = await openPage();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Select' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select report.pdf' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select notes.txt' }));
    await user.click(screen.getByRole('button', { name: 'Download ZIP' }));

    await waitFor(() => {
      expect(zipRuns).toHaveLength(1);
    });
    const [run] = zipRuns;
    expect(run?.name).toBe('Shared with me.zip');
    expect(run?.files.map((file) => file.path).sort()).toEqual([['notes.txt'], ['report.pdf']]);
    const jobs = await Promise.all((run?.files ?? []).map((file) => file.job()));
    expect(jobs.map((job) => job.downloadPath).sort()).toEqual([
      '/users/files/shared/file-notes/download',
      '/users/files/shared/file-report/download',
    ]);
    for (const job of jobs) expect(job.fileKey).toBeInstanceOf(CryptoKey);
    // The checks' own answers, not fresh ones: each file's metadata was asked for once (by its card).
    expect(api.callsTo('GET /users/files/shared/file-report')).toHaveLength(1);
    expect(api.callsTo('GET /users/files/shared/file-notes')).toHaveLength(1);
  });

  it('leaves out a file whose grant does not verify, and names it', async () => {
    await openPage();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Select' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select report.pdf' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select forged.doc' }));
    await user.click(screen.getByRole('button', { name: 'Download ZIP' }));

    expect(
      await findSnackbar('Could not download 1 of 2 items: “forged.doc”. It stays selected.', 'alert'),
    ).toBeTruthy();
    await waitFor(() => {
      expect(zipRuns).toHaveLength(1);
    });
    expect(zipRuns[0]?.files.map((file) => file.path)).toEqual([['report.pdf']]);
  });

  it('leaves out an unsigned share (its own download asks first), and names it', async () => {
    await openPage();
    const old = await screen.findByRole('article', { name: 'old.txt' });
    expect(await within(old).findByText(/Unsigned/)).toBeTruthy();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Select' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select old.txt' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select notes.txt' }));
    await user.click(screen.getByRole('button', { name: 'Download ZIP' }));
    expect(
      await findSnackbar('Could not download 1 of 2 items: “old.txt”. It stays selected.', 'alert'),
    ).toBeTruthy();
    await waitFor(() => {
      expect(zipRuns).toHaveLength(1);
    });
    expect(zipRuns[0]?.files.map((file) => file.path)).toEqual([['notes.txt']]);
  });

  it('starts no ZIP when every selected file is refused', async () => {
    await openPage();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Select' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select forged.doc' }));
    await user.click(screen.getByRole('button', { name: 'Download ZIP' }));
    expect(
      await findSnackbar('Could not download 1 of 1 item: “forged.doc”. It stays selected.', 'alert'),
    ).toBeTruthy();
    expect(zipRuns).toHaveLength(0);
  });

  it('puts a selected shared folder in with its whole tree, through the folder share', async () => {
    const pair = await generateUserKeyPair();
    const driveKey = (await createDriveKey([pair.publicKey])).driveKey;
    const signing = await generateSigningKeyPair();
    const owner = { ownerEmail: alice.email, signingPrivateKey: signing.privateKey };
    // A node the server signed itself: not opened, so not in the archive.
    const forger = {
      ownerEmail: alice.email,
      signingPrivateKey: (await generateSigningKeyPair()).privateKey,
    };
    const creating = {
      request: (_method: string, _path: string, options?: { body?: unknown }) =>
        Promise.resolve({ ...(options?.body as object), createdAt: 'x', updatedAt: 'x' }),
    } as unknown as ApiClient;
    const team = await createFolder(
      creating,
      { parent: { nodeId: null, key: driveKey }, name: 'Team' },
      owner,
    );
    const inTeam = { nodeId: team.folder.nodeId, key: team.folderKey };
    const minutes: SharedFolderFile = await folderFile(inTeam, 'minutes.txt', owner);
    const injected: SharedFolderFile = await folderFile(inTeam, 'injected.txt', forger);
    const folder: ReceivedFolder = openedSharedFolder(
      team.folder,
      team.folderKey,
      alice.email,
      await exportSigningPublicKeyB64(signing.publicKey),
    );
    received.folders = [folder];
    await openPage({
      [`GET /users/folders/shared/${team.folder.nodeId}/nodes`]: () => ({
        folder: team.folder,
        folders: [] as Folder[],
        files: [minutes, injected],
      }),
    });
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Select' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Team' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select notes.txt' }));
    await user.click(screen.getByRole('button', { name: 'Download ZIP' }));

    await waitFor(() => {
      expect(zipRuns).toHaveLength(1);
    });
    const [run] = zipRuns;
    expect(run?.directories).toEqual([['Team']]);
    expect(run?.files.map((file) => file.path)).toEqual([['Team', 'minutes.txt'], ['notes.txt']]);
    const jobs = await Promise.all((run?.files ?? []).map((file) => file.job()));
    expect(jobs.map((job) => job.downloadPath)).toEqual([
      `/users/folders/shared/${team.folder.nodeId}/files/f-minutes.txt/download`,
      '/users/files/shared/file-notes/download',
    ]);
  });
});
