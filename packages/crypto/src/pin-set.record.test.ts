import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from './base64.codec.js';
import { PinSetInvalidError, PinSetRollbackError } from './crypto.errors.js';
import { signBytes } from './signing-key.pair.js';
import {
  comparePin,
  emptyPinSet,
  findPin,
  openPinSet,
  pinContact,
  pinHighWaterId,
  pinSetMessage,
  sealPinSet,
  unpinContact,
  type PinSet,
} from './pin-set.record.js';
import { makeIdentity, type TestIdentity } from './testing/identities.js';

let alice: TestIdentity;
let bob: TestIdentity;
let mallory: TestIdentity;

beforeAll(async () => {
  [alice, bob, mallory] = await Promise.all([
    makeIdentity('alice@example.com'),
    makeIdentity('bob@example.com'),
    makeIdentity('mallory@example.com'),
  ]);
});

const sealKeys = () => ({ publicKeyB64: alice.publicKeyB64, signingPrivateKey: alice.signingPrivateKey });
const openKeys = (knownVersion?: number) => ({
  privateKey: alice.privateKey,
  signingPublicKeyB64: alice.signingPublicKeyB64,
  knownVersion,
});
const bobKeys = () => ({ publicKeyB64: bob.publicKeyB64, signingPublicKeyB64: bob.signingPublicKeyB64 });

function edit(json: string, name: string, value: unknown): string {
  return JSON.stringify({ ...(JSON.parse(json) as object), [name]: value });
}

describe('pin set: create, update, compare', () => {
  it('compares served keys with pins: new, match, changed', async () => {
    let pins: PinSet = emptyPinSet();
    expect(await comparePin(pins, bob.email, bob.publicKeyB64, bob.signingPublicKeyB64)).toEqual({
      status: 'new',
    });
    pins = await pinContact(pins, 'Bob@Example.com', bobKeys(), 'tofu');
    expect(pins.version).toBe(1);
    expect(findPin(pins, 'BOB@example.com')?.state).toBe('tofu');
    expect(await comparePin(pins, bob.email, bob.publicKeyB64, bob.signingPublicKeyB64)).toMatchObject({
      status: 'match',
      signingKeyUnpinned: false,
    });
    expect(await comparePin(pins, bob.email, mallory.publicKeyB64, bob.signingPublicKeyB64)).toMatchObject({
      status: 'changed',
      changed: ['publicKey'],
    });
    expect(await comparePin(pins, bob.email, bob.publicKeyB64, mallory.signingPublicKeyB64)).toMatchObject({
      status: 'changed',
      changed: ['signingKey'],
    });
    // A pinned signing key that is no longer served is a change too.
    expect(await comparePin(pins, bob.email, bob.publicKeyB64, undefined)).toMatchObject({
      status: 'changed',
      changed: ['signingKey'],
    });
  });

  it('pins a contact without a signing key, and says when one appears', async () => {
    const pins = await pinContact(emptyPinSet(), bob.email, { publicKeyB64: bob.publicKeyB64 }, 'tofu');
    expect(await comparePin(pins, bob.email, bob.publicKeyB64)).toMatchObject({
      status: 'match',
      signingKeyUnpinned: false,
    });
    expect(await comparePin(pins, bob.email, bob.publicKeyB64, bob.signingPublicKeyB64)).toMatchObject({
      status: 'match',
      signingKeyUnpinned: true,
    });
  });

  it('replaces a pin on accept or verify, and removes it, raising the version each time', async () => {
    let pins = await pinContact(emptyPinSet(), bob.email, bobKeys(), 'tofu');
    pins = await pinContact(pins, bob.email, { publicKeyB64: mallory.publicKeyB64 }, 'key-changed-accepted');
    pins = await pinContact(pins, 'carol@example.com', bobKeys(), 'verified');
    expect(pins.version).toBe(3);
    expect(pins.pins.map((pin) => [pin.email, pin.state])).toEqual([
      ['bob@example.com', 'key-changed-accepted'],
      ['carol@example.com', 'verified'],
    ]);
    pins = unpinContact(pins, 'BOB@example.com');
    expect(pins.version).toBe(4);
    expect(findPin(pins, bob.email)).toBeUndefined();
  });
});

