import type { PutPinSetRequest } from '@coffer/contracts';
import { findPin, PinSetRollbackError } from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import { createMemoryPinHighWater, pinVersionsOf, type PinHighWaterStore } from './pin-high-water';
import { createTrustSession, MISSING_SIGNING_KEY, type TrustKeys } from './trust-session';
import { makeTrustIdentity, servedKeyOf, type TrustIdentity } from './testing/trust-identities';

class PinsServer {
  stored: string | null = null;
  version: number | null = null;
  puts = 0;
  get = (): Promise<string | null> => Promise.resolve(this.stored);
  put = (body: PutPinSetRequest): Promise<void> => {
    this.puts += 1;
    if (body.previousVersion !== this.version) {
      return Promise.reject(Object.assign(new Error('conflict'), { status: 409 }));
    }
    this.stored = body.pinSet;
    this.version = (this.version ?? 0) + 1;
    return Promise.resolve();
  };
}

function sessionOf(
  server: PinsServer,
  keys: () => TrustKeys | typeof MISSING_SIGNING_KEY | null,
  marks: PinHighWaterStore,
) {
  return createTrustSession({
    pins: server,
    versions: (own) => pinVersionsOf(marks, own.signingPublicKeyB64),
    keys,
  });
}

async function setup() {
  const me = await makeTrustIdentity('alice@example.com');
  const keys: TrustKeys = { ...me };
  const server = new PinsServer();
  const marks = createMemoryPinHighWater();
  const trust = sessionOf(server, () => keys, marks);
  return { trust, server, marks, keys, me };
}

/** Bob as first seen: set up before signing keys, so his lookup has no signing key. */
function withoutSigningKey(identity: TrustIdentity) {
  return { publicKey: identity.publicKeyB64, keyId: identity.keyId };
}

