import { beforeAll, describe, expect, it } from 'vitest';
import { concatBytes } from './bytes.util.js';
import { decryptStream, encryptStream } from './content.streams.js';
import { encryptedSize } from './content-size.math.js';
import {
  IntegrityError,
  KdfDowngradeError,
  KeyMismatchError,
  PinSetInvalidError,
  PinSetRollbackError,
  WrongPasswordError,
} from './crypto.errors.js';
import { generateFileKey, rewrapFileKey, unwrapFileKey, wrapFileKey } from './file-key.wrap.js';
import { signFileManifest, verifyFileManifest, type ServedFileFields } from './file-manifest.record.js';
import { verifyKeyBinding } from './key-binding.record.js';
import { publicKeyFingerprint } from './key.fingerprint.js';
import { importPublicKeyB64 } from './key-pair.rsa.js';
import { assertOwnKeys, type OwnKeys } from './own-key.check.js';
import {
  comparePin,
  emptyPinSet,
  openPinSet,
  pinContact,
  sealPinSet,
  type PinSet,
} from './pin-set.record.js';
import { signShareGrant, verifyReceivedShare, type ReceivedShare } from './share-grant.record.js';
import { makeIdentity, TEST_PASSWORD, type TestIdentity } from './testing/identities.js';
import { patternBytes, runTransform } from './testing/stream.helpers.js';
import { parsePrivateKeyRecord } from './private-key.record.js';
import { createUserKeys, unlockUserKeys } from './user-keys.setup.js';

// The server (or whoever controls its database and blob store) is the attacker here. Each test
// takes what an honest server would serve, changes it the way a compromised one would, and shows
// the check the client runs catching it with a clear, typed outcome. The web app runs the same
// checks through packages/web/src/lib.

const C = 64; // a small chunk size so that files have several chunks
const SIZE = 3 * C + 10;

interface StoredFile {
  fileId: string;
  name: string;
  contentType: string;
  size: number;
  ownerKeyId: string;
  ownerEncryptedFileKeyB64: string;
  manifestJson: string;
  blob: Uint8Array;
}

interface StoredShare {
  fileId: string;
  ownerEmail: string;
  recipientEmail: string;
  recipientKeyId: string;
  recipientPublicKeyB64: string;
  encryptedFileKeyB64: string;
  shareGrantJson: string;
}

let alice: TestIdentity;
let bob: TestIdentity;
let mallory: TestIdentity;
let report: StoredFile;
let photo: StoredFile;
let reportShare: StoredShare;
let photoShare: StoredShare;

async function upload(owner: TestIdentity, fileId: string, name: string, seed: number): Promise<StoredFile> {
  const fileKey = await generateFileKey();
  const ownerEncryptedFileKeyB64 = await wrapFileKey(fileKey, await importPublicKeyB64(owner.publicKeyB64));
  const blob = await runTransform(encryptStream(fileKey, { chunkSize: C }), [patternBytes(SIZE, seed)]);
  const fields = { name, contentType: 'application/pdf', size: SIZE };
  const manifestJson = await signFileManifest(
    { ...fields, ownerEmail: owner.email, ownerKeyId: owner.keyId, ownerEncryptedFileKeyB64, chunkSize: C },
    owner.signingPrivateKey,
  );
  return { fileId, ...fields, ownerKeyId: owner.keyId, ownerEncryptedFileKeyB64, manifestJson, blob };
}

async function share(owner: TestIdentity, file: StoredFile, recipient: TestIdentity): Promise<StoredShare> {
  const encryptedFileKeyB64 = await rewrapFileKey(
    file.ownerEncryptedFileKeyB64,
    owner.privateKey,
    await importPublicKeyB64(recipient.publicKeyB64),
  );
  const fields = {
    fileId: file.fileId,
    ownerEmail: owner.email,
    recipientEmail: recipient.email,
    recipientKeyId: recipient.keyId,
    recipientPublicKeyB64: recipient.publicKeyB64,
    encryptedFileKeyB64,
  };
  const shareGrantJson = await signShareGrant(
    { ...fields, manifestJson: file.manifestJson },
    owner.signingPrivateKey,
  );
  return { ...fields, shareGrantJson };
}

