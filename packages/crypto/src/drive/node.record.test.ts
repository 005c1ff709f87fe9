import { beforeAll, describe, expect, it } from 'vitest';
import { generateFileKey, wrapFileKey } from '../file-key.wrap.js';
import { signFileManifest } from '../file-manifest.record.js';
import { importPublicKeyB64 } from '../key-pair.rsa.js';
import { makeIdentity, type TestIdentity } from '../testing/identities.js';
import { createDriveKey } from './drive-key.wrap.js';
import { createFolderKey, rewrapNodeKey, wrapNodeKey } from './node-key.wrap.js';
import { sealMetadata } from './node-metadata.seal.js';
import { parseNodeRecord, signNodeRecord, verifyNodeRecord, type NodeRecordFields } from './node.record.js';

const FOLDER_A = '0000000a-0000-4000-8000-000000000000';
const FOLDER_B = '0000000b-0000-4000-8000-000000000000';
const FILE_1 = '00000001-0000-4000-8000-000000000000';
const FILE_2 = '00000002-0000-4000-8000-000000000000';

let alice: TestIdentity;
let mallory: TestIdentity;
let folderA: CryptoKey;
let folderB: CryptoKey;
let file1: NodeRecordFields;
let file2: NodeRecordFields;
let record1: string;
let record2: string;

async function fileNode(nodeId: string, name: string, parentKey: CryptoKey): Promise<NodeRecordFields> {
  const fileKey = await generateFileKey();
  const ownerCopy = await wrapFileKey(fileKey, await importPublicKeyB64(alice.publicKeyB64));
  const manifestJson = await signFileManifest(
    {
      ownerEmail: alice.email,
      ownerKeyId: alice.keyId,
      ownerEncryptedFileKeyB64: ownerCopy,
      name: '',
      contentType: '',
      size: 5,
    },
    alice.signingPrivateKey,
  );
  return {
    ownerEmail: alice.email,
    nodeId,
    parentNodeId: FOLDER_A,
    kind: 'file',
    wrappedKeyB64: await wrapNodeKey(fileKey, parentKey, { parentNodeId: FOLDER_A, nodeId }),
    encryptedMetadataB64: await sealMetadata(fileKey, nodeId, { name, contentType: 'text/plain' }),
    manifestJson,
  };
}

beforeAll(async () => {
  [alice, mallory] = await Promise.all([
    makeIdentity('alice@example.com'),
    makeIdentity('mallory@example.com'),
  ]);
  const { driveKey } = await createDriveKey([await importPublicKeyB64(alice.publicKeyB64)]);
  ({ folderKey: folderA } = await createFolderKey(driveKey, { parentNodeId: 'drive', nodeId: FOLDER_A }));
  ({ folderKey: folderB } = await createFolderKey(driveKey, { parentNodeId: 'drive', nodeId: FOLDER_B }));
  file1 = await fileNode(FILE_1, 'divorce-settlement.pdf', folderA);
  file2 = await fileNode(FILE_2, 'holiday.txt', folderA);
  [record1, record2] = await Promise.all([
    signNodeRecord(file1, alice.signingPrivateKey),
    signNodeRecord(file2, alice.signingPrivateKey),
  ]);
});

const verify = (json: string | undefined, served: NodeRecordFields, key = alice.signingPublicKeyB64) =>
  verifyNodeRecord(json, served, key);

describe('node record', () => {
  it('is valid for the node as signed, files and folders alike', async () => {
    expect(await verify(record1, file1)).toEqual({ status: 'valid' });
    const { folderKey, wrappedKeyB64 } = await createFolderKey(folderA, {
      parentNodeId: FOLDER_A,
      nodeId: FOLDER_B,
    });
    const folder: NodeRecordFields = {
      ownerEmail: 'Alice@Example.com',
      nodeId: FOLDER_B,
      parentNodeId: FOLDER_A,
      kind: 'folder',
      wrappedKeyB64,
      encryptedMetadataB64: await sealMetadata(folderKey, FOLDER_B, { name: 'Taxes' }),
    };
    const json = await signNodeRecord(folder, alice.signingPrivateKey);
    expect(parseNodeRecord(json)).toMatchObject({
      type: 'node',
      kind: 'folder',
      manifestSha256Hex: '',
      ownerEmail: 'alice@example.com',
    });
    expect(await verify(json, folder)).toEqual({ status: 'valid' });
  });

  it('a node moved to another parent is a mismatch (parent and wrapped key)', async () => {
    const moved = {
      ...file1,
      parentNodeId: FOLDER_B,
      wrappedKeyB64: await rewrapNodeKey(
        file1.wrappedKeyB64,
        'file',
        { parentKey: folderA, place: { parentNodeId: FOLDER_A, nodeId: FILE_1 } },
        { parentKey: folderB, place: { parentNodeId: FOLDER_B, nodeId: FILE_1 } },
      ),
    };
    expect(await verify(record1, moved)).toEqual({
      status: 'mismatch',
      fields: ['parentNodeId', 'wrappedKeySha256Hex'],
    });
    // The server changing only the parent it reports is caught as well.
    expect(await verify(record1, { ...file1, parentNodeId: FOLDER_B })).toEqual({
      status: 'mismatch',
      fields: ['parentNodeId'],
    });
  });

  it('metadata swapped between two files, or a record served for another node, is a mismatch', async () => {
    expect(await verify(record1, { ...file1, encryptedMetadataB64: file2.encryptedMetadataB64 })).toEqual({
      status: 'mismatch',
      fields: ['metadataSha256Hex'],
    });
    expect(await verify(record2, file1)).toEqual({
      status: 'mismatch',
      fields: ['nodeId', 'wrappedKeySha256Hex', 'metadataSha256Hex', 'manifestSha256Hex'],
    });
    expect(await verify(record1, { ...file1, kind: 'folder', manifestJson: undefined })).toEqual({
      status: 'mismatch',
      fields: ['kind', 'manifestSha256Hex'],
    });
    expect(await verify(record1, { ...file1, ownerEmail: mallory.email })).toEqual({
      status: 'mismatch',
      fields: ['ownerEmail'],
    });
  });

  it('an unsigned or injected node is never valid', async () => {
    expect(await verify(undefined, file1)).toEqual({ status: 'unsigned' });
    // Injected by someone with their own signing key (the server, another user).
    const forged = await signNodeRecord(file1, mallory.signingPrivateKey);
    expect(await verify(forged, file1)).toMatchObject({ status: 'invalid-signature' });
    // A genuine record with a member changed after signing.
    const edited = record1.replace(FOLDER_A, FOLDER_B);
    expect(await verify(edited, { ...file1, parentNodeId: FOLDER_B })).toMatchObject({
      status: 'invalid-signature',
    });
    expect(await verify('{"v":1,"type":"node"}', file1)).toMatchObject({ status: 'invalid-signature' });
  });

  it('parses strictly: kinds, ids, folders without manifests, no extra members', async () => {
    const parsed = parseNodeRecord(record1);
    expect(parsed).not.toBeNull();
    const base = JSON.parse(record1) as Record<string, unknown>;
    for (const change of [
      { kind: 'symlink' },
      { nodeId: 'drive' },
      { parentNodeId: FILE_1 },
      { parentNodeId: 'x/y' },
      { kind: 'folder' },
      { extra: 1 },
    ]) {
      expect(parseNodeRecord(JSON.stringify({ ...base, ...change })), JSON.stringify(change)).toBeNull();
    }
    await expect(
      signNodeRecord({ ...file1, nodeId: 'not-a-uuid' }, alice.signingPrivateKey),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});
