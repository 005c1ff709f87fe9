import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signNodeRecord, verifyNodeRecord, type NodeRecordFields } from './drive/node.record.js';
import { VERIFY_KEY_CACHE_SIZE, verifyingKeyOf } from './signed-record.verify.js';
import { exportSigningPublicKeyB64, generateSigningKeyPair } from './signing-key.pair.js';
import { makeIdentity, type TestIdentity } from './testing/identities.js';

const NODE: NodeRecordFields = {
  ownerEmail: 'alice@example.com',
  nodeId: '00000001-0000-4000-8000-000000000000',
  parentNodeId: 'drive',
  kind: 'folder',
  wrappedKeyB64: 'AAAA',
  encryptedMetadataB64: 'BBBB',
};

let alice: TestIdentity;
let mallory: TestIdentity;
let record: string;

beforeAll(async () => {
  [alice, mallory] = await Promise.all([
    makeIdentity('alice@example.com'),
    makeIdentity('mallory@example.com'),
  ]);
  record = await signNodeRecord(NODE, alice.signingPrivateKey);
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Counts WebCrypto's SPKI imports while `run` runs. */
async function spkiImportsDuring(run: () => Promise<unknown>): Promise<number> {
  const importKey = vi.spyOn(crypto.subtle, 'importKey');
  await run();
  const count = importKey.mock.calls.filter(([format]) => format === 'spki').length;
  importKey.mockRestore();
  return count;
}

describe('the verifying key cache', () => {
  it('imports a signing public key once for many records', async () => {
    // Another key first, so alice's is not already cached by an earlier test of this file.
    const fresh = await exportSigningPublicKeyB64((await generateSigningKeyPair()).publicKey);
    const imports = await spkiImportsDuring(async () => {
      const checks = await Promise.all(
        Array.from({ length: 20 }, () => verifyNodeRecord(record, NODE, alice.signingPublicKeyB64)),
      );
      expect(checks.every((check) => check.status === 'valid')).toBe(true);
      expect((await verifyNodeRecord(record, NODE, fresh)).status).toBe('invalid-signature');
    });
    expect(imports).toBe(2);
  });

  it('still verifies each record with the key it is given', async () => {
    expect(await verifyNodeRecord(record, NODE, alice.signingPublicKeyB64)).toEqual({ status: 'valid' });
    expect((await verifyNodeRecord(record, NODE, mallory.signingPublicKeyB64)).status).toBe(
      'invalid-signature',
    );
    expect(await verifyNodeRecord(record, NODE, alice.signingPublicKeyB64)).toEqual({ status: 'valid' });
  });

  it('does not keep a key that does not import', async () => {
    // A P-256 key whose point is moved off the curve: WebCrypto refuses to import it.
    const spki = Buffer.from(
      await exportSigningPublicKeyB64((await generateSigningKeyPair('ECDSA-P256')).publicKey),
      'base64',
    );
    spki[spki.length - 1] = (spki[spki.length - 1] ?? 0) ^ 1;
    const broken = spki.toString('base64');
    await expect(verifyingKeyOf(broken)).rejects.toThrow();
    const imports = await spkiImportsDuring(() => verifyingKeyOf(broken).catch(() => undefined));
    expect(imports).toBe(1);
    expect((await verifyNodeRecord(record, NODE, broken)).status).toBe('invalid-signature');
  });

  it(`keeps at most ${VERIFY_KEY_CACHE_SIZE} keys, dropping the oldest`, async () => {
    const keys = await Promise.all(
      Array.from({ length: VERIFY_KEY_CACHE_SIZE + 1 }, async () =>
        exportSigningPublicKeyB64((await generateSigningKeyPair()).publicKey),
      ),
    );
    const [first, ...rest] = keys;
    if (first === undefined) throw new Error('no key');
    await verifyingKeyOf(first);
    for (const key of rest) await verifyingKeyOf(key);
    expect(await spkiImportsDuring(() => verifyingKeyOf(rest.at(-1) ?? first))).toBe(0);
    expect(await spkiImportsDuring(() => verifyingKeyOf(first))).toBe(1);
  });
});
