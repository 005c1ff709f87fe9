import type { FileMetadata, FileNodeChange } from '@coffer/contracts';
import {
  buildOwnerEncryptionInfo,
  createDriveKey,
  DRIVE_NODE_ID,
  exportSigningPublicKeyB64,
  generateFileKey,
  generateSigningKeyPair,
  generateUserKeyPair,
  parseFileManifest,
  sealMetadata,
  signFileManifest,
  signNodeRecord,
  unwrapNodeKey,
  verifyNodeRecord,
  wrapFileKey,
  wrapFileKeyForParent,
} from '@coffer/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../api/http';
import { checkOwnFile, type ManifestSigner } from '../trust/signed-files';
import type { DriveFile } from './drive-nodes';
import { filesWithClearManifests, resignClearManifests } from './manifest-repair';
import { listedFile } from './testing/migration-api';

// Issue 31: session 14's migration sealed a file's clear name and placed it, but kept the version 1
// manifest (naming the file in clear) in its node record and on the server. The owner's browser
// checks such a manifest against its own key and the sealed name, then signs it again (version 2).

const OWNER = 'owner@example.com';
const MARKER = 'zz-session-14-migrated.pdf';

let owner: CryptoKeyPair;
let signing: CryptoKeyPair;
let mallory: CryptoKeyPair;
let driveKey: CryptoKey;
let signer: ManifestSigner;

beforeAll(async () => {
  owner = await generateUserKeyPair();
  [signing, mallory] = await Promise.all([generateSigningKeyPair(), generateSigningKeyPair()]);
  driveKey = (await createDriveKey([owner.publicKey])).driveKey;
  signer = {
    ownerEmail: OWNER,
    signingPrivateKey: signing.privateKey,
    signingPublicKeyB64: await exportSigningPublicKeyB64(signing.publicKey),
  };
});

/**
 * A file as session 14's migration left it (its code before 14ae0b7): uploaded with a version 1
 * manifest naming it, then placed at the top with sealed metadata and a node record over that same
 * version 1 manifest; the server answers `name: 'encrypted'` and keeps the manifest.
 */
async function session14File(
  fileId: string,
  options: { manifestName?: string; manifestSigner?: CryptoKey } = {},
): Promise<{ stored: FileMetadata; listed: DriveFile }> {
  const encryptionInfo = {
    ...buildOwnerEncryptionInfo('key-1', await wrapFileKey(await generateFileKey(), owner.publicKey)),
    format: 'coffer-v1' as const,
    chunkSize: 1024,
  };
  const manifest = await signFileManifest(
    {
      ownerEmail: OWNER,
      ownerKeyId: 'key-1',
      ownerEncryptedFileKeyB64: encryptionInfo.encryptedFileKey,
      name: options.manifestName ?? MARKER,
      contentType: 'application/pdf',
      size: 3000,
      chunkSize: 1024,
    },
    options.manifestSigner ?? signing.privateKey,
  );
  const nodeId = crypto.randomUUID();
  const place = { parentNodeId: DRIVE_NODE_ID, nodeId };
  const wrappedKey = await wrapFileKeyForParent(
    encryptionInfo.encryptedFileKey,
    owner.privateKey,
    driveKey,
    place,
  );
  const fileKey = await unwrapNodeKey(wrappedKey, driveKey, place, 'file');
  const encryptedMetadata = await sealMetadata(fileKey, nodeId, {
    name: MARKER,
    contentType: 'application/pdf',
  });
  const nodeRecord = await signNodeRecord(
    {
      ownerEmail: OWNER,
      nodeId,
      parentNodeId: DRIVE_NODE_ID,
      kind: 'file',
      wrappedKeyB64: wrappedKey,
      encryptedMetadataB64: encryptedMetadata,
      manifestJson: manifest,
    },
    signing.privateKey,
  );
  const stored: FileMetadata = {
    fileId,
    name: 'encrypted',
    originalFilename: 'encrypted',
    contentType: 'application/octet-stream',
    size: 3000,
    isEncrypted: true,
    encryptionInfo,
    uploadedAt: '2026-01-02T03:04:05.000Z',
    manifest,
    nodeId,
    parentNodeId: null,
    wrappedKey,
    encryptedMetadata,
    nodeRecord,
  };
  const item = { ...listedFile(stored), wrappedKey, nodeRecord, clearManifest: true as const };
  const listed: DriveFile = {
    kind: 'file',
    fileId,
    nodeId,
    parentNodeId: null,
    name: MARKER,
    contentType: 'application/pdf',
    size: 3000,
    uploadedAt: stored.uploadedAt,
    state: 'open',
    fileKey,
    item,
  };
  return { stored, listed };
}

