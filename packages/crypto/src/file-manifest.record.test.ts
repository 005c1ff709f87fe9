import { beforeAll, describe, expect, it } from 'vitest';
import { generateFileKey, wrapFileKey } from './file-key.wrap.js';
import { CHUNK_SIZE } from './format.constants.js';
import { importPublicKeyB64 } from './key-pair.rsa.js';
import {
  fileManifestSha256Hex,
  parseFileManifest,
  signFileManifest,
  signFileManifestV2,
  verifyFileManifest,
  type ServedFileFields,
} from './file-manifest.record.js';
import { makeIdentity, type TestIdentity } from './testing/identities.js';

let alice: TestIdentity;
let mallory: TestIdentity;
let encryptedFileKeyB64: string;
let manifestJson: string;
let served: ServedFileFields;

beforeAll(async () => {
  [alice, mallory] = await Promise.all([
    makeIdentity('alice@example.com'),
    makeIdentity('mallory@example.com'),
  ]);
  encryptedFileKeyB64 = await wrapFileKey(
    await generateFileKey(),
    await importPublicKeyB64(alice.publicKeyB64),
  );
  served = {
    ownerEmail: alice.email,
    name: 'report.pdf',
    contentType: 'application/pdf',
    size: 2 * CHUNK_SIZE + 1,
    chunkSize: CHUNK_SIZE,
    ownerKeyId: alice.keyId,
    ownerEncryptedFileKeyB64: encryptedFileKeyB64,
  };
  manifestJson = await signFileManifest(
    {
      ownerEmail: alice.email,
      ownerKeyId: alice.keyId,
      ownerEncryptedFileKeyB64: encryptedFileKeyB64,
      name: served.name,
      contentType: served.contentType,
      size: served.size,
    },
    alice.signingPrivateKey,
  );
});

describe('file manifest', () => {
  it('records the layout: size, chunk size and chunk count', () => {
    expect(parseFileManifest(manifestJson)).toMatchObject({
      size: 2 * CHUNK_SIZE + 1,
      chunkSize: CHUNK_SIZE,
      chunkCount: 3,
    });
  });

  it('verifies for the owner (all fields) and for a recipient (without the owner key fields)', async () => {
    expect(await verifyFileManifest(manifestJson, served, alice.signingPublicKeyB64)).toEqual({
      status: 'valid',
    });
    const recipientView = { ...served, ownerKeyId: undefined, ownerEncryptedFileKeyB64: undefined };
    expect(await verifyFileManifest(manifestJson, recipientView, alice.signingPublicKeyB64)).toEqual({
      status: 'valid',
    });
  });

  it('is unsigned when absent', async () => {
    expect(await verifyFileManifest(undefined, served, alice.signingPublicKeyB64)).toEqual({
      status: 'unsigned',
    });
  });

  it.each([
    ['name', { name: 'invoice.pdf' }],
    ['contentType', { contentType: 'text/html' }],
    ['size', { size: 5 }],
    ['chunkSize', { chunkSize: 1024 }],
    ['ownerEmail', { ownerEmail: 'mallory@example.com' }],
    ['ownerKeyId', { ownerKeyId: 'key-9' }],
  ])('reports a served %s that differs as a mismatch', async (field, change) => {
    expect(
      await verifyFileManifest(manifestJson, { ...served, ...change }, alice.signingPublicKeyB64),
    ).toEqual({
      status: 'mismatch',
      fields: [field],
    });
  });

  it('reports a swapped owner file key as a mismatch', async () => {
    const other = await wrapFileKey(await generateFileKey(), await importPublicKeyB64(alice.publicKeyB64));
    expect(
      await verifyFileManifest(
        manifestJson,
        { ...served, ownerEncryptedFileKeyB64: other },
        alice.signingPublicKeyB64,
      ),
    ).toEqual({ status: 'mismatch', fields: ['ownerWrappedKeySha256Hex'] });
  });

  it('is invalid under another key, or with an edited member (even if the server edits both sides)', async () => {
    expect((await verifyFileManifest(manifestJson, served, mallory.signingPublicKeyB64)).status).toBe(
      'invalid-signature',
    );
    const edited = JSON.stringify({ ...(JSON.parse(manifestJson) as object), name: 'invoice.pdf' });
    expect(
      await verifyFileManifest(edited, { ...served, name: 'invoice.pdf' }, alice.signingPublicKeyB64),
    ).toEqual({ status: 'invalid-signature', reason: 'the file manifest signature does not verify' });
  });

  it('is invalid when a manifest signed by the server claims to be the owner’s', async () => {
    const forged = await signFileManifest(
      {
        ownerEmail: alice.email,
        ownerKeyId: alice.keyId,
        ownerEncryptedFileKeyB64: encryptedFileKeyB64,
        name: served.name,
        contentType: served.contentType,
        size: served.size,
      },
      mallory.signingPrivateKey,
    );
    expect((await verifyFileManifest(forged, served, alice.signingPublicKeyB64)).status).toBe(
      'invalid-signature',
    );
  });

  it('hashes the signed bytes, not the JSON text', async () => {
    const manifest = parseFileManifest(manifestJson);
    if (manifest === null) throw new Error('unparsable');
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(manifest).reverse()));
    const again = parseFileManifest(reordered);
    if (again === null) throw new Error('unparsable');
    expect(await fileManifestSha256Hex(again)).toBe(await fileManifestSha256Hex(manifest));
  });
});

