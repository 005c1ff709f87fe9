import { PinSetInvalidError, PinSetRollbackError, sealPinSet, pinContact, emptyPinSet } from '@coffer/crypto';
import type { PutPinSetRequest } from '@coffer/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { PinBook, type PinBookKeys, type PinsPort, type PinVersionStore } from './pin-book';
import { makeTrustIdentity, type TrustIdentity } from './testing/trust-identities';

let alice: TrustIdentity;
let bob: TrustIdentity;
let mallory: TrustIdentity;

beforeAll(async () => {
  [alice, bob, mallory] = await Promise.all([
    makeTrustIdentity('alice@example.com'),
    makeTrustIdentity('bob@example.com'),
    makeTrustIdentity('mallory@example.com'),
  ]);
});

/** The server side: stores whatever it is given (and can be made to serve something else). */
class FakePinsServer implements PinsPort {
  stored: string | null = null;
  readonly puts: PutPinSetRequest[] = [];
  get(): Promise<string | null> {
    return Promise.resolve(this.stored);
  }
  put(body: PutPinSetRequest): Promise<void> {
    this.puts.push(body);
    this.stored = body.pinSet;
    return Promise.resolve();
  }
}

class MemoryVersions implements PinVersionStore {
  version = 0;
  get(): Promise<number> {
    return Promise.resolve(this.version);
  }
  raise(version: number): Promise<void> {
    this.version = Math.max(this.version, version);
    return Promise.resolve();
  }
}

const keysOf = (identity: TrustIdentity): PinBookKeys => ({
  publicKeyB64: identity.publicKeyB64,
  privateKey: identity.privateKey,
  signingPublicKeyB64: identity.signingPublicKeyB64,
  signingPrivateKey: identity.signingPrivateKey,
});
const bobServed = () => ({ publicKeyB64: bob.publicKeyB64, signingPublicKeyB64: bob.signingPublicKeyB64 });

describe('PinBook', () => {
  it('starts empty, pins, stores with compare-and-swap versions, and reopens', async () => {
    const server = new FakePinsServer();
    const versions = new MemoryVersions();
    const book = await PinBook.open(server, versions, keysOf(alice));
    expect(book.pins.pins).toEqual([]);
    await book.pin(bob.email, bobServed(), 'tofu');
    await book.pin(bob.email, bobServed(), 'verified');
    expect(server.puts.map((put) => put.previousVersion)).toEqual([null, 1]);
    expect(versions.version).toBe(2);
    const reopened = await PinBook.open(server, versions, keysOf(alice));
    expect(reopened.pins).toEqual(book.pins);
    await reopened.unpin(bob.email);
    expect(reopened.pins.pins).toEqual([]);
    expect(versions.version).toBe(3);
  });

  it('refuses pins the server forged', async () => {
    const server = new FakePinsServer();
    const forged = await pinContact(
      emptyPinSet(),
      bob.email,
      { publicKeyB64: mallory.publicKeyB64 },
      'verified',
    );
    server.stored = await sealPinSet(forged, {
      publicKeyB64: alice.publicKeyB64,
      signingPrivateKey: mallory.signingPrivateKey,
    });
    await expect(PinBook.open(server, new MemoryVersions(), keysOf(alice))).rejects.toThrow(
      PinSetInvalidError,
    );
  });

  it('refuses a rollback to an older pin set, or to none, on a device that saw a newer one', async () => {
    const server = new FakePinsServer();
    const versions = new MemoryVersions();
    const book = await PinBook.open(server, versions, keysOf(alice));
    await book.pin(bob.email, bobServed(), 'tofu');
    const old = server.stored;
    await book.pin('carol@example.com', bobServed(), 'tofu');
    server.stored = old;
    await expect(PinBook.open(server, versions, keysOf(alice))).rejects.toThrow(PinSetRollbackError);
    server.stored = null;
    await expect(PinBook.open(server, versions, keysOf(alice))).rejects.toThrow(PinSetRollbackError);
  });
});