/** GET /users/files/{id} and PUT /users/files/{id}/node, the node changes collected in `sent`. */
function fakeApi(files: readonly FileMetadata[]): { api: ApiClient; sent: Map<string, FileNodeChange> } {
  const sent = new Map<string, FileNodeChange>();
  const api = {
    request: (method: string, path: string, options?: { body?: unknown }) => {
      const file = files.find(
        (candidate) =>
          path === `/users/files/${candidate.fileId}` || path === `/users/files/${candidate.fileId}/node`,
      );
      if (file === undefined) return Promise.reject(new Error(`no ${path}`));
      if (method === 'GET') return Promise.resolve(file);
      if (method === 'PUT' && path.endsWith('/node')) {
        sent.set(file.fileId, options?.body as FileNodeChange);
        return Promise.resolve(file);
      }
      return Promise.reject(new Error(`unexpected ${method} ${path}`));
    },
  } as unknown as ApiClient;
  return { api, sent };
}

describe('files placed by an older migration with their version 1 manifest', () => {
  it('show a mismatch until signed again; then a version 2 manifest without the name checks out', async () => {
    const { stored, listed } = await session14File('f1');
    expect((await checkOwnFile(stored, OWNER, signer.signingPublicKeyB64)).status).toBe('mismatch');
    expect(filesWithClearManifests([listed])).toEqual([listed]);

    const { api, sent } = fakeApi([stored]);
    expect(await resignClearManifests(api, [listed], signer)).toEqual({ repaired: 1, failed: 0 });
    const change = sent.get('f1');
    if (change?.manifest === undefined) throw new Error('no manifest sent');
    expect(parseFileManifest(change.manifest)?.v).toBe(2);
    expect(JSON.stringify(change)).not.toContain(MARKER);
    expect(change).toMatchObject({
      nodeId: stored.nodeId,
      parentNodeId: null,
      wrappedKey: stored.wrappedKey,
      encryptedMetadata: stored.encryptedMetadata,
    });

    const repaired: FileMetadata = { ...stored, manifest: change.manifest, nodeRecord: change.nodeRecord };
    expect(await checkOwnFile(repaired, OWNER, signer.signingPublicKeyB64)).toEqual({ status: 'valid' });
    const record = await verifyNodeRecord(
      change.nodeRecord,
      {
        ownerEmail: OWNER,
        nodeId: change.nodeId,
        parentNodeId: DRIVE_NODE_ID,
        kind: 'file',
        wrappedKeyB64: change.wrappedKey,
        encryptedMetadataB64: change.encryptedMetadata,
        manifestJson: change.manifest,
      },
      signer.signingPublicKeyB64,
    );
    expect(record).toEqual({ status: 'valid' });
  });

  it('leaves a version 1 manifest that does not match as it is (a server attack keeps its mismatch)', async () => {
    // Mine, but naming another file (the server served another of my manifests), or not signed by me.
    const otherName = await session14File('f2', { manifestName: 'zz-another-file.pdf' });
    const forged = await session14File('f3', { manifestSigner: mallory.privateKey });
    const good = await session14File('f4');
    const { api, sent } = fakeApi([otherName.stored, forged.stored, good.stored]);
    expect(await resignClearManifests(api, [otherName.listed, forged.listed, good.listed], signer)).toEqual({
      repaired: 1,
      failed: 2,
    });
    expect([...sent.keys()]).toEqual(['f4']);
    expect((await checkOwnFile(otherName.stored, OWNER, signer.signingPublicKeyB64)).status).toBe('mismatch');
  });

  it('signs nothing when the stored node record is not mine for the node as served', async () => {
    const { stored, listed } = await session14File('f5');
    const moved: FileMetadata = { ...stored, parentNodeId: crypto.randomUUID() };
    const { api, sent } = fakeApi([moved]);
    expect(await resignClearManifests(api, [listed], signer)).toEqual({ repaired: 0, failed: 1 });
    expect(sent.size).toBe(0);
  });

  it('takes only placed files the server marks, whose key opened', async () => {
    const { listed } = await session14File('f6');
    const unmarked: DriveFile = { ...listed, item: { ...listed.item, clearManifest: undefined } };
    const unopened: DriveFile = { ...listed, fileKey: undefined };
    expect(filesWithClearManifests([unmarked, unopened])).toEqual([]);
  });
});
