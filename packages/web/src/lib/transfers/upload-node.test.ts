import { parseFileManifest, parseNodeRecord, verifyFileManifest } from '@coffer/crypto';
import {
  createDriveKey,
  createFolderKey,
  exportSigningPublicKeyB64,
  generateSigningKeyPair,
  openMetadata,
  unwrapNodeKey,
  verifyNodeRecord,
} from '@coffer/crypto';
import type { FileNode } from '@coffer/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { FakeCofferServer, patternBytes } from './testing/fake-coffer-server';
import { ownerKeyPair } from './testing/keys';
import { testRunOptions, usePartPath, expectNoPartHeld } from './testing/part-path';
import { uploadFile, type UploadOptions } from './upload';

const testFormat = { chunkSize: 1024, directUploadThreshold: 4096 };
const EMAIL = 'alice@example.com';
const MARKER = 'zz-marker-secret-name.txt';

let rsa: CryptoKeyPair;
let signing: CryptoKeyPair;
let driveKey: CryptoKey;

beforeAll(async () => {
  rsa = await ownerKeyPair();
  signing = await generateSigningKeyPair();
  driveKey = (await createDriveKey([rsa.publicKey])).driveKey;
});

function options(server: FakeCofferServer, file: File, extra: Partial<UploadOptions> = {}): UploadOptions {
  return {
    ...testRunOptions(server, testFormat),
    file,
    keys: {
      publicKey: rsa.publicKey,
      keyVersion: 'key-1',
      signing: { ownerEmail: EMAIL, signingPrivateKey: signing.privateKey },
      driveKey,
    },
    ...extra,
  };
}

/** The node opens under `parentKey` at `parentNodeId` and holds the name and type; its record verifies. */
async function expectSealed(node: FileNode, parentKey: CryptoKey, parentNodeId: string, manifest?: string) {
  const place = { parentNodeId, nodeId: node.nodeId };
  const fileKey = await unwrapNodeKey(node.wrappedKey, parentKey, place, 'file');
  expect(await openMetadata(fileKey, node.nodeId, node.encryptedMetadata)).toEqual({
    name: MARKER,
    contentType: 'text/plain',
  });
  const check = await verifyNodeRecord(
    node.nodeRecord,
    {
      ownerEmail: EMAIL,
      nodeId: node.nodeId,
      parentNodeId,
      kind: 'file',
      wrappedKeyB64: node.wrappedKey,
      encryptedMetadataB64: node.encryptedMetadata,
      manifestJson: manifest,
    },
    await exportSigningPublicKeyB64(signing.publicKey),
  );
  expect(check).toEqual({ status: 'valid' });
  expect(parseNodeRecord(node.nodeRecord)?.parentNodeId).toBe(parentNodeId);
  if (manifest === undefined) return;
  // A version 2 manifest: no name in it, the sealed metadata's hash signed (a recipient checks it).
  expect(parseFileManifest(manifest)?.v).toBe(2);
  expect(manifest).not.toContain('zz-marker');
  const served = { ownerEmail: EMAIL, name: 'encrypted', contentType: 'application/octet-stream' };
  const signingKeyB64 = await exportSigningPublicKeyB64(signing.publicKey);
  const size = parseFileManifest(manifest)?.size ?? -1;
  expect(
    await verifyFileManifest(
      manifest,
      {
        ...served,
        size,
        chunkSize: parseFileManifest(manifest)?.chunkSize,
        encryptedMetadataB64: node.encryptedMetadata,
      },
      signingKeyB64,
    ),
  ).toEqual({ status: 'valid' });
}

describe('uploads with encrypted metadata (issue 31)', () => {
  usePartPath('crypto worker', expectNoPartHeld);

  it('direct: sends the name "encrypted", no type in clear, and the node; the manifest has no clear name', async () => {
    const server = new FakeCofferServer();
    const file = new File([patternBytes(3000)], MARKER, { type: 'text/plain' });
    await uploadFile(options(server, file));
    const [upload] = server.directUploads;
    if (upload === undefined) throw new Error('no direct upload');
    expect(upload.fields.name).toBe('encrypted');
    expect(upload.fields.contentType).toBe('application/octet-stream');
    expect(JSON.stringify(upload.fields)).not.toContain('zz-marker');
    const node = JSON.parse(upload.fields.node ?? 'null') as FileNode;
    expect(node.parentNodeId).toBeNull();
    await expectSealed(node, driveKey, 'drive', upload.fields.manifest);
  });

  it('multipart: the create call carries the node and no clear name', async () => {
    const server = new FakeCofferServer();
    const file = new File([patternBytes(5000)], MARKER, { type: 'text/plain' });
    await uploadFile(options(server, file));
    const [request] = server.createRequests;
    if (request === undefined) throw new Error('no multipart upload');
    expect(request.name).toBe('encrypted');
    expect(JSON.stringify(request)).not.toContain('zz-marker');
    if (request.node === undefined) throw new Error('no node');
    await expectSealed(request.node, driveKey, 'drive', request.manifest);
  });

  it('into a folder: the key is wrapped under the folder key at that place', async () => {
    const server = new FakeCofferServer();
    const folderNodeId = crypto.randomUUID();
    const { folderKey } = await createFolderKey(driveKey, { parentNodeId: 'drive', nodeId: folderNodeId });
    const file = new File([patternBytes(100)], MARKER, { type: 'text/plain' });
    await uploadFile(options(server, file, { parent: { nodeId: folderNodeId, key: folderKey } }));
    const node = JSON.parse(server.directUploads[0]?.fields.node ?? 'null') as FileNode;
    expect(node.parentNodeId).toBe(folderNodeId);
    await expectSealed(node, folderKey, folderNodeId, server.directUploads[0]?.fields.manifest);
  });

  it('without a drive key the name goes in clear, as before', async () => {
    const server = new FakeCofferServer();
    const file = new File([patternBytes(100)], MARKER, { type: 'text/plain' });
    const base = options(server, file);
    await uploadFile({ ...base, keys: { ...base.keys, driveKey: undefined } });
    expect(server.directUploads[0]?.fields.name).toBe(MARKER);
    expect(server.directUploads[0]?.fields.node).toBeUndefined();
    expect(parseFileManifest(server.directUploads[0]?.fields.manifest ?? '')).toMatchObject({
      v: 1,
      name: MARKER,
    });
  });
});
