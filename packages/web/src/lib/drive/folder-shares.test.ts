import type { Folder, SharedFolderItem } from '@coffer/contracts';
import {
  createDriveKey,
  exportPublicKeyB64,
  exportSigningPublicKeyB64,
  generateSigningKeyPair,
  generateUserKeyPair,
} from '@coffer/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../api/http';
import { createFolder } from './drive-changes';
import { openSharedFolder, openSharedFolderTree, shareFolder, type Recipient } from './folder-shares';
import { openDrive } from './drive-open';
import { folderFile } from './testing/folder-file';

const OWNER = 'owner@example.com';
const BOB = 'bob@example.com';

function must<T>(value: T | undefined | null): T {
  if (value === undefined || value === null) throw new Error('missing in the test');
  return value;
}

let driveKey: CryptoKey;
let signer: { ownerEmail: string; signingPrivateKey: CryptoKey };
let ownerSigningB64: string;
let otherSigner: { ownerEmail: string; signingPrivateKey: CryptoKey };
let bob: Recipient;

beforeAll(async () => {
  const ownerPair = await generateUserKeyPair();
  driveKey = (await createDriveKey([ownerPair.publicKey])).driveKey;
  const signing = await generateSigningKeyPair();
  signer = { ownerEmail: OWNER, signingPrivateKey: signing.privateKey };
  ownerSigningB64 = await exportSigningPublicKeyB64(signing.publicKey);
  otherSigner = { ownerEmail: OWNER, signingPrivateKey: (await generateSigningKeyPair()).privateKey };
  const bobPair = await generateUserKeyPair();
  bob = {
    email: BOB,
    keyId: 'bob-key-1',
    publicKeyB64: await exportPublicKeyB64(bobPair.publicKey),
    privateKey: bobPair.privateKey,
  };
});

/** Records what is posted; answers the folder create with the folder. */
function recordingApi(answers: Record<string, unknown> = {}) {
  const posted: { path: string; body: Record<string, unknown> }[] = [];
  const api = {
    request: (method: string, path: string, options?: { body?: unknown }) => {
      const body = (options?.body ?? {}) as Record<string, unknown>;
      if (method === 'POST') posted.push({ path, body });
      if (method === 'POST' && path === '/users/folders')
        return Promise.resolve({ ...body, createdAt: 'x', updatedAt: 'x' });
      if (path in answers) return Promise.resolve(answers[path]);
      return Promise.resolve({ ok: true });
    },
  } as unknown as ApiClient;
  return { api, posted };
}

async function sharedTeamFolder() {
  const { api, posted } = recordingApi();
  const team = await createFolder(api, { parent: { nodeId: null, key: driveKey }, name: 'Team' }, signer);
  const opened = await openDrive([], [team.folder], driveKey);
  const folder = must(opened.folders[0]);
  await shareFolder(
    api,
    folder,
    driveKey,
    { email: BOB, publicKeyB64: bob.publicKeyB64, keyId: bob.keyId },
    signer,
  );
  const share = must(posted.find((post) => post.path.endsWith('/shares'))).body;
  const item: SharedFolderItem = {
    nodeId: team.folder.nodeId,
    owner: OWNER,
    encryptedFolderKey: share.encryptedFolderKey as string,
    keyVersion: share.keyVersion as string,
    grantJson: share.grantJson as string,
    encryptedMetadata: team.folder.encryptedMetadata,
    nodeRecord: team.folder.nodeRecord,
    sharedAt: '2026-11-27T06:00:00.000Z',
  };
  return { team, item };
}

const fileUnder = (parent: { nodeId: string; key: CryptoKey }, name: string, by = signer) =>
  folderFile(parent, name, by);

describe('folder shares', () => {
  it('the recipient opens a shared folder after checking the grant with the owner’s key', async () => {
    const { item } = await sharedTeamFolder();
    const opened = await openSharedFolder(item, bob, ownerSigningB64);
    expect(opened.ok && opened.name).toBe('Team');
  });

  it('refuses a grant the owner did not sign, or one served to another key', async () => {
    const { item } = await sharedTeamFolder();
    const other = await exportSigningPublicKeyB64((await generateSigningKeyPair()).publicKey);
    expect((await openSharedFolder(item, bob, other)).ok).toBe(false);
    expect((await openSharedFolder(item, { ...bob, keyId: 'bob-key-2' }, ownerSigningB64)).ok).toBe(false);
    expect((await openSharedFolder(item, bob, undefined)).ok).toBe(false);
  });

  it('opens the tree below, files added later included; an injected or moved node is not opened', async () => {
    const { team, item } = await sharedTeamFolder();
    const opened = await openSharedFolder(item, bob, ownerSigningB64);
    if (!opened.ok) throw new Error(opened.problem);
    const teamParent = { nodeId: team.folder.nodeId, key: team.folderKey };
    const { api: subApi } = recordingApi();
    const sub = await createFolder(subApi, { parent: teamParent, name: 'Sub' }, signer);
    const later = await fileUnder({ nodeId: sub.folder.nodeId, key: sub.folderKey }, 'later.txt');
    // The server injects a file signed with another key (it cannot make one under the folder key
    // without it; here it even has the key: the record still gives it away).
    const injected = await fileUnder(teamParent, 'injected.txt', otherSigner);
    // The server moves a file of the folder to another place below it: its wrap and record name the old one.
    const moved = { ...(await fileUnder(teamParent, 'moved.txt')), parentNodeId: sub.folder.nodeId };
    const answer = {
      folder: team.folder,
      folders: [sub.folder] as Folder[],
      files: [later, injected, moved],
    };
    const { api } = recordingApi({ [`/users/folders/shared/${team.folder.nodeId}/nodes`]: answer });
    const tree = await openSharedFolderTree(
      api,
      { nodeId: item.nodeId, owner: OWNER, folderKey: opened.folderKey },
      ownerSigningB64,
    );
    const byName = (id: string) => must(tree.files.find((file) => file.fileId === id));
    expect(tree.folders.map((folder) => folder.name)).toEqual(['Sub']);
    expect(byName('f-later.txt')).toMatchObject({ name: 'later.txt', state: 'open' });
    expect(byName('f-later.txt').fileKey).toBeDefined();
    expect(byName('f-injected.txt').state).toBe('unreadable');
    expect(byName('f-injected.txt').fileKey).toBeUndefined();
    expect(byName('f-moved.txt').state).toBe('unreadable');
    expect(tree.records.get('f-injected.txt')).toBe('tampered');
  });
});
