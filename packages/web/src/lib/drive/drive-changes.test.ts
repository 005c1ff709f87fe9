import type { FileListItem, FileMetadata, Folder } from '@coffer/contracts';
import {
  buildOwnerEncryptionInfo,
  createDriveKey,
  exportPublicKeyB64,
  exportSigningPublicKeyB64,
  generateFileKey,
  generateSigningKeyPair,
  generateUserKeyPair,
  rewrapFileKey,
  signShareGrant,
  verifyShareGrant,
  wrapFileKey,
} from '@coffer/crypto';
import { checkOwnFile } from '../trust/signed-files';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../api/http';
import { changeFile, createFolder, folderNameProblem, moveFolder, renameFolder } from './drive-changes';
import { folderPath, foldersBelow, nodeParent } from './drive-paths';
import { checkNodeRecords } from './drive-records';
import { openDrive } from './drive-open';
import { fileNodeFor, sealedUploadNode } from './file-node';

const EMAIL = 'alice@example.com';

function must<T>(value: T | undefined | null): T {
  if (value === undefined || value === null) throw new Error('missing in the test');
  return value;
}
let driveKey: CryptoKey;
let signer: { ownerEmail: string; signingPrivateKey: CryptoKey; signingPublicKeyB64?: string };
let signingPublicKeyB64: string;
let pair: CryptoKeyPair;

beforeAll(async () => {
  pair = await generateUserKeyPair();
  driveKey = (await createDriveKey([pair.publicKey])).driveKey;
  const signing = await generateSigningKeyPair();
  signer = { ownerEmail: EMAIL, signingPrivateKey: signing.privateKey };
  signingPublicKeyB64 = await exportSigningPublicKeyB64(signing.publicKey);
});

/** A server in memory: folders and files by id, as the API stores what it is sent. */
function fakeServer() {
  const folders = new Map<string, Folder>();
  const files = new Map<string, FileListItem>();
  const calls: string[] = [];
  const api = {
    request: (method: string, path: string, options?: { body?: unknown }) => {
      calls.push(`${method} ${path}`);
      const body = options?.body as Record<string, unknown> | undefined;
      const now = '2026-11-27T06:00:00.000Z';
      if (method === 'POST' && path === '/users/folders') {
        const folder = { ...(body as unknown as Folder), createdAt: now, updatedAt: now };
        folders.set(folder.nodeId, folder);
        return Promise.resolve(folder);
      }
      const patch = /^\/users\/folders\/([^/]+)$/.exec(path);
      if (method === 'PATCH' && patch?.[1] !== undefined) {
        const folder = { ...must(folders.get(patch[1])), ...(body as Partial<Folder>), updatedAt: now };
        folders.set(folder.nodeId, folder);
        return Promise.resolve(folder);
      }
      const fileGet = /^\/users\/files\/([^/]+)$/.exec(path);
      if (method === 'GET' && fileGet?.[1] !== undefined) return Promise.resolve(files.get(fileGet[1]));
      const node = /^\/users\/files\/([^/]+)\/node$/.exec(path);
      if (method === 'PUT' && node?.[1] !== undefined) {
        files.set(node[1], { ...must(files.get(node[1])), ...(body as Partial<FileListItem>) });
        return Promise.resolve({ ok: true });
      }
      return Promise.reject(new Error(`unexpected ${method} ${path}`));
    },
  } as unknown as ApiClient;
  return { api, folders, files, calls };
}

