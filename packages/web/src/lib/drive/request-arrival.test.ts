import type { FileMetadata } from '@coffer/contracts';
import {
  buildOwnerEncryptionInfo,
  createDriveKey,
  DRIVE_NODE_ID,
  exportSigningPublicKeyB64,
  generateFileKey,
  generateSigningKeyPair,
  generateUserKeyPair,
  openMetadata,
  sealMetadata,
  unwrapNodeKey,
  wrapFileKey,
} from '@coffer/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { listedFile, fakeMigrationApi } from './testing/migration-api';
import { filesWithClearNames, migrateClearNames, type MigrationKeys } from './clear-name-migration';
import { newNodeId } from './node-place';

// Issue 30: a file request's uploader seals the file's name under its file key (no clear name
// reaches the server); the owner's browser opens that seal with the RSA owner copy and places
// the file in the drive under the node id the uploader chose, or leaves it when the seal is not
// this file's.

const EMAIL = 'owner@example.com';
let owner: CryptoKeyPair;
let keys: MigrationKeys;

beforeAll(async () => {
  owner = await generateUserKeyPair();
  const signing = await generateSigningKeyPair();
  keys = {
    driveKey: (await createDriveKey([owner.publicKey])).driveKey,
    privateKey: owner.privateKey,
    ownerEmail: EMAIL,
    signingPrivateKey: signing.privateKey,
    signingPublicKeyB64: await exportSigningPublicKeyB64(signing.publicKey),
  };
});

/** What the server answers for a file that came through a request, sealed as the uploader's browser does. */
async function arrival(
  fileId: string,
  name: string,
  sealFor: (nodeId: string) => string = (nodeId) => nodeId,
): Promise<FileMetadata> {
  const fileKey = await generateFileKey();
  const nodeId = newNodeId();
  return {
    fileId,
    name: 'encrypted',
    originalFilename: 'encrypted',
    contentType: 'application/octet-stream',
    size: 10,
    isEncrypted: true,
    encryptionInfo: {
      ...buildOwnerEncryptionInfo('key-1', await wrapFileKey(fileKey, owner.publicKey)),
      format: 'coffer-v1',
      chunkSize: 1,
    },
    uploadedAt: '2026-11-27T08:00:00.000Z',
    nodeId,
    encryptedMetadata: await sealMetadata(fileKey, sealFor(nodeId), { name, contentType: 'application/pdf' }),
  };
}

const listed = listedFile;
const fakeApi = fakeMigrationApi;

describe('files that came through a file request', () => {
  it('are placed under the node id their uploader sealed the name for, the seal kept as it is', async () => {
    const file = await arrival('f1', 'Signed lease.pdf');
    expect(filesWithClearNames([listed(file)])).toHaveLength(1);
    const { api, sent } = fakeApi([file]);
    expect(await migrateClearNames(api, [listed(file)], keys)).toEqual({ migrated: 1, failed: 0 });
    const [item] = sent;
    expect(item).toMatchObject({
      fileId: 'f1',
      nodeId: file.nodeId,
      parentNodeId: null,
      encryptedMetadata: file.encryptedMetadata,
    });
    if (item === undefined || file.nodeId === undefined) throw new Error('not placed');
    const fileKey = await unwrapNodeKey(
      item.wrappedKey,
      keys.driveKey,
      { parentNodeId: DRIVE_NODE_ID, nodeId: file.nodeId },
      'file',
    );
    expect(await openMetadata(fileKey, file.nodeId, item.encryptedMetadata)).toEqual({
      name: 'Signed lease.pdf',
      contentType: 'application/pdf',
    });
  });

  it('are left unplaced when the seal does not open with the file key for its node (another node, altered)', async () => {
    const other = await arrival('f2', 'Elsewhere.pdf', () => newNodeId());
    const { api, sent } = fakeApi([other]);
    expect(await migrateClearNames(api, [listed(other)], keys)).toEqual({ migrated: 0, failed: 1 });
    expect(sent).toEqual([]);
  });

  it('are not taken for placed files, nor placed files for them', async () => {
    const file = await arrival('f3', 'A.pdf');
    const placed = { ...listed(file), wrappedKey: 'AAAA', nodeRecord: '{}', parentNodeId: null };
    expect(filesWithClearNames([placed])).toEqual([]);
  });
});
