import type { FileMetadata, FileNodesItem, SharedFileMetadata } from '@coffer/contracts';
import {
  buildOwnerEncryptionInfo,
  createDriveKey,
  DRIVE_NODE_ID,
  exportPublicKeyB64,
  exportSigningPublicKeyB64,
  generateFileKey,
  generateSigningKeyPair,
  generateUserKeyPair,
  parseFileManifest,
  rewrapFileKey,
  signFileManifest,
  signShareGrant,
  verifyNodeRecord,
  wrapFileKey,
} from '@coffer/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkOwnFile, checkSharedFile, signatureBadge, type Me } from '../trust/signed-files';
import { listedFile, fakeMigrationApi } from './testing/migration-api';
import { migrateClearNames, type MigrationKeys } from './clear-name-migration';

// Issue 31: a file from before sealed names carries a version 1 manifest with its clear name, and
// each share's grant names that manifest. The migration signs both again (version 2 over the sealed
// metadata), so the server keeps no clear name and a recipient still sees the owner's signature.

const OWNER = 'owner@example.com';
const BOB = 'bob@example.com';
const MARKER = 'zz-clear-name-before-issue-31.pdf';

let owner: CryptoKeyPair;
let bob: CryptoKeyPair;
let bobPublicKeyB64: string;
let signing: CryptoKeyPair;
let mallory: CryptoKeyPair;
let keys: MigrationKeys;

beforeAll(async () => {
  [owner, bob] = await Promise.all([generateUserKeyPair(), generateUserKeyPair()]);
  [signing, mallory] = await Promise.all([generateSigningKeyPair(), generateSigningKeyPair()]);
  bobPublicKeyB64 = await exportPublicKeyB64(bob.publicKey);
  keys = {
    driveKey: (await createDriveKey([owner.publicKey])).driveKey,
    privateKey: owner.privateKey,
    ownerEmail: OWNER,
    signingPrivateKey: signing.privateKey,
    signingPublicKeyB64: await exportSigningPublicKeyB64(signing.publicKey),
  };
});

/** A file uploaded before issue 31 (clear name, version 1 manifest), shared with Bob with a grant. */
async function oldSharedFile(fileId: string, grantSigner: CryptoKey = signing.privateKey) {
  const fileKey = await generateFileKey();
  const encryptionInfo = {
    ...buildOwnerEncryptionInfo('key-1', await wrapFileKey(fileKey, owner.publicKey)),
    format: 'coffer-v1' as const,
    chunkSize: 1024,
  };
  const manifest = await signFileManifest(
    {
      ownerEmail: OWNER,
      ownerKeyId: 'key-1',
      ownerEncryptedFileKeyB64: encryptionInfo.encryptedFileKey,
      name: MARKER,
      contentType: 'application/pdf',
      size: 3000,
      chunkSize: 1024,
    },
    signing.privateKey,
  );
  const bobCopy = await rewrapFileKey(encryptionInfo.encryptedFileKey, owner.privateKey, bob.publicKey);
  const shareGrant = await signShareGrant(
    {
      fileId,
      ownerEmail: OWNER,
      recipientEmail: BOB,
      recipientKeyId: 'bob-key',
      recipientPublicKeyB64: bobPublicKeyB64,
      encryptedFileKeyB64: bobCopy,
      manifestJson: manifest,
    },
    grantSigner,
  );
  const file: FileMetadata = {
    fileId,
    name: MARKER,
    originalFilename: MARKER,
    contentType: 'application/pdf',
    size: 3000,
    isEncrypted: true,
    encryptionInfo,
    uploadedAt: '2026-01-02T03:04:05.000Z',
    manifest,
    shareGrants: [{ email: BOB, shareGrant }],
  };
  return { file, bobCopy, shareGrant };
}

const listed = listedFile;
const fakeApi = fakeMigrationApi;

/** What the server serves Bob once it has applied a migration item (or kept the old records). */
function servedToBob(
  old: FileMetadata,
  item: FileNodesItem,
  bobCopy: string,
  records: { manifest?: string; shareGrant?: string },
): SharedFileMetadata {
  return {
    file: {
      ...old,
      name: 'encrypted',
      originalFilename: 'encrypted',
      contentType: 'application/octet-stream',
      nodeId: item.nodeId,
      encryptedMetadata: item.encryptedMetadata,
      nodeRecord: item.nodeRecord,
      ...(records.manifest === undefined ? {} : { manifest: records.manifest }),
      shareGrants: undefined,
    },
    owner: OWNER,
    encryptedFileKey: bobCopy,
    ...(records.shareGrant === undefined ? {} : { shareGrant: records.shareGrant }),
  };
}

