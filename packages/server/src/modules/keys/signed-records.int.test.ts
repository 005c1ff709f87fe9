/**
 * Issue 13 at the API: signing keys, key bindings, signed manifests and share grants are stored and
 * served unchanged; the sealed pin set is kept in order. The server verifies no signature (clients
 * do, against pinned keys); it refuses records that could never check out, and stale pin writes.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildKeyRequest, buildWrappedKeyJson, encryptionInfoFor } from '../../test/factories.js';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { uploadDirect } from '../files/files.test-helpers.js';

const sha256Hex = (b64: string) => createHash('sha256').update(Buffer.from(b64, 'base64')).digest('hex');
const b64 = (bytes: number) => randomBytes(bytes).toString('base64');

/** A signing key record whose binding names `email`, `keyId` and both public keys (signature not checked here). */
function signingFields(email: string, keyId: string, publicKey: string) {
  const signingPublicKey = Buffer.concat([
    Buffer.from('302a300506032b6570032100', 'hex'),
    randomBytes(32),
  ]).toString('base64');
  const wrapped = JSON.parse(buildWrappedKeyJson()) as Record<string, unknown>;
  return {
    signingPublicKey,
    encryptedSigningKey: JSON.stringify({ ...wrapped, data: b64(64), alg: 'Ed25519' }),
    keyBinding: JSON.stringify({
      v: 1,
      type: 'key-binding',
      email,
      keyId,
      publicKeySha256Hex: sha256Hex(publicKey),
      signingKeySha256Hex: sha256Hex(signingPublicKey),
      signingAlgorithm: 'Ed25519',
      createdAt: '2026-11-23T12:00:00.000Z',
      signatureB64: b64(64),
    }),
  };
}

function pinSet(version: number): string {
  return JSON.stringify({
    v: 1,
    type: 'pin-set',
    version,
    wrappedKeyB64: b64(256),
    ivB64: b64(12),
    dataB64: b64(100),
    signatureB64: b64(64),
  });
}

