/**
 * Issue 13: my own file's download checks my signed manifest on the very metadata answer it uses.
 * A server that changes what I signed (here the name, or the wrapped key) gets the download refused
 * before any content is fetched; a genuine file downloads.
 */
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FileMetadata } from '@coffer/contracts';
import { generateFileKey, signFileManifest, wrapFileKey } from '@coffer/crypto';
import { createTestAppSession, testUser, type TestAppSession } from '../../session/testing/test-session';
import { createInProcessChunkCipher } from '../../lib/crypto-worker';
import { createTransferManager } from '../../lib/transfers';
import { MemorySink } from '../../lib/transfers/testing/memory-sink';
import { encryptForStorage } from '../../lib/transfers/testing/stored-file';
import { createFakeApi, fileItem, findSnackbar, renderScreen } from '../../test/render-screen';
import { MyFilesPage } from './MyFilesPage';

const CHUNK = 1024;
const CONTENT = new TextEncoder().encode('my own report '.repeat(150));
const item = fileItem('report.pdf', { contentType: 'application/pdf', size: CONTENT.length });

let session: TestAppSession;
let metadata: FileMetadata;
let blob: Uint8Array;

beforeAll(async () => {
  session = await createTestAppSession({ unlocked: true });
  const keys = session.encryption.requireKeys();
  if (keys.signingPrivateKey === undefined) throw new Error('the test session has no signing key');
  const stored = await encryptForStorage(CONTENT, keys.publicKey, CHUNK);
  const encryptionInfo = { ...stored.encryptionInfo, version: keys.keyVersion, chunkSize: CHUNK };
  const manifest = await signFileManifest(
    {
      ownerEmail: testUser.email ?? '',
      ownerKeyId: keys.keyVersion,
      ownerEncryptedFileKeyB64: encryptionInfo.encryptedFileKey,
      name: item.name,
      contentType: item.contentType,
      size: CONTENT.length,
      chunkSize: CHUNK,
    },
    keys.signingPrivateKey,
  );

  metadata = {
    fileId: item.fileId,
    name: item.name,
    originalFilename: item.name,
    contentType: item.contentType,
    size: CONTENT.length,
    isEncrypted: true,
    uploadedAt: item.uploadedAt,
    encryptionInfo,
    manifest,
  };
  blob = stored.ciphertext;
});

afterEach(() => {
  act(() => {
    notifications.clean();
  });
});

function serverAnswering(answer: () => FileMetadata) {
  const downloads: string[] = [];
  const api = createFakeApi({
    'GET /users/files?limit=500': () => ({ files: [item], count: 1 }),
    'GET /users/stats': () => ({}),
    [`GET /users/files/${item.fileId}/shares`]: () => ({ shares: [] }),
    [`GET /users/files/${item.fileId}`]: answer,
  });
  const fetchImpl = (url: string): Promise<Response> => {
    downloads.push(url);
    return Promise.resolve(new Response(blob.slice()));
  };
  const sink = new MemorySink();
  const manager = createTransferManager({
    getCipher: createInProcessChunkCipher,
    fetchImpl: fetchImpl as typeof fetch,
    openSink: () => Promise.resolve(sink),
    saveCapabilities: { fsAccess: false, serviceWorker: true },
    getSaveMethod: () => 'service-worker',
    testFormat: { chunkSize: CHUNK },
  });
  return { api, manager, sink, downloads };
}

async function clickDownload(server: ReturnType<typeof serverAnswering>): Promise<void> {
  renderScreen(<MyFilesPage />, { api: server.api, session, manager: server.manager });
  const card = await screen.findByRole('article', { name: 'report.pdf' });
  await userEvent
    .setup({ delay: null })
    .click(within(card).getByRole('button', { name: 'Download report.pdf' }));
}

describe('my own file’s download checks what I signed (issue 13)', () => {
  it('downloads a file whose metadata is what I signed', async () => {
    const server = serverAnswering(() => metadata);
    await clickDownload(server);
    expect(await findSnackbar('File downloaded successfully!', 'status', 10_000)).toBeTruthy();
    expect(new TextDecoder().decode(new Uint8Array(server.sink.chunks.flatMap((c) => [...c])))).toBe(
      new TextDecoder().decode(CONTENT),
    );
  });

  it('refuses a file the server renamed, before fetching any content', async () => {
    const server = serverAnswering(() => ({ ...metadata, name: 'invoice.pdf' }));
    await clickDownload(server);
    expect(
      await findSnackbar('Download failed: Changed after you signed it (name)', 'alert', 10_000),
    ).toBeTruthy();
    expect(server.downloads).toEqual([]);
  });

  it('refuses a file whose key the server swapped for one it chose', async () => {
    const keys = session.encryption.requireKeys();
    const swapped = await wrapFileKey(await generateFileKey(), keys.publicKey);
    const server = serverAnswering(() => ({
      ...metadata,
      encryptionInfo: metadata.encryptionInfo && { ...metadata.encryptionInfo, encryptedFileKey: swapped },
    }));
    await clickDownload(server);
    expect(
      await findSnackbar('Download failed: Changed after you signed it (key)', 'alert', 10_000),
    ).toBeTruthy();
    expect(server.downloads).toEqual([]);
  });
});
