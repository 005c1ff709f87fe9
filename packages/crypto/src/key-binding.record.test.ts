import { beforeAll, describe, expect, it } from 'vitest';
import { createKeyBinding, parseKeyBinding, verifyKeyBinding } from './key-binding.record.js';
import { makeIdentity, type TestIdentity } from './testing/identities.js';

let alice: TestIdentity;
let mallory: TestIdentity;

beforeAll(async () => {
  [alice, mallory] = await Promise.all([
    makeIdentity('Alice@Example.com'),
    makeIdentity('mallory@example.com'),
  ]);
});

const fieldsOf = (identity: TestIdentity) => ({
  email: identity.email,
  keyId: identity.keyId,
  publicKeyB64: identity.publicKeyB64,
  signingPublicKeyB64: identity.signingPublicKeyB64,
});

describe('key binding', () => {
  it('states the canonical email, key id, both key hashes and the algorithm, in order', () => {
    const binding = parseKeyBinding(alice.keyBindingJson);
    expect(binding).not.toBeNull();
    expect(Object.keys(JSON.parse(alice.keyBindingJson) as object)).toEqual([
      'v',
      'type',
      'email',
      'keyId',
      'publicKeySha256Hex',
      'signingKeySha256Hex',
      'signingAlgorithm',
      'createdAt',
      'signatureB64',
    ]);
    expect(binding?.email).toBe('alice@example.com');
    expect(binding?.signingAlgorithm).toBe('Ed25519');
  });

  it('verifies against the served record (email compared case-insensitively)', async () => {
    expect(await verifyKeyBinding(alice.keyBindingJson, fieldsOf(alice))).toEqual({ status: 'valid' });
    expect(
      await verifyKeyBinding(alice.keyBindingJson, { ...fieldsOf(alice), email: 'ALICE@example.COM' }),
    ).toEqual({ status: 'valid' });
  });

  it('is unsigned when absent', async () => {
    expect(await verifyKeyBinding(undefined, fieldsOf(alice))).toEqual({ status: 'unsigned' });
  });

  it('reports each field the served record changes', async () => {
    expect(await verifyKeyBinding(alice.keyBindingJson, { ...fieldsOf(alice), keyId: 'other' })).toEqual({
      status: 'mismatch',
      fields: ['keyId'],
    });
    expect(
      await verifyKeyBinding(alice.keyBindingJson, {
        ...fieldsOf(alice),
        publicKeyB64: mallory.publicKeyB64,
      }),
    ).toEqual({ status: 'mismatch', fields: ['publicKeySha256Hex'] });
    expect(
      await verifyKeyBinding(alice.keyBindingJson, { ...fieldsOf(alice), email: 'bob@example.com' }),
    ).toEqual({ status: 'mismatch', fields: ['email'] });
  });

  it("is invalid under another signing key (Mallory's key served with Alice's binding)", async () => {
    const check = await verifyKeyBinding(alice.keyBindingJson, {
      ...fieldsOf(alice),
      signingPublicKeyB64: mallory.signingPublicKeyB64,
    });
    expect(check.status).toBe('invalid-signature');
  });

  it('is invalid when any signed member is edited', async () => {
    const object = JSON.parse(alice.keyBindingJson) as Record<string, unknown>;
    for (const [name, value] of [
      ['keyId', 'key-2'],
      ['createdAt', '2020-01-01T00:00:00.000Z'],
      ['email', 'eve@example.com'],
    ] as const) {
      const edited = JSON.stringify({ ...object, [name]: value });
      // The served record states the edited values too, so only the signature can catch it.
      const served = { ...fieldsOf(alice), ...(name === 'createdAt' ? {} : { [name]: value }) };
      const check = await verifyKeyBinding(edited, served);
      expect(check.status).toBe('invalid-signature');
    }
  });

  it.each([
    ['not JSON', '{'],
    ['an extra member', (json: string) => JSON.stringify({ ...(JSON.parse(json) as object), extra: 1 })],
    [
      'a non-canonical email',
      (json: string) => JSON.stringify({ ...(JSON.parse(json) as object), email: 'A@x.com' }),
    ],
    [
      'a bad timestamp',
      (json: string) => JSON.stringify({ ...(JSON.parse(json) as object), createdAt: '2024-01-01' }),
    ],
    [
      'an unknown algorithm',
      (json: string) => JSON.stringify({ ...(JSON.parse(json) as object), signingAlgorithm: 'RSA' }),
    ],
  ])('is invalid when malformed: %s', async (_, edit) => {
    const json = typeof edit === 'string' ? edit : edit(alice.keyBindingJson);
    expect(await verifyKeyBinding(json, fieldsOf(alice))).toEqual({
      status: 'invalid-signature',
      reason: 'the key binding is malformed',
    });
  });

  it('is reproducible for fixed inputs (Ed25519 is deterministic)', async () => {
    const at = new Date('2026-11-23T12:00:00.000Z');
    const one = await createKeyBinding(fieldsOf(alice), alice.signingPrivateKey, at);
    const two = await createKeyBinding(fieldsOf(alice), alice.signingPrivateKey, at);
    expect(one).toBe(two);
  });
});
