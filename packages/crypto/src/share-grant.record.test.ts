import { beforeAll, describe, expect, it } from 'vitest';
import { generateFileKey, rewrapFileKey, wrapFileKey } from './file-key.wrap.js';
import { signFileManifest, signFileManifestV2 } from './file-manifest.record.js';
import { importPublicKeyB64 } from './key-pair.rsa.js';
import { InvalidArgumentError } from './crypto.errors.js';
import {
  parseShareGrant,
  resignShareGrant,
  signShareGrant,
  verifyReceivedShare,
  verifyShareGrant,
  type ReceivedShare,
  type ShareGrantFields,
} from './share-grant.record.js';
import { makeIdentity, type TestIdentity } from './testing/identities.js';

let alice: TestIdentity;
let bob: TestIdentity;
let mallory: TestIdentity;
let fields: ShareGrantFields;
let grantJson: string;
let share: ReceivedShare;
let ownerCopy: string;

beforeAll(async () => {
  [alice, bob, mallory] = await Promise.all([
    makeIdentity('alice@example.com'),
    makeIdentity('bob@example.com'),
    makeIdentity('mallory@example.com'),
  ]);
  ownerCopy = await wrapFileKey(await generateFileKey(), await importPublicKeyB64(alice.publicKeyB64));
  const manifestJson = await signFileManifest(
    {
      ownerEmail: alice.email,
      ownerKeyId: alice.keyId,
      ownerEncryptedFileKeyB64: ownerCopy,
      name: 'a.txt',
      contentType: 'text/plain',
      size: 10,
    },
    alice.signingPrivateKey,
  );
  const recipientCopy = await rewrapFileKey(
    ownerCopy,
    alice.privateKey,
    await importPublicKeyB64(bob.publicKeyB64),
  );
  fields = {
    fileId: 'file-1',
    ownerEmail: alice.email,
    recipientEmail: 'Bob@Example.com',
    recipientKeyId: bob.keyId,
    recipientPublicKeyB64: bob.publicKeyB64,
    encryptedFileKeyB64: recipientCopy,
    manifestJson,
  };
  grantJson = await signShareGrant(fields, alice.signingPrivateKey);
  share = {
    ...fields,
    shareGrantJson: grantJson,
    file: { name: 'a.txt', contentType: 'text/plain', size: 10 },
  };
});

describe('share grant', () => {
  it('verifies, with the recipient email in canonical lower case', async () => {
    expect(JSON.parse(grantJson)).toMatchObject({ recipientEmail: 'bob@example.com', fileId: 'file-1' });
    expect(
      await verifyShareGrant(
        grantJson,
        { ...fields, recipientEmail: 'bob@example.com' },
        alice.signingPublicKeyB64,
      ),
    ).toEqual({
      status: 'valid',
    });
    expect(await verifyReceivedShare(share, alice.signingPublicKeyB64)).toEqual({ status: 'valid' });
  });

  it('is unsigned when absent', async () => {
    expect(await verifyShareGrant(undefined, fields, alice.signingPublicKeyB64)).toEqual({
      status: 'unsigned',
    });
    expect(
      await verifyReceivedShare({ ...share, shareGrantJson: undefined }, alice.signingPublicKeyB64),
    ).toEqual({
      status: 'unsigned',
    });
  });

  it.each([
    ['fileId', { fileId: 'file-2' }],
    ['ownerEmail', { ownerEmail: 'mallory@example.com' }],
    ['recipientEmail', { recipientEmail: 'carol@example.com' }],
    ['recipientKeyId', { recipientKeyId: 'key-other' }],
    ['manifestSha256Hex', { manifestJson: undefined }],
  ])('reports a served %s that differs as a mismatch', async (field, change) => {
    expect(await verifyShareGrant(grantJson, { ...fields, ...change }, alice.signingPublicKeyB64)).toEqual({
      status: 'mismatch',
      fields: [field],
    });
  });

  it('reports a wrapped key or recipient key that differs', async () => {
    const otherCopy = await wrapFileKey(await generateFileKey(), await importPublicKeyB64(bob.publicKeyB64));
    expect(
      await verifyShareGrant(
        grantJson,
        { ...fields, encryptedFileKeyB64: otherCopy },
        alice.signingPublicKeyB64,
      ),
    ).toEqual({
      status: 'mismatch',
      fields: ['wrappedKeySha256Hex'],
    });
    expect(
      await verifyShareGrant(
        grantJson,
        { ...fields, recipientPublicKeyB64: mallory.publicKeyB64 },
        alice.signingPublicKeyB64,
      ),
    ).toEqual({ status: 'mismatch', fields: ['recipientKeySha256Hex'] });
  });

  it('checks the manifest it names against the served name and size', async () => {
    expect(
      await verifyReceivedShare(
        { ...share, file: { ...share.file, name: 'b.txt' } },
        alice.signingPublicKeyB64,
      ),
    ).toEqual({ status: 'mismatch', fields: ['name'] });
  });

  it('signs a share of a file without a manifest (uploaded before signing keys)', async () => {
    const legacy = await signShareGrant({ ...fields, manifestJson: undefined }, alice.signingPrivateKey);
    expect(JSON.parse(legacy)).toMatchObject({ manifestSha256Hex: '' });
    expect(
      await verifyShareGrant(legacy, { ...fields, manifestJson: undefined }, alice.signingPublicKeyB64),
    ).toEqual({
      status: 'valid',
    });
    expect((await verifyShareGrant(legacy, fields, alice.signingPublicKeyB64)).status).toBe('mismatch');
  });

  it('is invalid when signed by anyone but the owner', async () => {
    const forged = await signShareGrant(fields, mallory.signingPrivateKey);
    expect((await verifyShareGrant(forged, fields, alice.signingPublicKeyB64)).status).toBe(
      'invalid-signature',
    );
  });
});