/** What Bob's app checks about a file shared with him, from what the server serves. */
function received(served: StoredShare, file: StoredFile): ReceivedShare {
  return {
    ...served,
    // Bob's own identity, not the server's claim: the app knows who is signed in and its own key.
    recipientEmail: bob.email,
    recipientKeyId: bob.keyId,
    recipientPublicKeyB64: bob.publicKeyB64,
    manifestJson: file.manifestJson,
    file: {
      name: file.name,
      contentType: file.contentType,
      size: file.size,
      chunkSize: C,
      storedSize: file.blob.length,
    },
  };
}

function ownerView(file: StoredFile): ServedFileFields {
  return {
    ownerEmail: alice.email,
    name: file.name,
    contentType: file.contentType,
    size: file.size,
    chunkSize: C,
    storedSize: file.blob.length,
    ownerKeyId: file.ownerKeyId,
    ownerEncryptedFileKeyB64: file.ownerEncryptedFileKeyB64,
  };
}

beforeAll(async () => {
  [alice, bob, mallory] = await Promise.all([
    makeIdentity('alice@example.com'),
    makeIdentity('bob@example.com'),
    makeIdentity('mallory@example.com'),
  ]);
  [report, photo] = await Promise.all([
    upload(alice, 'file-1', 'report.pdf', 1),
    upload(alice, 'file-2', 'photo.pdf', 2),
  ]);
  [reportShare, photoShare] = await Promise.all([share(alice, report, bob), share(alice, photo, bob)]);
});

describe('honest server (control)', () => {
  it('every check passes and Bob can decrypt', async () => {
    expect(await verifyReceivedShare(received(reportShare, report), alice.signingPublicKeyB64)).toEqual({
      status: 'valid',
    });
    expect(
      await verifyFileManifest(report.manifestJson, ownerView(report), alice.signingPublicKeyB64),
    ).toEqual({
      status: 'valid',
    });
    const fileKey = await unwrapFileKey(reportShare.encryptedFileKeyB64, bob.privateKey);
    expect(await runTransform(decryptStream(fileKey, { chunkSize: C }), [report.blob])).toEqual(
      patternBytes(SIZE, 1),
    );
  });
});

describe('contact key substitution', () => {
  let pins: PinSet;

  beforeAll(async () => {
    // Alice added Bob while the server was honest: his keys are pinned on first use.
    pins = await pinContact(
      emptyPinSet(),
      bob.email,
      { publicKeyB64: bob.publicKeyB64, signingPublicKeyB64: bob.signingPublicKeyB64 },
      'tofu',
    );
  });

  it("after pinning: Bob's key swapped for Mallory's is 'changed', so sharing stays blocked", async () => {
    const comparison = await comparePin(pins, bob.email, mallory.publicKeyB64, bob.signingPublicKeyB64);
    expect(comparison).toMatchObject({ status: 'changed', changed: ['publicKey'] });
  });

  it("after pinning: Bob's whole key record swapped (both keys, Mallory's binding) is 'changed'", async () => {
    const comparison = await comparePin(pins, bob.email, mallory.publicKeyB64, mallory.signingPublicKeyB64);
    expect(comparison).toMatchObject({ status: 'changed', changed: ['publicKey', 'signingKey'] });
  });

  it("before pinning: Mallory's genuine key record served as Bob's fails the key binding (email)", async () => {
    const check = await verifyKeyBinding(mallory.keyBindingJson, {
      email: bob.email,
      keyId: mallory.keyId,
      publicKeyB64: mallory.publicKeyB64,
      signingPublicKeyB64: mallory.signingPublicKeyB64,
    });
    expect(check).toEqual({ status: 'mismatch', fields: ['email'] });
  });

  it("before pinning: Bob's binding served with Mallory's RSA key fails the key binding", async () => {
    const check = await verifyKeyBinding(bob.keyBindingJson, {
      email: bob.email,
      keyId: bob.keyId,
      publicKeyB64: mallory.publicKeyB64,
      signingPublicKeyB64: bob.signingPublicKeyB64,
    });
    expect(check).toEqual({ status: 'mismatch', fields: ['publicKeySha256Hex'] });
  });

  it('before pinning: a fully forged record for Bob is caught by comparing safety numbers', async () => {
    // A server that makes up a whole identity for Bob (its own keys, its own binding naming Bob)
    // passes every automatic check on first sight: that is what trust on first use means. The
    // safety number Alice sees then differs from the one on Bob's own Profile page.
    const forged = await makeIdentity(bob.email, bob.keyId);
    expect(
      await verifyKeyBinding(forged.keyBindingJson, {
        email: bob.email,
        keyId: bob.keyId,
        publicKeyB64: forged.publicKeyB64,
        signingPublicKeyB64: forged.signingPublicKeyB64,
      }),
    ).toEqual({ status: 'valid' });
    expect(await publicKeyFingerprint(forged.publicKeyB64)).not.toBe(
      await publicKeyFingerprint(bob.publicKeyB64),
    );
  });
});

