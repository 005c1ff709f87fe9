import { screen, waitFor, within } from '@testing-library/react';
import type { Folder } from '@coffer/contracts';
import {
  createDriveKey,
  exportSigningPublicKeyB64,
  generateSigningKeyPair,
  generateUserKeyPair,
} from '@coffer/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../lib/api/http';
import { createFolder } from '../../lib/drive';
import { folderFile, openedSharedFolder } from '../../lib/drive/testing/folder-file';
import { createFakeApi, renderScreen } from '../../test/render-screen';
import { SharedFolderView } from './SharedFolderView';
import type { ReceivedFolder } from './use-shared-folders';

const OWNER = 'owner@example.com';

let driveKey: CryptoKey;
let owner: { ownerEmail: string; signingPrivateKey: CryptoKey };
let ownerSigningB64: string;
let server: { ownerEmail: string; signingPrivateKey: CryptoKey };

beforeAll(async () => {
  const pair = await generateUserKeyPair();
  driveKey = (await createDriveKey([pair.publicKey])).driveKey;
  const signing = await generateSigningKeyPair();
  owner = { ownerEmail: OWNER, signingPrivateKey: signing.privateKey };
  ownerSigningB64 = await exportSigningPublicKeyB64(signing.publicKey);
  // A key the server holds: it can sign records, but not with the owner's key.
  server = { ownerEmail: OWNER, signingPrivateKey: (await generateSigningKeyPair()).privateKey };
});

/** Answers the folder create as the server stores it. */
const creatingApi = {
  request: (_method: string, _path: string, options?: { body?: unknown }) =>
    Promise.resolve({ ...(options?.body as object), createdAt: 'x', updatedAt: 'x' }),
} as unknown as ApiClient;

const fileUnder = (parent: { nodeId: string; key: CryptoKey }, name: string, by = owner) =>
  folderFile(parent, name, by);

const cardOf = (title: string): HTMLElement => {
  const card = screen.getByText(title).closest('article');
  if (card === null) throw new Error(`no card for ${title}`);
  return card;
};

describe('a shared folder the server tampers with (issue 31, point 6)', () => {
  it('shows an injected file and one moved in from elsewhere as not opened, and opens the genuine one', async () => {
    const top = { nodeId: null, key: driveKey };
    const team = await createFolder(creatingApi, { parent: top, name: 'Team' }, owner);
    const teamParent = { nodeId: team.folder.nodeId, key: team.folderKey };
    const genuine = await fileUnder(teamParent, 'minutes.txt');
    // Injected: a node under the folder key (as if the server had it) with a record of another key.
    const injected = await fileUnder(teamParent, 'injected.txt', server);
    // Moved in: a genuine file of the owner's from the top of My Files, served inside the folder.
    const elsewhere = await fileUnder({ nodeId: 'drive', key: driveKey }, 'private.txt');
    const movedIn = { ...elsewhere, parentNodeId: team.folder.nodeId };

    const folder: ReceivedFolder = openedSharedFolder(team.folder, team.folderKey, OWNER, ownerSigningB64);
    const api = createFakeApi({
      [`GET /users/folders/shared/${team.folder.nodeId}/nodes`]: () => ({
        folder: team.folder,
        folders: [] as Folder[],
        files: [genuine, injected, movedIn],
      }),
    });
    renderScreen(<SharedFolderView folder={folder} inside={null} />, { api });

    const list = await screen.findByRole('list', { name: 'Shared folder contents' });
    await waitFor(() => {
      expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    });
    expect(within(cardOf('minutes.txt')).queryByTestId('node-refused')).toBeNull();
    const refused = within(list).getAllByTestId('node-refused');
    expect(refused).toHaveLength(2);
    expect(refused.map((text) => text.textContent)).toEqual([
      expect.stringMatching(/^Not opened: /),
      expect.stringMatching(/^Not opened: /),
    ]);
    // The moved file's key does not open at its new place, so its name never opens.
    expect(screen.queryByText('private.txt')).toBeNull();
  });
});