describe('file manifest version 2 (sealed metadata, issue 31)', () => {
  const sealed = btoa('iv || sealed {"name","contentType"} || tag');
  let v2Json: string;
  let v2Served: ServedFileFields;
  beforeAll(async () => {
    v2Json = await signFileManifestV2(
      {
        ownerEmail: alice.email,
        ownerKeyId: alice.keyId,
        ownerEncryptedFileKeyB64: encryptedFileKeyB64,
        encryptedMetadataB64: sealed,
        size: served.size,
      },
      alice.signingPrivateKey,
    );
    v2Served = {
      ...served,
      name: 'encrypted',
      contentType: 'application/octet-stream',
      encryptedMetadataB64: sealed,
    };
  });

  it('signs the sealed metadata’s hash, no name and no type', () => {
    const manifest = parseFileManifest(v2Json);
    expect(manifest).toMatchObject({ v: 2, type: 'file-manifest', size: served.size, chunkCount: 3 });
    expect(Object.keys(JSON.parse(v2Json) as object)).not.toContain('name');
    expect(v2Json).not.toContain('report.pdf');
  });

  it('verifies against the served sealed metadata, for the owner and for a recipient', async () => {
    expect(await verifyFileManifest(v2Json, v2Served, alice.signingPublicKeyB64)).toEqual({
      status: 'valid',
    });
    const recipientView = { ...v2Served, ownerKeyId: undefined, ownerEncryptedFileKeyB64: undefined };
    expect(await verifyFileManifest(v2Json, recipientView, alice.signingPublicKeyB64)).toEqual({
      status: 'valid',
    });
  });

  it.each([
    ['other sealed metadata', btoa('another file sealed metadata')],
    ['none served', ''],
  ])('reports %s as a mismatch of the metadata', async (_case, encryptedMetadataB64) => {
    expect(
      await verifyFileManifest(v2Json, { ...v2Served, encryptedMetadataB64 }, alice.signingPublicKeyB64),
    ).toEqual({ status: 'mismatch', fields: ['metadataSha256Hex'] });
  });

  it('still compares the layout and the owner key', async () => {
    expect(await verifyFileManifest(v2Json, { ...v2Served, size: 5 }, alice.signingPublicKeyB64)).toEqual({
      status: 'mismatch',
      fields: ['size'],
    });
    expect(
      await verifyFileManifest(v2Json, { ...v2Served, ownerKeyId: 'key-9' }, alice.signingPublicKeyB64),
    ).toEqual({ status: 'mismatch', fields: ['ownerKeyId'] });
  });

  it('parses strictly: no version 1 member in a version 2 manifest, no other version', () => {
    const object = JSON.parse(v2Json) as Record<string, unknown>;
    expect(parseFileManifest(JSON.stringify({ ...object, name: 'report.pdf' }))).toBeNull();
    expect(parseFileManifest(JSON.stringify({ ...object, v: 3 }))).toBeNull();
    expect(parseFileManifest(JSON.stringify({ ...object, v: 1 }))).toBeNull();
    const withoutHash = Object.fromEntries(
      Object.entries(object).filter(([key]) => key !== 'metadataSha256Hex'),
    );
    expect(parseFileManifest(JSON.stringify(withoutHash))).toBeNull();
    expect(parseFileManifest(JSON.stringify({ ...(JSON.parse(manifestJson) as object), v: 2 }))).toBeNull();
  });

  it('a version 1 signature does not verify as version 2, nor the reverse (own labels)', async () => {
    const v1 = JSON.parse(manifestJson) as Record<string, unknown>;
    const v2 = JSON.parse(v2Json) as Record<string, unknown>;
    const v2WithV1Signature = JSON.stringify({ ...v2, signatureB64: v1.signatureB64 });
    expect((await verifyFileManifest(v2WithV1Signature, v2Served, alice.signingPublicKeyB64)).status).toBe(
      'invalid-signature',
    );
    const edited = JSON.stringify({ ...v2, metadataSha256Hex: '0'.repeat(64) });
    expect((await verifyFileManifest(edited, v2Served, alice.signingPublicKeyB64)).status).toBe(
      'invalid-signature',
    );
  });

  it('hashes differently from version 1 (a grant or node record names one version)', async () => {
    const v1 = parseFileManifest(manifestJson);
    const v2 = parseFileManifest(v2Json);
    if (v1 === null || v2 === null) throw new Error('unparsable');
    expect(await fileManifestSha256Hex(v2)).not.toBe(await fileManifestSha256Hex(v1));
  });
});