describe("the user's own keys", () => {
  const own = (overrides: Partial<OwnKeys> = {}): OwnKeys => ({
    keyId: alice.keyId,
    email: alice.email,
    publicKeyB64: alice.publicKeyB64,
    privateKey: alice.privateKey,
    signing: {
      signingPublicKeyB64: alice.signingPublicKeyB64,
      signingPrivateKey: alice.signingPrivateKey,
      keyBindingJson: alice.keyBindingJson,
    },
    ...overrides,
  });

  it('own public key swapped: refused at unlock with KeyMismatchError', async () => {
    await expect(assertOwnKeys(own())).resolves.toBeUndefined();
    await expect(assertOwnKeys(own({ publicKeyB64: mallory.publicKeyB64 }))).rejects.toThrow(
      KeyMismatchError,
    );
  });

  it('own signing key swapped: refused at unlock with KeyMismatchError', async () => {
    const signing = {
      signingPublicKeyB64: mallory.signingPublicKeyB64,
      signingPrivateKey: alice.signingPrivateKey,
      keyBindingJson: alice.keyBindingJson,
    };
    await expect(assertOwnKeys(own({ signing }))).rejects.toThrow(KeyMismatchError);
  });

  it('KDF parameters downgraded in the private key record: refused before deriving', async () => {
    const weak = JSON.stringify({
      ...(JSON.parse(alice.encryptedPrivateKeyJson) as object),
      kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: 1000 },
    });
    const error = await unlockUserKeys(TEST_PASSWORD, weak, alice.encryptedSigningKeyJson).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KdfDowngradeError);
    expect((error as KdfDowngradeError).message).toMatch(/fewer than the minimum 100000/);
  });

  it('kdf dropped from a record: read as the spec’s 100000, never fewer, so it fails to open', async () => {
    // 600000 iterations, as Coffer wrote records before Argon2id (issue 29).
    const keys = await createUserKeys(TEST_PASSWORD, { iterations: 600_000 });
    const rest = JSON.parse(keys.encryptedPrivateKeyJson) as Record<string, unknown>;
    delete rest.kdf;
    expect(parsePrivateKeyRecord(JSON.stringify(rest)).iterations).toBe(100_000);
    await expect(unlockUserKeys(TEST_PASSWORD, JSON.stringify(rest))).rejects.toThrow(WrongPasswordError);
  });
});

