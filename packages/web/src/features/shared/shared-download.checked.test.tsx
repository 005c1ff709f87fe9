/**
 * Issue 13: a shared file is downloaded with exactly the metadata its signature check accepted. The
 * fake server here plays a compromised one that answers the check genuinely, then swaps the file key
 * (and the content, encrypted under a key it chose) for every later request.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SharedFileItem, SharedFileMetadata } from '@coffer/contracts';
import { importPublicKeyB64, signFileManifest, signShareGrant, wrapFileKey } from '@coffer/crypto';
import { createTestAppSession, type TestAppSession } from '../../session/testing/test-session';
import { createInProcessChunkCipher } from '../../lib/crypto-worker';
import { createTransferManager, type TransferManager } from '../../lib/transfers';
import { MemorySink } from '../../lib/transfers/testing/memory-sink';
import { encryptForStorage } from '../../lib/transfers/testing/stored-file';
import { makeTrustIdentity, servedKeyOf, type TrustIdentity } from '../../lib/trust/testing/trust-identities';
import { FilesReceivedPage } from '../share/FilesReceivedPage';
import { createFakeApi, findSnackbar, renderScreen, testUser } from '../../test/render-screen';
import { SharedWithMePage } from './SharedWithMePage';

const CHUNK = 1024;
const FILE_ID = 'file-42';
const NAME = 'contract.pdf';
const GENUINE = new TextEncoder().encode('the contract Alice signed '.repeat(100));
const INJECTED = new TextEncoder().encode('the server’s own document '.repeat(100));

let session: TestAppSession;
let alice: TrustIdentity;
/** What Alice really shared: signed, with a key copy for me, and its content. */
let genuine: { metadata: SharedFileMetadata; blob: Uint8Array };
/** What the server swaps in after the check: a key it chose, wrapped to me, and its own content. */
let injected: { metadata: SharedFileMetadata; blob: Uint8Array };

beforeAll(async () => {
  session = await createTestAppSession({ unlocked: true });
  alice = await makeTrustIdentity('alice@example.com');
  const me = session.encryption.requireKeys();
  const stored = await encryptForStorage(GENUINE, me.publicKey, CHUNK);
  const ownerCopy = await wrapFileKey(stored.fileKey, await importPublicKeyB64(alice.publicKeyB64));
  const manifest = await signFileManifest(
    {
      ownerEmail: alice.email,
      ownerKeyId: alice.keyId,
      ownerEncryptedFileKeyB64: ownerCopy,
      name: NAME,
      contentType: 'application/pdf',
      size: GENUINE.length,
      chunkSize: CHUNK,
    },
    alice.signingPrivateKey,
  );
  const file = {
    fileId: FILE_ID,
    name: NAME,
    originalFilename: NAME,
    contentType: 'application/pdf',
    size: GENUINE.length,
    isEncrypted: true,
    uploadedAt: '2026-01-02T03:04:05.000Z',
    encryptionInfo: { ...stored.encryptionInfo, version: alice.keyId, encryptedFileKey: ownerCopy },
    manifest,
  };
  const shareGrant = await signShareGrant(
    {
      fileId: FILE_ID,
      ownerEmail: alice.email,
      recipientEmail: testUser.email ?? '',
      recipientKeyId: me.keyVersion,
      recipientPublicKeyB64: me.publicKeyB64,
      encryptedFileKeyB64: stored.encryptionInfo.encryptedFileKey,
      manifestJson: manifest,
    },
    alice.signingPrivateKey,
  );
  genuine = {
    metadata: {
      file,
      owner: alice.email,
      encryptedFileKey: stored.encryptionInfo.encryptedFileKey,
      shareGrant,
    },
    blob: stored.ciphertext,
  };
  const forged = await encryptForStorage(INJECTED, me.publicKey, CHUNK);
  injected = {
    metadata: {
      ...genuine.metadata,
      file: { ...file, size: INJECTED.length },
      encryptedFileKey: forged.encryptionInfo.encryptedFileKey,
    },
    blob: forged.ciphertext,
  };
});

afterEach(() => {
  act(() => {
    notifications.clean();
  });
});

const listItem = (): SharedFileItem => ({
  fileId: FILE_ID,
  owner: alice.email,
  file: {
    name: NAME,
    contentType: 'application/pdf',
    size: GENUINE.length,
    uploadedAt: '2026-01-02T03:04:05.000Z',
    isEncrypted: true,
  },
});

