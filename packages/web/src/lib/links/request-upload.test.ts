import type { NewEncryptionInfo, RequestFileMetadata } from '@coffer/contracts';
import { openMetadata, unwrapFileKey } from '@coffer/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { FakeCofferServer, patternBytes } from '../transfers/testing/fake-coffer-server';
import { ownerKeyPair } from '../transfers/testing/keys';
import { expectNoPartHeld, testRunOptions, usePartPath } from '../transfers/testing/part-path';
import { uploadFile, type UploadOptions } from '../transfers/upload';

// Issue 30: what a file request's uploader sends (`uploadToRequest` runs uploadFile with
// `forRequest`): the file key wrapped to the owner's key, the name and type only sealed under the
// file key for a node id of the upload's own, never in clear; no node and no manifest (the uploader
// holds no key of the owner's drive and signs nothing).

const testFormat = { chunkSize: 1024, directUploadThreshold: 4096 };
const MARKER = 'zz-request-marker-lease.pdf';

let owner: CryptoKeyPair;
beforeAll(async () => {
  owner = await ownerKeyPair();
});

function options(server: FakeCofferServer, file: File): UploadOptions {
  return {
    ...testRunOptions(server, testFormat),
    file,
    keys: { publicKey: owner.publicKey, keyVersion: 'owner-key' },
    records: null,
    forRequest: true,
  };
}

/** The sealed metadata opens with the file key the owner unwraps, for its node id, and names the file. */
async function expectOwnerOpens(sealed: RequestFileMetadata, info: NewEncryptionInfo): Promise<void> {
  const fileKey = await unwrapFileKey(info.encryptedFileKey, owner.privateKey);
  expect(sealed.nodeId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(await openMetadata(fileKey, sealed.nodeId, sealed.encryptedMetadata)).toEqual({
    name: MARKER,
    contentType: 'application/pdf',
  });
}

describe('a file request upload (issue 30)', () => {
  usePartPath('crypto worker', expectNoPartHeld);

  it('direct: sends "encrypted" and the sealed metadata, nothing of the name in clear', async () => {
    const server = new FakeCofferServer();
    await uploadFile(options(server, new File([patternBytes(3000)], MARKER, { type: 'application/pdf' })));
    const [upload] = server.directUploads;
    if (upload === undefined) throw new Error('no direct upload');
    expect(upload.fields.name).toBe('encrypted');
    expect(upload.fields.contentType).toBe('application/octet-stream');
    expect(upload.fields.node).toBeUndefined();
    expect(upload.fields.manifest).toBeUndefined();
    expect(JSON.stringify(upload.fields)).not.toContain('zz-request-marker');
    await expectOwnerOpens(
      JSON.parse(upload.fields.sealedMetadata ?? 'null') as RequestFileMetadata,
      JSON.parse(upload.fields.encryptionInfo ?? 'null') as NewEncryptionInfo,
    );
  });

  it('multipart: the create call carries the sealed metadata and no clear name', async () => {
    const server = new FakeCofferServer();
    await uploadFile(options(server, new File([patternBytes(5000)], MARKER, { type: 'application/pdf' })));
    const [request] = server.createRequests;
    if (request === undefined) throw new Error('no multipart upload');
    expect(request.name).toBe('encrypted');
    expect(request.node).toBeUndefined();
    expect(JSON.stringify(request)).not.toContain('zz-request-marker');
    if (request.sealedMetadata === undefined) throw new Error('no sealed metadata');
    await expectOwnerOpens(request.sealedMetadata, request.encryptionInfo);
  });
});