describe('pin set: sealed for the server', () => {
  let pins: PinSet;
  let sealed: string;

  beforeAll(async () => {
    pins = await pinContact(emptyPinSet(), bob.email, bobKeys(), 'verified');
    sealed = await sealPinSet(pins, sealKeys());
  });

  it('round-trips, and the server sees no email or fingerprint', async () => {
    expect(await openPinSet(sealed, openKeys())).toEqual(pins);
    expect(sealed).not.toContain('bob');
    expect(sealed).not.toContain(pins.pins[0]?.publicKeySha256Hex);
    expect(Object.keys(JSON.parse(sealed) as object)).toEqual([
      'v',
      'type',
      'version',
      'wrappedKeyB64',
      'ivB64',
      'dataB64',
      'signatureB64',
    ]);
  });

  it('refuses an altered ciphertext, IV, wrapped key or version', async () => {
    const object = JSON.parse(sealed) as Record<string, string>;
    for (const name of ['dataB64', 'ivB64', 'wrappedKeyB64']) {
      const bytes = base64ToBytes(object[name] ?? '');
      bytes[0] = (bytes[0] ?? 0) ^ 1;
      await expect(openPinSet(edit(sealed, name, bytesToBase64(bytes)), openKeys())).rejects.toThrow(
        PinSetInvalidError,
      );
    }
    await expect(openPinSet(edit(sealed, 'version', 7), openKeys())).rejects.toThrow(PinSetInvalidError);
  });

  it('refuses a pin set the server forged with a pin key wrapped to the public key', async () => {
    // The server knows Alice's public key, so it can encrypt pins of its choice; it cannot sign.
    const forgedPins = await pinContact(
      emptyPinSet(),
      bob.email,
      { publicKeyB64: mallory.publicKeyB64 },
      'verified',
    );
    const forged = await sealPinSet(forgedPins, {
      publicKeyB64: alice.publicKeyB64,
      signingPrivateKey: mallory.signingPrivateKey,
    });
    const error = await openPinSet(forged, openKeys()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PinSetInvalidError);
    expect((error as PinSetInvalidError).message).toMatch(/not signed by your signing key/);
  });

  it("refuses another user's genuine pin set", async () => {
    const bobsPins = await sealPinSet(pins, {
      publicKeyB64: bob.publicKeyB64,
      signingPrivateKey: bob.signingPrivateKey,
    });
    await expect(openPinSet(bobsPins, openKeys())).rejects.toThrow(PinSetInvalidError);
  });

  it('refuses a rollback to an older genuine pin set', async () => {
    const newer = await pinContact(pins, 'carol@example.com', bobKeys(), 'tofu');
    const newerSealed = await sealPinSet(newer, sealKeys());
    expect((await openPinSet(newerSealed, openKeys(newer.version))).version).toBe(2);
    const error = await openPinSet(sealed, openKeys(newer.version)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PinSetRollbackError);
    expect(error).toMatchObject({ code: 'PIN_SET_ROLLBACK', servedVersion: 1, knownVersion: 2 });
  });

  it('binds the version into the ciphertext as well as the signature', async () => {
    // Even a blob re-signed under a new version (which only the user can sign) does not open: the
    // old ciphertext was sealed with the old version in its AAD.
    const object = JSON.parse(sealed) as Record<string, string>;
    const parts = ['wrappedKeyB64', 'ivB64', 'dataB64'].map((name) => base64ToBytes(object[name] ?? ''));
    const [wrapped = new Uint8Array(0), iv = new Uint8Array(0), data = new Uint8Array(0)] = parts;
    const signature = await signBytes(alice.signingPrivateKey, pinSetMessage(5, wrapped, iv, data));
    const resigned = JSON.stringify({ ...object, version: 5, signatureB64: bytesToBase64(signature) });
    const error = await openPinSet(resigned, openKeys()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PinSetInvalidError);
    expect((error as PinSetInvalidError).message).toMatch(/cannot be decrypted/);
  });

  it('refuses malformed blobs', async () => {
    for (const json of [
      '{',
      '[]',
      edit(sealed, 'extra', 1),
      edit(sealed, 'ivB64', 'AAAA'),
      edit(sealed, 'version', -1),
    ]) {
      await expect(openPinSet(json, openKeys())).rejects.toThrow(PinSetInvalidError);
    }
  });
});

describe('pin set: the device high-water mark', () => {
  it('is named by a hash of the signing key, not by the email', async () => {
    const id = await pinHighWaterId(alice.signingPublicKeyB64);
    // Rebuilt with Node's own SHA-256 from docs/encryption.md section 10.
    const expected = createHash('sha256')
      .update('coffer-v1/pin-high-water')
      .update(base64ToBytes(alice.signingPublicKeyB64))
      .digest('hex');
    expect(id).toBe(expected);
    expect(id).not.toContain('alice');
    expect(await pinHighWaterId(bob.signingPublicKeyB64)).not.toBe(id);
    await expect(pinHighWaterId('not base64!')).rejects.toThrow();
  });
});
