import { emptyPinSet, pinContact, publicKeyFingerprint, type PinSet } from '@coffer/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { assessServedKey } from './key-trust';
import { makeTrustIdentity, servedKeyOf, type TrustIdentity } from './testing/trust-identities';

let bob: TrustIdentity;
let mallory: TrustIdentity;

beforeAll(async () => {
  [bob, mallory] = await Promise.all([
    makeTrustIdentity('bob@example.com'),
    makeTrustIdentity('mallory@example.com'),
  ]);
});

async function pinned(state: 'tofu' | 'verified' = 'tofu'): Promise<PinSet> {
  return pinContact(
    emptyPinSet(),
    bob.email,
    { publicKeyB64: bob.publicKeyB64, signingPublicKeyB64: bob.signingPublicKeyB64 },
    state,
  );
}

describe('assessServedKey', () => {
  it('is new on first sight, with the safety number and the signing key to pin', async () => {
    const trust = await assessServedKey(emptyPinSet(), bob.email, servedKeyOf(bob));
    expect(trust).toEqual({
      state: 'new',
      canShare: true,
      safetyNumber: await publicKeyFingerprint(bob.publicKeyB64),
      signingPublicKeyB64: bob.signingPublicKeyB64,
    });
  });

  it('carries the pin state when the served keys match', async () => {
    expect((await assessServedKey(await pinned('verified'), 'Bob@Example.com', servedKeyOf(bob))).state).toBe(
      'verified',
    );
    expect((await assessServedKey(await pinned(), bob.email, servedKeyOf(bob))).canShare).toBe(true);
  });

  it('is key-changed, blocked, with both safety numbers when the server swaps the whole record', async () => {
    const forged = await makeTrustIdentity(bob.email, bob.keyId);
    const trust = await assessServedKey(await pinned(), bob.email, servedKeyOf(forged));
    expect(trust.state).toBe('key-changed');
    expect(trust.canShare).toBe(false);
    expect(trust.signingPublicKeyB64).toBeUndefined();
    expect(trust.safetyNumber).toBe(await publicKeyFingerprint(forged.publicKeyB64));
    expect(trust.pinnedSafetyNumber).toBe(await publicKeyFingerprint(bob.publicKeyB64));
    expect(trust.reason).toMatch(/has changed/);
  });

  it("is invalid-binding when the server serves Mallory's key with Bob's binding", async () => {
    const mixed = { ...servedKeyOf(bob), publicKey: mallory.publicKeyB64 };
    const trust = await assessServedKey(emptyPinSet(), bob.email, mixed);
    expect(trust.state).toBe('invalid-binding');
    expect(trust.canShare).toBe(false);
    // And Mallory's genuine record served as Bob's.
    expect((await assessServedKey(emptyPinSet(), bob.email, servedKeyOf(mallory))).state).toBe(
      'invalid-binding',
    );
  });

  it('handles a contact without a signing key (set up before signatures)', async () => {
    const legacy = { publicKey: bob.publicKeyB64, keyId: bob.keyId };
    const first = await assessServedKey(emptyPinSet(), bob.email, legacy);
    expect(first).toMatchObject({ state: 'new', canShare: true });
    expect(first.signingPublicKeyB64).toBeUndefined();
  });
});