describe('pins held by the server', () => {
  let pins: PinSet;
  let sealed: string;

  beforeAll(async () => {
    pins = await pinContact(
      emptyPinSet(),
      bob.email,
      { publicKeyB64: bob.publicKeyB64, signingPublicKeyB64: bob.signingPublicKeyB64 },
      'verified',
    );
    sealed = await sealPinSet(pins, {
      publicKeyB64: alice.publicKeyB64,
      signingPrivateKey: alice.signingPrivateKey,
    });
  });

  const openKeys = (knownVersion = 0) => ({
    privateKey: alice.privateKey,
    signingPublicKeyB64: alice.signingPublicKeyB64,
    knownVersion,
  });

  it("replaced by pins the server made (Mallory's key for Bob): refused", async () => {
    const forged = await pinContact(
      emptyPinSet(),
      bob.email,
      { publicKeyB64: mallory.publicKeyB64 },
      'verified',
    );
    const blob = await sealPinSet(forged, {
      publicKeyB64: alice.publicKeyB64,
      signingPrivateKey: mallory.signingPrivateKey,
    });
    await expect(openPinSet(blob, openKeys())).rejects.toThrow(PinSetInvalidError);
  });

  it('rolled back to an older genuine version: refused by a client that saw the newer one', async () => {
    const newer = await pinContact(pins, 'carol@example.com', { publicKeyB64: mallory.publicKeyB64 }, 'tofu');
    await sealPinSet(newer, { publicKeyB64: alice.publicKeyB64, signingPrivateKey: alice.signingPrivateKey });
    await expect(openPinSet(sealed, openKeys(newer.version))).rejects.toThrow(PinSetRollbackError);
  });
});

describe('injected and altered shares', () => {
  it("a share injected with Alice's wrapped key for another file: wrapped key mismatch", async () => {
    // The server serves file-1 with the key Bob received for file-2 (and file-1's own grant).
    const injected = { ...reportShare, encryptedFileKeyB64: photoShare.encryptedFileKeyB64 };
    expect(await verifyReceivedShare(received(injected, report), alice.signingPublicKeyB64)).toEqual({
      status: 'mismatch',
      fields: ['wrappedKeySha256Hex'],
    });
  });

  it("file-2's whole share served as file-1: the grant names another file and manifest", async () => {
    const relabelled = { ...photoShare, fileId: report.fileId };
    expect(await verifyReceivedShare(received(relabelled, report), alice.signingPublicKeyB64)).toEqual({
      status: 'mismatch',
      fields: ['fileId', 'manifestSha256Hex'],
    });
  });

  it('a share injected without a signature: unsigned, shown as unverifiable', async () => {
    const stripped = { ...reportShare, shareGrantJson: undefined };
    expect(
      await verifyReceivedShare(
        { ...received(reportShare, report), shareGrantJson: stripped.shareGrantJson },
        alice.signingPublicKeyB64,
      ),
    ).toEqual({
      status: 'unsigned',
    });
  });

  it("a share signed by the server's key, claiming to come from Alice: invalid signature", async () => {
    const forgedGrant = await signShareGrant(
      { ...reportShare, manifestJson: report.manifestJson },
      mallory.signingPrivateKey,
    );
    const check = await verifyReceivedShare(
      { ...received(reportShare, report), shareGrantJson: forgedGrant },
      alice.signingPublicKeyB64,
    );
    expect(check).toEqual({
      status: 'invalid-signature',
      reason: 'the share grant signature does not verify',
    });
  });

  it("Alice's share for Bob redirected to Mallory: recipient mismatch in Mallory's app", async () => {
    const malloryView: ReceivedShare = {
      ...received(reportShare, report),
      recipientEmail: mallory.email,
      recipientKeyId: mallory.keyId,
      recipientPublicKeyB64: mallory.publicKeyB64,
    };
    expect(await verifyReceivedShare(malloryView, alice.signingPublicKeyB64)).toEqual({
      status: 'mismatch',
      fields: ['recipientEmail', 'recipientKeyId', 'recipientKeySha256Hex'],
    });
  });
});