describe('folder changes', () => {
  it('checks names: not empty, no / or \\, at most 255 characters', () => {
    expect(folderNameProblem('  ')).not.toBeNull();
    expect(folderNameProblem('a/b')).not.toBeNull();
    expect(folderNameProblem('a\\b')).not.toBeNull();
    expect(folderNameProblem('x'.repeat(256))).not.toBeNull();
    expect(folderNameProblem('x'.repeat(255))).toBeNull();
    expect(folderNameProblem('Tax 2026')).toBeNull();
  });

  it('creates, renames and moves folders and a file: each change opens and its record checks out', async () => {
    const server = fakeServer();
    const top = { nodeId: null, key: driveKey };
    const a = await createFolder(server.api, { parent: top, name: 'A' }, signer);
    const b = await createFolder(server.api, { parent: top, name: 'B' }, signer);
    const fileKey = await generateFileKey();
    const node = await fileNodeFor({
      fileKey,
      name: 'notes.txt',
      contentType: 'text/plain',
      parent: { nodeId: a.folder.nodeId, key: a.folderKey },
      ownerEmail: EMAIL,
      signingPrivateKey: signer.signingPrivateKey,
    });
    server.files.set('f1', {
      fileId: 'f1',
      name: 'encrypted',
      contentType: 'application/octet-stream',
      isEncrypted: true,
      size: 3,
      uploadedAt: '2026-11-27T05:00:00.000Z',
      ownerId: 'u1',
      ...node,
    });
    const open = async () => {
      const opened = await openDrive([...server.files.values()], [...server.folders.values()], driveKey);
      const records = await checkNodeRecords(
        [...opened.folders, ...opened.files],
        EMAIL,
        signingPublicKeyB64,
      );
      return { ...opened, records };
    };

    let drive = await open();
    const folderA = must(drive.folders.find((folder) => folder.name === 'A'));
    await renameFolder(server.api, folderA, 'Alpha', signer);
    drive = await open();
    const alpha = must(drive.folders.find((folder) => folder.nodeId === a.folder.nodeId));
    expect(alpha.name).toBe('Alpha');

    // Move Alpha under B, then the file from Alpha to the top (renamed on the way).
    await moveFolder(
      server.api,
      alpha,
      top,
      must(nodeParent(drive.folders, driveKey, b.folder.nodeId)),
      signer,
    );
    drive = await open();
    expect(folderPath(drive.folders, a.folder.nodeId).map((folder) => folder.name)).toEqual(['B', 'Alpha']);
    expect(foldersBelow(drive.folders, b.folder.nodeId)).toEqual(new Set([a.folder.nodeId]));
    const file = must(drive.files[0]);
    expect(file.name).toBe('notes.txt');
    await changeFile(
      server.api,
      file,
      { from: must(nodeParent(drive.folders, driveKey, a.folder.nodeId)), to: top, name: 'renamed.txt' },
      signer,
    );
    drive = await open();
    expect(drive.files[0]).toMatchObject({ name: 'renamed.txt', parentNodeId: null, state: 'open' });
    expect(drive.folders.every((folder) => folder.state === 'open')).toBe(true);
    expect([...drive.records.values()].every((state) => state === 'valid')).toBe(true);
    expect(server.calls.filter((call) => !call.startsWith('GET'))).toEqual([
      'POST /users/folders',
      'POST /users/folders',
      `PATCH /users/folders/${a.folder.nodeId}`,
      `PATCH /users/folders/${a.folder.nodeId}`,
      'PUT /users/files/f1/node',
    ]);
  });

  it('a moved folder whose wrap was not redone does not open (the key is bound to its place)', async () => {
    const server = fakeServer();
    const top = { nodeId: null, key: driveKey };
    const a = await createFolder(server.api, { parent: top, name: 'A' }, signer);
    const b = await createFolder(server.api, { parent: top, name: 'B' }, signer);
    // The server moves A under B without the owner.
    server.folders.set(a.folder.nodeId, { ...a.folder, parentNodeId: b.folder.nodeId });
    const opened = await openDrive([], [...server.folders.values()], driveKey);
    expect(opened.folders.find((folder) => folder.nodeId === a.folder.nodeId)?.state).toBe('unreadable');
  });

  it("a rename signs the version 2 manifest again over the new sealed name, and the shares' grants over it", async () => {
    const server = fakeServer();
    const fileKey = await generateFileKey();
    const encryptionInfo = buildOwnerEncryptionInfo('key-1', await wrapFileKey(fileKey, pair.publicKey));
    const { node, manifest } = await sealedUploadNode({
      fileKey,
      name: 'notes.txt',
      contentType: 'text/plain',
      parent: { nodeId: null, key: driveKey },
      ownerEmail: EMAIL,
      signingPrivateKey: signer.signingPrivateKey,
      size: 3,
      encryptionInfo,
    });
    const bob = await generateUserKeyPair();
    const grantFields = {
      fileId: 'f1',
      ownerEmail: EMAIL,
      recipientEmail: 'bob@example.com',
      recipientKeyId: 'bob-key',
      recipientPublicKeyB64: await exportPublicKeyB64(bob.publicKey),
      encryptedFileKeyB64: await rewrapFileKey(
        encryptionInfo.encryptedFileKey,
        pair.privateKey,
        bob.publicKey,
      ),
    };
    const shareGrant = await signShareGrant(
      { ...grantFields, manifestJson: manifest },
      signer.signingPrivateKey,
    );
    const stored = {
      fileId: 'f1',
      name: 'encrypted',
      originalFilename: 'encrypted',
      contentType: 'application/octet-stream',
      isEncrypted: true,
      size: 3,
      uploadedAt: '2026-11-27T05:00:00.000Z',
      ownerId: 'u1',
      encryptionInfo,
      manifest,
      shareGrants: [{ email: 'bob@example.com', shareGrant }],
      ...node,
    };
    server.files.set('f1', stored);
    const file = must((await openDrive([...server.files.values()], [], driveKey)).files[0]);
    const top = { nodeId: null, key: driveKey };
    // Without my signing public key the old records cannot be checked: nothing is sent.
    await expect(changeFile(server.api, file, { from: top, name: 'x.txt' }, signer)).rejects.toThrow();
    await changeFile(
      server.api,
      file,
      { from: top, name: 'renamed.txt' },
      { ...signer, signingPublicKeyB64 },
    );
    const after = server.files.get('f1') as unknown as FileMetadata;
    expect(after.manifest).not.toBe(manifest);
    expect(after.encryptedMetadata).not.toBe(node.encryptedMetadata);
    expect(await checkOwnFile(after, EMAIL, signingPublicKeyB64)).toEqual({ status: 'valid' });
    // The stored file with the old manifest and the new name: what a rename without this would leave.
    const stale = { ...after, manifest };
    expect(await checkOwnFile(stale, EMAIL, signingPublicKeyB64)).toEqual({
      status: 'mismatch',
      fields: ['metadataSha256Hex'],
    });
    const newGrant = after.shareGrants?.[0]?.shareGrant;
    expect(
      await verifyShareGrant(newGrant, { ...grantFields, manifestJson: after.manifest }, signingPublicKeyB64),
    ).toEqual({ status: 'valid' });
  });
});