/**
 * The compromised server: the first metadata answer is genuine, every later one is its own. Its
 * content is its own too, unless `keepContent` (then only the metadata is swapped).
 */
function compromisedServer() {
  let metadataAnswers = 0;
  /** How many metadata answers had been given when the content was first asked for. */
  let metadataAnswersAtDownload: number | undefined;
  let swapContent = true;
  const api = createFakeApi({
    'GET /users/files/shared?limit=500': () => ({ files: [listItem()] }),
    [`GET /users/files/shared/${FILE_ID}`]: () => {
      metadataAnswers += 1;
      return metadataAnswers === 1 ? genuine.metadata : injected.metadata;
    },
    [`GET /users/keys/public/${encodeURIComponent(alice.email)}`]: () => servedKeyOf(alice),
  });
  const fetchImpl = (url: string): Promise<Response> => {
    if (!url.endsWith(`/users/files/shared/${FILE_ID}/download`)) {
      return Promise.resolve(new Response('not found', { status: 404 }));
    }
    metadataAnswersAtDownload ??= metadataAnswers;
    const blob = swapContent ? injected.blob : genuine.blob;
    return Promise.resolve(new Response(blob.slice()));
  };
  return {
    api,
    fetchImpl: fetchImpl as typeof fetch,
    metadataAnswers: () => metadataAnswers,
    metadataAnswersAtDownload: () => metadataAnswersAtDownload,
    keepContent: () => {
      swapContent = false;
    },
  };
}

function managerFor(server: ReturnType<typeof compromisedServer>, sink: MemorySink): TransferManager {
  return createTransferManager({
    getCipher: createInProcessChunkCipher,
    fetchImpl: server.fetchImpl,
    openSink: () => Promise.resolve(sink),
    saveCapabilities: { fsAccess: false, serviceWorker: true },
    getSaveMethod: () => 'service-worker',
    testFormat: { chunkSize: CHUNK },
  });
}

const plaintext = (sink: MemorySink) =>
  new TextDecoder().decode(new Uint8Array(sink.chunks.flatMap((c) => [...c])));

describe('a shared file downloads with the metadata that was checked (issue 13)', () => {
  it('Shared With Me: a key swapped after the check is never used; the swapped content fails', async () => {
    const server = compromisedServer();
    const sink = new MemorySink();
    const manager = managerFor(server, sink);
    renderScreen(<SharedWithMePage />, { api: server.api, session, manager });
    const card = await screen.findByRole('article', { name: NAME });
    expect(await within(card).findByText(`Signed by ${alice.email}`)).toBeTruthy();
    await userEvent
      .setup({ delay: null })
      .click(within(card).getByRole('button', { name: `Download ${NAME}` }));

    expect(await findSnackbar('Download failed', 'alert', 10_000)).toBeTruthy();
    // The server was asked for the metadata once (by the check) before the content: the download used
    // that answer. (A failed download refreshes the list afterwards, which checks the file again.)
    expect(server.metadataAnswersAtDownload()).toBe(1);
    // The server's own content did not pass as Alice's file: nothing was saved as complete.
    expect(sink.state).toBe('aborted');
    expect(plaintext(sink)).not.toContain('server’s own');
  });

  it('/share/{id}: the file Alice signed is what is saved, whatever the server answers later', async () => {
    const server = compromisedServer();
    server.keepContent();
    const sink = new MemorySink();
    const manager = managerFor(server, sink);
    renderScreen(<FilesReceivedPage />, {
      api: server.api,
      session,
      manager,
      route: '/share/:id',
      path: `/share/${FILE_ID}`,
    });
    const card = await screen.findByRole('article', { name: NAME });
    expect(await within(card).findByText(`Signed by ${alice.email}`)).toBeTruthy();
    await userEvent.setup({ delay: null }).click(within(card).getByRole('button', { name: 'Download' }));

    expect(await findSnackbar('File downloaded successfully!', 'status', 10_000)).toBeTruthy();
    await waitFor(() => {
      expect(sink.state).toBe('closed');
    });
    expect(server.metadataAnswers()).toBe(1);
    expect(plaintext(sink)).toBe(new TextDecoder().decode(GENUINE));
  });
});