describe('altered file metadata', () => {
  it.each([
    ['name', { name: 'invoice.pdf' }],
    ['contentType', { contentType: 'text/html' }],
    ['size', { size: SIZE - 1 }],
    ['chunkSize', { chunkSize: 2 * C }],
    ['storedSize', { storedSize: encryptedSize(SIZE, C) - (C + 28) }],
  ])('%s changed: mismatch for the owner and for the recipient', async (field, change) => {
    expect(
      await verifyFileManifest(
        report.manifestJson,
        { ...ownerView(report), ...change },
        alice.signingPublicKeyB64,
      ),
    ).toEqual({ status: 'mismatch', fields: [field] });
    const recipient = received(reportShare, report);
    expect(
      await verifyReceivedShare(
        { ...recipient, file: { ...recipient.file, ...change } },
        alice.signingPublicKeyB64,
      ),
    ).toEqual({ status: 'mismatch', fields: [field] });
  });

  it('a file injected into My Files with a manifest signed by the server: invalid signature', async () => {
    const injected = await upload(mallory, 'file-9', 'urgent.pdf', 9);
    const check = await verifyFileManifest(
      injected.manifestJson,
      { ...ownerView(injected), ownerEmail: alice.email },
      alice.signingPublicKeyB64,
    );
    expect(check.status).toBe('invalid-signature');
  });

  it('a file injected into My Files without a manifest: unsigned, labelled as such', async () => {
    expect(await verifyFileManifest(undefined, ownerView(report), alice.signingPublicKeyB64)).toEqual({
      status: 'unsigned',
    });
  });

  it("the owner's wrapped key swapped for another file's: mismatch", async () => {
    const check = await verifyFileManifest(
      report.manifestJson,
      { ...ownerView(report), ownerEncryptedFileKeyB64: photo.ownerEncryptedFileKeyB64 },
      alice.signingPublicKeyB64,
    );
    expect(check).toEqual({ status: 'mismatch', fields: ['ownerWrappedKeySha256Hex'] });
  });
});

describe('altered content (the stream decryptor)', () => {
  const FULL = C + 28;
  const chunk = (blob: Uint8Array, i: number): Uint8Array => blob.subarray(i * FULL, (i + 1) * FULL);

  async function expectIntegrityError(blob: Uint8Array): Promise<void> {
    const fileKey = await unwrapFileKey(reportShare.encryptedFileKeyB64, bob.privateKey);
    const error = await runTransform(decryptStream(fileKey, { chunkSize: C }), [blob]).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(IntegrityError);
    expect((error as IntegrityError).message).toBe('file is corrupted or was tampered with');
  }

  it('chunks reordered', async () => {
    const b = report.blob;
    await expectIntegrityError(concatBytes([chunk(b, 1), chunk(b, 0), chunk(b, 2), chunk(b, 3)]));
  });

  it('a chunk duplicated in place of another', async () => {
    const b = report.blob;
    await expectIntegrityError(concatBytes([chunk(b, 0), chunk(b, 0), chunk(b, 2), chunk(b, 3)]));
  });

  it('a chunk dropped', async () => {
    const b = report.blob;
    await expectIntegrityError(concatBytes([chunk(b, 0), chunk(b, 2), chunk(b, 3)]));
  });

  it('truncated at a chunk boundary and inside a chunk', async () => {
    await expectIntegrityError(report.blob.subarray(0, 3 * FULL));
    await expectIntegrityError(report.blob.subarray(0, report.blob.length - 3));
  });

  it('a chunk appended (from the same file, and from another file)', async () => {
    await expectIntegrityError(concatBytes([report.blob, chunk(report.blob, 3)]));
    await expectIntegrityError(concatBytes([report.blob, chunk(photo.blob, 3)]));
  });

  it('a chunk taken from another file of the same owner, at the same index', async () => {
    const b = report.blob;
    await expectIntegrityError(concatBytes([chunk(b, 0), chunk(photo.blob, 1), chunk(b, 2), chunk(b, 3)]));
  });

  it("another file's whole blob served for this file", async () => {
    await expectIntegrityError(photo.blob);
  });
});
