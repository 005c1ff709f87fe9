import { beforeAll, describe, expect, it } from 'vitest';
import { NodeKeyUnwrapError } from '../crypto.errors.js';
import { generateFileKey } from '../file-key.wrap.js';
import { importPublicKeyB64 } from '../key-pair.rsa.js';
import { makeIdentity, type TestIdentity } from '../testing/identities.js';
import { createDriveKey } from './drive-key.wrap.js';
import { unwrapFolderKeyFromGrant, wrapFolderKeyForRecipient } from './folder-key.share.js';
import { signFolderGrant, verifyFolderGrant, type FolderGrantFields } from './folder-grant.record.js';
import { createFolderKey, unwrapNodeKey, wrapNodeKey } from './node-key.wrap.js';
import { openMetadata, sealMetadata } from './node-metadata.seal.js';

const SHARED = '0000000a-0000-4000-8000-000000000000';
const OTHER = '0000000b-0000-4000-8000-000000000000';
const LATER_FILE = '00000001-0000-4000-8000-000000000000';

let alice: TestIdentity;
let bob: TestIdentity;
let mallory: TestIdentity;
let driveKey: CryptoKey;
let folderKey: CryptoKey;
let wrappedKeyB64: string;
let fields: FolderGrantFields;
let grantJson: string;

beforeAll(async () => {
  [alice, bob, mallory] = await Promise.all([
    makeIdentity('alice@example.com'),
    makeIdentity('bob@example.com'),
    makeIdentity('mallory@example.com'),
  ]);
  ({ driveKey } = await createDriveKey([await importPublicKeyB64(alice.publicKeyB64)]));
  ({ folderKey, wrappedKeyB64 } = await createFolderKey(driveKey, { parentNodeId: 'drive', nodeId: SHARED }));
  const encryptedFolderKeyB64 = await wrapFolderKeyForRecipient(
    { wrappedKeyB64, parentKey: driveKey, place: { parentNodeId: 'drive', nodeId: SHARED } },
    await importPublicKeyB64(bob.publicKeyB64),
  );
  fields = {
    folderNodeId: SHARED,
    ownerEmail: alice.email,
    recipientEmail: 'Bob@Example.com',
    recipientKeyId: bob.keyId,
    recipientPublicKeyB64: bob.publicKeyB64,
    encryptedFolderKeyB64,
  };
  grantJson = await signFolderGrant(fields, alice.signingPrivateKey);
});

describe('folder share', () => {
  it('the recipient opens the folder key and reads a file the owner adds after the share', async () => {
    expect(await verifyFolderGrant(grantJson, fields, alice.signingPublicKeyB64)).toEqual({
      status: 'valid',
    });
    const bobsKey = await unwrapFolderKeyFromGrant(fields.encryptedFolderKeyB64, bob.privateKey);
    expect(bobsKey.extractable).toBe(false);

    // Later, Alice adds a file under the shared folder: no new share, Bob opens it with the folder key.
    const fileKey = await generateFileKey();
    const place = { parentNodeId: SHARED, nodeId: LATER_FILE };
    const wrapped = await wrapNodeKey(fileKey, folderKey, place);
    const metadata = await sealMetadata(fileKey, LATER_FILE, {
      name: 'added-later.txt',
      contentType: 'text/plain',
    });
    const bobsFileKey = await unwrapNodeKey(wrapped, bobsKey, place, 'file');
    expect(await openMetadata(bobsFileKey, LATER_FILE, metadata)).toEqual({
      name: 'added-later.txt',
      contentType: 'text/plain',
    });
  });

  it('the folder key opens nothing outside the shared folder', async () => {
    const bobsKey = await unwrapFolderKeyFromGrant(fields.encryptedFolderKeyB64, bob.privateKey);
    const { wrappedKeyB64: otherWrap } = await createFolderKey(driveKey, {
      parentNodeId: 'drive',
      nodeId: OTHER,
    });
    await expect(
      unwrapNodeKey(otherWrap, bobsKey, { parentNodeId: 'drive', nodeId: OTHER }, 'folder'),
    ).rejects.toBeInstanceOf(NodeKeyUnwrapError);
    await expect(
      unwrapNodeKey(otherWrap, bobsKey, { parentNodeId: SHARED, nodeId: OTHER }, 'folder'),
    ).rejects.toBeInstanceOf(NodeKeyUnwrapError);
  });

  it('only the recipient opens the wrapped folder key', async () => {
    await expect(
      unwrapFolderKeyFromGrant(fields.encryptedFolderKeyB64, mallory.privateKey),
    ).rejects.toBeInstanceOf(NodeKeyUnwrapError);
  });

  it('a grant for another folder, recipient, key or wrap is a mismatch; a forged one invalid; none unsigned', async () => {
    const check = (served: Partial<FolderGrantFields>, json: string | undefined = grantJson) =>
      verifyFolderGrant(json, { ...fields, ...served }, alice.signingPublicKeyB64);
    expect(await check({ folderNodeId: OTHER })).toEqual({ status: 'mismatch', fields: ['folderNodeId'] });
    expect(
      await check({
        recipientEmail: mallory.email,
        recipientKeyId: mallory.keyId,
        recipientPublicKeyB64: mallory.publicKeyB64,
      }),
    ).toEqual({
      status: 'mismatch',
      fields: ['recipientEmail', 'recipientKeyId', 'recipientKeySha256Hex'],
    });
    const swapped = await wrapFolderKeyForRecipient(
      { wrappedKeyB64, parentKey: driveKey, place: { parentNodeId: 'drive', nodeId: SHARED } },
      await importPublicKeyB64(bob.publicKeyB64),
    );
    expect(await check({ encryptedFolderKeyB64: swapped })).toEqual({
      status: 'mismatch',
      fields: ['wrappedKeySha256Hex'],
    });
    expect(await check({}, await signFolderGrant(fields, mallory.signingPrivateKey))).toMatchObject({
      status: 'invalid-signature',
    });
    expect(await verifyFolderGrant(undefined, fields, alice.signingPublicKeyB64)).toEqual({
      status: 'unsigned',
    });
  });

  it('sharing needs the folder wrap at its real place', async () => {
    await expect(
      wrapFolderKeyForRecipient(
        { wrappedKeyB64, parentKey: driveKey, place: { parentNodeId: 'drive', nodeId: OTHER } },
        await importPublicKeyB64(bob.publicKeyB64),
      ),
    ).rejects.toBeInstanceOf(NodeKeyUnwrapError);
  });
});