describe('trust session', () => {
  it('pins a contact on first sight, then flags a swapped key until it is accepted', async () => {
    const { trust, server } = await setup();
    const bob = await makeTrustIdentity('bob@example.com');
    const mallory = await makeTrustIdentity('bob@example.com', 'key-evil');
    expect((await trust.checkContact(bob.email, servedKeyOf(bob))).state).toBe('tofu');
    expect(server.puts).toBe(1);
    const swapped = await trust.checkContact(bob.email, servedKeyOf(mallory));
    expect(swapped).toMatchObject({ state: 'key-changed', canShare: false });
    await trust.pin(bob.email, servedKeyOf(mallory), 'key-changed-accepted');
    expect(await trust.checkContact(bob.email, servedKeyOf(mallory))).toMatchObject({
      state: 'key-changed-accepted',
      canShare: true,
    });
    await trust.pin(bob.email, servedKeyOf(mallory), 'verified');
    expect((await trust.checkContact(bob.email, servedKeyOf(mallory))).state).toBe('verified');
  });

  it('writes pins for several contacts one after another', async () => {
    const { trust, server } = await setup();
    const people = await Promise.all(
      ['b@example.com', 'c@example.com', 'd@example.com'].map((email) => makeTrustIdentity(email)),
    );
    const states = await Promise.all(people.map((p) => trust.checkContact(p.email, servedKeyOf(p))));
    expect(states.map((s) => s.state)).toEqual(['tofu', 'tofu', 'tofu']);
    expect(server.version).toBe(3);
    // Checked again at once (several cards of one contact): pinned once, not once per check.
    const [first] = people;
    if (first === undefined) throw new Error('no people');
    await Promise.all([1, 2, 3].map(() => trust.checkContact(first.email, servedKeyOf(first))));
    expect(server.version).toBe(3);
  });

  it('remembers the highest version and refuses a rolled-back copy', async () => {
    const { trust, server, marks, keys } = await setup();
    const bob = await makeTrustIdentity('bob@example.com');
    const carol = await makeTrustIdentity('carol@example.com');
    await trust.checkContact(bob.email, servedKeyOf(bob));
    const old = server.stored;
    await trust.checkContact(carol.email, servedKeyOf(carol));
    server.stored = old;
    const reopened = sessionOf(server, () => ({ ...keys }), marks);
    await expect(reopened.open()).rejects.toThrow(PinSetRollbackError);
  });

  it('keeps one mark per signing key: a reset (new keys) starts from an empty pin set', async () => {
    const { trust, server, marks } = await setup();
    const bob = await makeTrustIdentity('bob@example.com');
    await trust.checkContact(bob.email, servedKeyOf(bob));
    // The user reset encryption: new keys, and the server dropped the pins sealed to the old ones.
    const renewed = await makeTrustIdentity('alice@example.com', 'key-2');
    server.stored = null;
    server.version = null;
    const afterReset = sessionOf(server, () => ({ ...renewed }), marks);
    expect((await afterReset.checkContact(bob.email, servedKeyOf(bob))).state).toBe('tofu');
  });

  it('pins a contact’s signing key when it appears later, bound to the pinned key', async () => {
    const { trust, server } = await setup();
    const bob = await makeTrustIdentity('bob@example.com');
    await trust.pin(bob.email, withoutSigningKey(bob), 'verified');
    const book = await trust.open();
    expect(findPin(book?.pins ?? { version: 0, pins: [] }, bob.email)?.signingKeySha256Hex).toBeNull();

    // Bob unlocks once more and gets his signing key; Alice's next check pins it, still verified.
    const checked = await trust.checkContact(bob.email, servedKeyOf(bob));
    expect(checked).toMatchObject({ state: 'verified', canShare: true });
    expect(checked.signingPublicKeyB64).toBe(bob.signingPublicKeyB64);
    expect(findPin((await trust.open())?.pins ?? { version: 0, pins: [] }, bob.email)).toMatchObject({
      state: 'verified',
      signingKeySha256Hex: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
    });
    const version = server.version;

    // From now on another signing key for Bob is a changed key, whatever binding it carries.
    const mallory = await makeTrustIdentity('bob@example.com', bob.keyId);
    const forged = { ...servedKeyOf(mallory), publicKey: bob.publicKeyB64 };
    expect(await trust.checkContact(bob.email, forged)).toMatchObject({ canShare: false });
    const mixed = {
      ...servedKeyOf(bob),
      signingPublicKey: mallory.signingPublicKeyB64,
      keyBinding: mallory.keyBindingJson,
    };
    expect(await trust.checkContact(bob.email, mixed)).toMatchObject({ canShare: false });
    expect(server.version).toBe(version);
  });

  it('does not pin a signing key whose binding names another key', async () => {
    const { trust } = await setup();
    const bob = await makeTrustIdentity('bob@example.com');
    const mallory = await makeTrustIdentity('bob@example.com', bob.keyId);
    await trust.pin(bob.email, withoutSigningKey(bob), 'tofu');
    // Mallory's signing key with her binding (naming her RSA key) beside Bob's pinned RSA key.
    const mixed = {
      ...withoutSigningKey(bob),
      signingPublicKey: mallory.signingPublicKeyB64,
      keyBinding: mallory.keyBindingJson,
    };
    expect(await trust.checkContact(bob.email, mixed)).toMatchObject({
      state: 'invalid-binding',
      canShare: false,
    });
    expect(
      findPin((await trust.open())?.pins ?? { version: 0, pins: [] }, bob.email)?.signingKeySha256Hex,
    ).toBeNull();
  });

  it('without a signing key of one’s own: nothing is pinned and sharing is blocked, saying why', async () => {
    const server = new PinsServer();
    const trust = sessionOf(server, () => MISSING_SIGNING_KEY, createMemoryPinHighWater());
    const bob = await makeTrustIdentity('bob@example.com');
    const checked = await trust.checkContact(bob.email, servedKeyOf(bob));
    expect(checked).toMatchObject({ state: 'no-signing-key', canShare: false });
    expect(checked.reason).toMatch(/signing key/);
    // Bob's signatures can still be checked against his bound signing key (as on first sight).
    expect(checked.signingPublicKeyB64).toBe(bob.signingPublicKeyB64);
    expect(server.puts).toBe(0);
    expect(await trust.open()).toBeNull();
  });
});
