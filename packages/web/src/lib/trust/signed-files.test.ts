import {
  buildOwnerEncryptionInfo,
  generateFileKey,
  importPublicKeyB64,
  rewrapFileKey,
  wrapFileKey,
} from '@coffer/crypto';
import type { FileMetadata, SharedFileMetadata } from '@coffer/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkOwnFile,
  checkSharedFile,
  signatureBadge,
  signedShareRequest,
  signUploadManifest,
  type Me,
} from './signed-files';
import { makeTrustIdentity, type TrustIdentity } from './testing/trust-identities';

let alice: TrustIdentity;
let bob: TrustIdentity;
let mallory: TrustIdentity;
let file: FileMetadata;
let shared: SharedFileMetadata;
let bobMe: Me;

beforeAll(async () => {
  [alice, bob, mallory] = await Promise.all([
    makeTrustIdentity('alice@example.com'),
    makeTrustIdentity('bob@example.com'),
    makeTrustIdentity('mallory@example.com'),
  ]);
  const ownerCopy = await wrapFileKey(await generateFileKey(), await importPublicKeyB64(alice.publicKeyB64));
  const encryptionInfo = buildOwnerEncryptionInfo(alice.keyId, ownerCopy);
  const upload = { name: 'plan.pdf', contentType: 'application/pdf', size: 1234, encryptionInfo };
  const manifest = await signUploadManifest(upload, alice.email, alice.signingPrivateKey);
  file = {
    fileId: 'file-1',
    name: upload.name,
    originalFilename: upload.name,
    contentType: upload.contentType,
    size: upload.size,
    isEncrypted: true,
    encryptionInfo,
    uploadedAt: '2026-01-01T00:00:00.000Z',
    manifest,
  };
  const bobCopy = await rewrapFileKey(
    ownerCopy,
    alice.privateKey,
    await importPublicKeyB64(bob.publicKeyB64),
  );
  const request = await signedShareRequest(
    {
      fileId: file.fileId,
      file,
      recipientEmail: bob.email,
      recipientKeyId: bob.keyId,
      recipientPublicKeyB64: bob.publicKeyB64,
      encryptedFileKeyB64: bobCopy,
    },
    alice.email,
    alice.signingPrivateKey,
  );
  expect(request).toMatchObject({ email: bob.email, encryptedFileKey: bobCopy, keyVersion: bob.keyId });
  // What the server serves Bob for that share (its encryptionInfo carries Bob's copy).
  shared = {
    file: { ...file, encryptionInfo: { ...encryptionInfo, version: bob.keyId, encryptedFileKey: bobCopy } },
    owner: alice.email,
    encryptedFileKey: bobCopy,
    shareGrant: request.shareGrant,
  };
  bobMe = { email: bob.email, keyId: bob.keyId, publicKeyB64: bob.publicKeyB64 };
});

describe('signed files', () => {
  it('my own file verifies, and a renamed one does not', async () => {
    expect(await checkOwnFile(file, alice.email, alice.signingPublicKeyB64)).toEqual({ status: 'valid' });
    expect(
      await checkOwnFile({ ...file, name: 'invoice.pdf' }, alice.email, alice.signingPublicKeyB64),
    ).toEqual({
      status: 'mismatch',
      fields: ['name'],
    });
    expect(
      await checkOwnFile({ ...file, manifest: undefined }, alice.email, alice.signingPublicKeyB64),
    ).toEqual({
      status: 'unsigned',
    });
  });

  it('without my signing key (adding it failed): my files are unsigned, never verified', async () => {
    expect(await checkOwnFile({ ...file, manifest: undefined }, alice.email, undefined)).toEqual({
      status: 'unsigned',
    });
    const withManifest = await checkOwnFile(file, alice.email, undefined);
    expect(withManifest.status).toBe('invalid-signature');
    expect(signatureBadge(withManifest, 'you').canOpen).toBe(false);
  });

  it('a file shared with me verifies against the owner’s key', async () => {
    expect(await checkSharedFile('file-1', shared, bobMe, alice.signingPublicKeyB64)).toEqual({
      status: 'valid',
    });
  });

  it('an injected share is refused: wrong id, other key, forged signer, resized', async () => {
    expect((await checkSharedFile('file-2', shared, bobMe, alice.signingPublicKeyB64)).status).toBe(
      'mismatch',
    );
    const otherKey = await wrapFileKey(await generateFileKey(), await importPublicKeyB64(bob.publicKeyB64));
    expect(
      await checkSharedFile(
        'file-1',
        { ...shared, encryptedFileKey: otherKey },
        bobMe,
        alice.signingPublicKeyB64,
      ),
    ).toEqual({
      status: 'mismatch',
      fields: ['wrappedKeySha256Hex'],
    });
    expect((await checkSharedFile('file-1', shared, bobMe, mallory.signingPublicKeyB64)).status).toBe(
      'invalid-signature',
    );
    expect(
      await checkSharedFile(
        'file-1',
        { ...shared, file: { ...shared.file, size: 99 } },
        bobMe,
        alice.signingPublicKeyB64,
      ),
    ).toEqual({ status: 'mismatch', fields: ['size'] });
  });

  it('a share made before my encryption reset is refused with its reason, not as forged', async () => {
    const fresh = await makeTrustIdentity('bob@example.com');
    const resetMe = { email: bob.email, keyId: `${bob.keyId}-reset`, publicKeyB64: fresh.publicKeyB64 };
    const check = await checkSharedFile('file-1', shared, resetMe, alice.signingPublicKeyB64);
    expect(signatureBadge(check, 'alice@example.com')).toEqual({
      tone: 'stale',
      text: 'Shared before you reset your encryption; ask alice@example.com to share it again',
      canOpen: false,
      askFirst: false,
    });
  });

  it('the same share opened by Mallory (redirected by the server) is refused', async () => {
    const malloryMe = { email: mallory.email, keyId: mallory.keyId, publicKeyB64: mallory.publicKeyB64 };
    expect((await checkSharedFile('file-1', shared, malloryMe, alice.signingPublicKeyB64)).status).toBe(
      'mismatch',
    );
  });

  it('words each outcome, and only valid or unsigned items can open', () => {
    expect(signatureBadge({ status: 'valid' }, 'alice@example.com')).toEqual({
      tone: 'verified',
      text: 'Signed by alice@example.com',
      canOpen: true,
      askFirst: false,
    });
    expect(signatureBadge({ status: 'unsigned' }, 'alice@example.com')).toMatchObject({
      tone: 'unsigned',
      canOpen: true,
      askFirst: true,
    });
    expect(signatureBadge({ status: 'invalid-signature', reason: 'x' }, 'alice@example.com')).toMatchObject({
      tone: 'danger',
      canOpen: false,
    });
    expect(
      signatureBadge({ status: 'mismatch', fields: ['name', 'size', 'storedSize'] }, 'alice@example.com'),
    ).toEqual({
      tone: 'danger',
      text: 'Changed after alice@example.com signed it (name, size)',
      canOpen: false,
      askFirst: false,
    });
  });
});