describe.each(dialectsUnderTest)('signed records ($name)', ({ open }) => {
  let database: TestDatabase;
  let t: TestApp;

  beforeAll(async () => {
    database = await open();
    t = await startTestApp({ database });
  });
  afterAll(async () => {
    await t.close();
    await database.destroy();
  });

  it('stores a key record with its signing key and binding under the id the client chose, and serves them in lookups', async () => {
    const keyId = randomUUID();
    const key = await buildKeyRequest();
    const fields = signingFields('sara@example.test', keyId, key.publicKey);
    const created = await t.as('sara', {
      method: 'POST',
      url: '/api/users/keys',
      payload: { keyId, ...key, ...fields },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ keyId, ...fields });

    const lookup = await t.as('tom', { method: 'GET', url: '/api/users/keys/public/sara@example.test' });
    expect(lookup.json()).toEqual({
      publicKey: key.publicKey,
      keyId,
      signingPublicKey: fields.signingPublicKey,
      keyBinding: fields.keyBinding,
    });
    // The same id again is refused, not overwritten.
    const again = await t.as('sara', { method: 'POST', url: '/api/users/keys', payload: { keyId, ...key } });
    expect(again.statusCode).toBe(409);
  });

  it('refuses a binding that names another address, key id or key', async () => {
    const keyId = randomUUID();
    const key = await buildKeyRequest();
    for (const fields of [
      signingFields('someone.else@example.test', keyId, key.publicKey),
      signingFields('uma@example.test', randomUUID(), key.publicKey),
      signingFields('uma@example.test', keyId, (await buildKeyRequest()).publicKey),
    ]) {
      const res = await t.as('uma', {
        method: 'POST',
        url: '/api/users/keys',
        payload: { keyId, ...key, ...fields },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    const partial = signingFields('uma@example.test', keyId, key.publicKey);
    const missing = await t.as('uma', {
      method: 'POST',
      url: '/api/users/keys',
      payload: { keyId, ...key, signingPublicKey: partial.signingPublicKey },
    });
    expect(missing.statusCode).toBe(400);
  });

  it('gives an older key record its signing key once; a second one is refused', async () => {
    const key = await buildKeyRequest();
    const created = await t.as('vic', { method: 'POST', url: '/api/users/keys', payload: key });
    const { keyId } = created.json<{ keyId: string }>();
    expect(created.json()).not.toHaveProperty('signingPublicKey');
    const url = `/api/users/keys/${keyId}/signing`;
    const first = await t.as('vic', {
      method: 'PUT',
      url,
      payload: signingFields('vic@example.test', keyId, key.publicKey),
    });
    expect(first.statusCode, first.body).toBe(200);
    const swap = await t.as('vic', {
      method: 'PUT',
      url,
      payload: signingFields('vic@example.test', keyId, key.publicKey),
    });
    expect(swap.statusCode).toBe(409);
    // Another user's key id is answered like one that does not exist.
    const foreign = await t.as('wes', {
      method: 'PUT',
      url,
      payload: signingFields('wes@example.test', keyId, key.publicKey),
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('keeps the sealed pin set in order: a write names the version it replaces and raises it', async () => {
    const get = async () =>
      (await t.as('pia', { method: 'GET', url: '/api/users/pins' })).json<{ pinSet: string | null }>();
    const put = (set: string, previousVersion: number | null) =>
      t.as('pia', { method: 'PUT', url: '/api/users/pins', payload: { pinSet: set, previousVersion } });
    expect(await get()).toEqual({ pinSet: null });
    expect((await put(pinSet(1), null)).statusCode).toBe(200);
    const second = pinSet(2);
    expect((await put(second, 1)).statusCode).toBe(200);
    expect(await get()).toEqual({ pinSet: second });
    // A device that still has version 1 cannot overwrite version 2.
    const stale = await put(pinSet(2), 1);
    expect(stale.statusCode).toBe(409);
    // Nor can a write go back.
    expect((await put(pinSet(2), 2)).statusCode).toBe(400);
    expect((await put('{"not":"a pin set"}', 2)).statusCode).toBe(400);
    // Two devices writing at once from version 2: exactly one wins.
    const both = await Promise.all([put(pinSet(3), 2), put(pinSet(3), 2)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    // Another user's pins are their own.
    expect((await t.as('quin', { method: 'GET', url: '/api/users/pins' })).json()).toEqual({ pinSet: null });
  });

  it('forgets the pin set when a user with no key left (a reset) creates a new first key', async () => {
    const get = async () =>
      (await t.as('rhea', { method: 'GET', url: '/api/users/pins' })).json<{ pinSet: string | null }>();
    const create = async () =>
      (
        await t.as('rhea', { method: 'POST', url: '/api/users/keys', payload: await buildKeyRequest() })
      ).json<{
        keyId: string;
      }>();
    const first = await create();
    const sealed = pinSet(1);
    const stored = await t.as('rhea', {
      method: 'PUT',
      url: '/api/users/pins',
      payload: { pinSet: sealed, previousVersion: null },
    });
    expect(stored.statusCode).toBe(200);
    // Another key beside the first (not a reset): the pins stay.
    const second = await create();
    expect(await get()).toEqual({ pinSet: sealed });
    // Reset: every key deleted, then a new one set up. The old pins could never be opened again.
    for (const { keyId } of [first, second]) {
      expect((await t.as('rhea', { method: 'DELETE', url: `/api/users/keys/${keyId}` })).statusCode).toBe(
        200,
      );
    }
    await create();
    expect(await get()).toEqual({ pinSet: null });
    const fresh = await t.as('rhea', {
      method: 'PUT',
      url: '/api/users/pins',
      payload: { pinSet: pinSet(1), previousVersion: null },
    });
    expect(fresh.statusCode).toBe(200);
  });

  it('serves the signed manifest with the file and the signed grant with the share', async () => {
    const key = await buildKeyRequest();
    const ownerKey = (await t.as('olga', { method: 'POST', url: '/api/users/keys', payload: key })).json<{
      keyId: string;
    }>();
    const recipientKey = (
      await t.as('rick', { method: 'POST', url: '/api/users/keys', payload: await buildKeyRequest() })
    ).json<{ keyId: string }>();
    const manifest = JSON.stringify({ v: 1, type: 'file-manifest', note: 'stored as sent' });
    const { file } = await uploadDirect(t, 'olga', { keyId: ownerKey.keyId, size: 10, fields: { manifest } });
    const meta = await t.as('olga', { method: 'GET', url: `/api/users/files/${file.fileId}` });
    expect(meta.json()).toMatchObject({ manifest });

    const shareGrant = JSON.stringify({ v: 1, type: 'share-grant', note: 'stored as sent' });
    const shared = await t.as('olga', {
      method: 'POST',
      url: `/api/users/files/${file.fileId}/share`,
      payload: {
        email: 'rick@example.test',
        encryptedFileKey: encryptionInfoFor(recipientKey.keyId).encryptedFileKey,
        keyVersion: recipientKey.keyId,
        shareGrant,
      },
    });
    expect(shared.statusCode, shared.body).toBe(201);
    const received = await t.as('rick', { method: 'GET', url: `/api/users/files/shared/${file.fileId}` });
    expect(received.json()).toMatchObject({ shareGrant, file: { manifest } });
  });
});