describe('share grant signed again over a version 2 manifest (migration of a clear name)', () => {
  const sealed = btoa('iv and sealed name, any bytes');
  let manifestV2: string;
  beforeAll(async () => {
    manifestV2 = await signFileManifestV2(
      {
        ownerEmail: alice.email,
        ownerKeyId: alice.keyId,
        ownerEncryptedFileKeyB64: ownerCopy,
        encryptedMetadataB64: sealed,
        size: 10,
      },
      alice.signingPrivateKey,
    );
  });
  const resign = (oldGrant: string, fileId = 'file-1', oldManifestJson = fields.manifestJson) =>
    resignShareGrant(
      oldGrant,
      { fileId, oldManifestJson, newManifestJson: manifestV2 },
      alice.signingPublicKeyB64,
      alice.signingPrivateKey,
    );
  const v2Share = (grant: string, encryptedMetadataB64 = sealed): ReceivedShare => ({
    ...share,
    manifestJson: manifestV2,
    shareGrantJson: grant,
    file: { name: 'encrypted', contentType: 'application/octet-stream', size: 10, encryptedMetadataB64 },
  });

  it('keeps what the old grant said, names the new manifest, and the recipient checks the sealed metadata', async () => {
    const again = await resign(grantJson);
    const before = parseShareGrant(grantJson);
    const after = parseShareGrant(again);
    const kept = [
      'fileId',
      'ownerEmail',
      'recipientEmail',
      'recipientKeyId',
      'recipientKeySha256Hex',
    ] as const;
    for (const member of [...kept, 'wrappedKeySha256Hex'] as const) {
      expect(after?.[member]).toBe(before?.[member]);
    }
    expect(after?.manifestSha256Hex).not.toBe(before?.manifestSha256Hex);
    expect(await verifyReceivedShare(v2Share(again), alice.signingPublicKeyB64)).toEqual({ status: 'valid' });
    // The old grant does not name the new manifest: the server cannot swap the manifest alone.
    expect(await verifyReceivedShare(v2Share(grantJson), alice.signingPublicKeyB64)).toEqual({
      status: 'mismatch',
      fields: ['manifestSha256Hex'],
    });
    // Other sealed metadata than the owner signed: caught by the manifest.
    expect(await verifyReceivedShare(v2Share(again, btoa('other')), alice.signingPublicKeyB64)).toEqual({
      status: 'mismatch',
      fields: ['metadataSha256Hex'],
    });
  });

  it('refuses a grant it did not sign, for another file, or over another manifest', async () => {
    const forged = await signShareGrant(fields, mallory.signingPrivateKey);
    await expect(resign(forged)).rejects.toThrow(InvalidArgumentError);
    await expect(resign(grantJson, 'file-2')).rejects.toThrow(InvalidArgumentError);
    await expect(resign(grantJson, 'file-1', manifestV2)).rejects.toThrow(InvalidArgumentError);
    await expect(resign('{"v":1}')).rejects.toThrow(InvalidArgumentError);
  });
});