describe('the clear-name migration signs the manifest and the grants again', () => {
  it('sends a version 2 manifest without the clear name and a grant over it; Bob sees it verified', async () => {
    const { file, bobCopy, shareGrant } = await oldSharedFile('f1');
    const { api, sent } = fakeApi([file]);
    expect(await migrateClearNames(api, [listed(file)], keys)).toEqual({ migrated: 1, failed: 0 });
    const [item] = sent;
    if (item?.manifest === undefined) throw new Error('no manifest sent');
    expect(parseFileManifest(item.manifest)?.v).toBe(2);
    expect(JSON.stringify(item)).not.toContain(MARKER);
    expect(item.shareGrants?.map((grant) => grant.email)).toEqual([BOB]);

    const me: Me = { email: BOB, keyId: 'bob-key', publicKeyB64: bobPublicKeyB64 };
    const migrated = servedToBob(file, item, bobCopy, {
      manifest: item.manifest,
      shareGrant: item.shareGrants?.[0]?.shareGrant ?? '',
    });
    const check = await checkSharedFile('f1', migrated, me, keys.signingPublicKeyB64);
    expect(check).toEqual({ status: 'valid' });
    expect(signatureBadge(check, OWNER).tone).toBe('verified');
    // Without the new records (the old manifest kept, or the old grant), Bob would be told it changed.
    const oldRecords = servedToBob(file, item, bobCopy, { manifest: file.manifest ?? '', shareGrant });
    expect((await checkSharedFile('f1', oldRecords, me, keys.signingPublicKeyB64)).status).toBe('mismatch');
    const oldGrant = servedToBob(file, item, bobCopy, { manifest: item.manifest, shareGrant });
    expect(await checkSharedFile('f1', oldGrant, me, keys.signingPublicKeyB64)).toEqual({
      status: 'mismatch',
      fields: ['manifestSha256Hex'],
    });
    // The server swapping in other sealed metadata is caught by the manifest.
    const swapped = servedToBob(file, { ...item, encryptedMetadata: btoa('other') }, bobCopy, {
      manifest: item.manifest,
      shareGrant: item.shareGrants?.[0]?.shareGrant ?? '',
    });
    expect(await checkSharedFile('f1', swapped, me, keys.signingPublicKeyB64)).toMatchObject({
      status: 'mismatch',
      fields: expect.arrayContaining(['metadataSha256Hex']) as string[],
    });

    // The owner's own check and the node record both name the new manifest.
    const own = { ...migrated.file, wrappedKey: item.wrappedKey };
    expect(await checkOwnFile(own, OWNER, keys.signingPublicKeyB64)).toEqual({ status: 'valid' });
    const record = await verifyNodeRecord(
      item.nodeRecord,
      {
        ownerEmail: OWNER,
        nodeId: item.nodeId,
        parentNodeId: DRIVE_NODE_ID,
        kind: 'file',
        wrappedKeyB64: item.wrappedKey,
        encryptedMetadataB64: item.encryptedMetadata,
        manifestJson: item.manifest,
      },
      keys.signingPublicKeyB64,
    );
    expect(record).toEqual({ status: 'valid' });
  });

  it('leaves a file whose grant it did not sign as it is (nothing the server forged is signed again)', async () => {
    const forged = await oldSharedFile('f2', mallory.privateKey);
    const good = await oldSharedFile('f3');
    const { api, sent } = fakeApi([forged.file, good.file]);
    expect(await migrateClearNames(api, [listed(forged.file), listed(good.file)], keys)).toEqual({
      migrated: 1,
      failed: 1,
    });
    expect(sent.map((item) => item.fileId)).toEqual(['f3']);
  });

  it('migrates a file without a manifest (before signing keys) without one', async () => {
    const { file } = await oldSharedFile('f4');
    const unsigned: FileMetadata = { ...file, manifest: undefined, shareGrants: undefined };
    const { api, sent } = fakeApi([unsigned]);
    expect(await migrateClearNames(api, [listed(unsigned)], keys)).toEqual({ migrated: 1, failed: 0 });
    expect(sent[0]).not.toHaveProperty('manifest');
  });
});
