/**
 * Helpers for the integration tests of files, uploads and shares: key records, coffer-v1 encryption
 * info, direct-upload forms and whole uploads through the API. The server never decrypts, so random
 * bytes of the right length stand in for ciphertext.
 */
import { randomBytes } from 'node:crypto';
import type { FileListItem } from '@coffer/contracts';
import { chunkCountFor, encryptedPartSizeFor, encryptedSizeFor } from '@coffer/contracts';
import { expect } from 'vitest';
import type { TestApp } from '../../test/app-harness.js';
import { buildKeyRequest, buildWrappedKeyJson, encryptionInfoFor } from '../../test/factories.js';

// RSA key generation takes most of a second here; the server only checks the public key's shape, so
// every test user may share one.
let sharedPublicKeyB64: Promise<string> | undefined;

/** Creates a key record for `name` and returns its id. */
export async function createKey(t: TestApp, name: string): Promise<string> {
  sharedPublicKeyB64 ??= buildKeyRequest().then((request) => request.publicKey);
  const payload = { publicKey: await sharedPublicKeyB64, encryptedPrivateKey: buildWrappedKeyJson() };
  const res = await t.as(name, { method: 'POST', url: '/api/users/keys', payload });
  expect(res.statusCode).toBe(201);
  return res.json<{ keyId: string }>().keyId;
}

export type FormPart =
  { kind: 'field'; name: string; value: string } | { kind: 'file'; name: string; bytes: Uint8Array };

/** A multipart/form-data body with the parts in the given order. */
export function formBody(parts: FormPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----coffer${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const head =
      part.kind === 'field'
        ? `Content-Disposition: form-data; name="${part.name}"\r\n\r\n`
        : `Content-Disposition: form-data; name="${part.name}"; filename="blob"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n';
    chunks.push(Buffer.from(`--${boundary}\r\n${head}`));
    chunks.push(part.kind === 'field' ? Buffer.from(part.value) : Buffer.from(part.bytes));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export interface DirectUploadOptions {
  keyId: string;
  /** Plaintext size; the ciphertext is random bytes of exactly its encrypted size unless `ciphertext` is given. */
  size: number;
  ciphertext?: Uint8Array;
  name?: string;
  contentType?: string;
  /** Extra or replaced fields, e.g. `{size: '-1'}`. */
  fields?: Record<string, string>;
  fileFirst?: boolean;
}

export function directUploadForm(options: DirectUploadOptions): {
  payload: Buffer;
  headers: Record<string, string>;
  ciphertext: Uint8Array;
} {
  const ciphertext = options.ciphertext ?? randomBytes(encryptedSizeFor(options.size));
  const fields = {
    name: options.name ?? 'report.pdf',
    contentType: options.contentType ?? 'application/pdf',
    size: String(options.size),
    isEncrypted: 'true',
    encryptionInfo: JSON.stringify(encryptionInfoFor(options.keyId)),
    ...options.fields,
  };
  const fieldParts: FormPart[] = Object.entries(fields).map(([name, value]) => ({
    kind: 'field',
    name,
    value,
  }));
  const filePart: FormPart = { kind: 'file', name: 'file', bytes: ciphertext };
  const form = formBody(options.fileFirst === true ? [filePart, ...fieldParts] : [...fieldParts, filePart]);
  return { ...form, ciphertext };
}

/** A direct upload through the API that must succeed; returns the new file and the bytes stored. */
export async function uploadDirect(
  t: TestApp,
  user: string,
  options: DirectUploadOptions,
): Promise<{ file: FileListItem; ciphertext: Uint8Array }> {
  const form = directUploadForm(options);
  const res = await t.as(user, {
    method: 'POST',
    url: '/api/users/uploads/direct',
    payload: form.payload,
    headers: form.headers,
  });
  expect(res.statusCode, res.body).toBe(201);
  return { file: res.json<FileListItem>(), ciphertext: form.ciphertext };
}

export interface StartedMultipart {
  uploadId: string;
  objectKey: string;
}

export async function startMultipart(
  t: TestApp,
  user: string,
  options: { keyId: string; size: number; name?: string },
): Promise<StartedMultipart> {
  const res = await t.as(user, {
    method: 'POST',
    url: '/api/users/uploads/multipart',
    payload: {
      name: options.name ?? 'movie.mp4',
      contentType: 'video/mp4',
      size: options.size,
      parts: chunkCountFor(options.size),
      isEncrypted: true,
      encryptionInfo: encryptionInfoFor(options.keyId),
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<StartedMultipart>();
}

export function putPart(
  t: TestApp,
  user: string,
  upload: StartedMultipart,
  n: number,
  body: Uint8Array,
): ReturnType<TestApp['as']> {
  return t.as(user, {
    method: 'PUT',
    url: `/api/users/uploads/multipart/${upload.uploadId}/part/${n}?objectKey=${encodeURIComponent(upload.objectKey)}`,
    payload: Buffer.from(body),
    headers: { 'content-type': 'application/octet-stream' },
  });
}

export function completeMultipart(
  t: TestApp,
  user: string,
  upload: StartedMultipart,
  parts: { partNumber: number; etag: string }[],
): ReturnType<TestApp['as']> {
  return t.as(user, {
    method: 'POST',
    url: `/api/users/uploads/multipart/${upload.uploadId}/complete`,
    payload: { uploadId: upload.uploadId, objectKey: upload.objectKey, parts },
  });
}

/** A whole multipart upload of a small file (one part) through the API. */
export async function uploadMultipart(
  t: TestApp,
  user: string,
  options: { keyId: string; size: number; name?: string },
): Promise<{ file: FileListItem; ciphertext: Uint8Array; upload: StartedMultipart }> {
  const upload = await startMultipart(t, user, options);
  const parts: { partNumber: number; etag: string }[] = [];
  const chunks: Uint8Array[] = [];
  for (let n = 1; n <= chunkCountFor(options.size); n += 1) {
    const bytes = randomBytes(encryptedPartSizeFor(options.size, n) ?? 0);
    const res = await putPart(t, user, upload, n, bytes);
    expect(res.statusCode, res.body).toBe(200);
    parts.push({ partNumber: n, etag: res.json<{ etag: string }>().etag });
    chunks.push(bytes);
  }
  const res = await completeMultipart(t, user, upload, parts);
  expect(res.statusCode, res.body).toBe(201);
  return { file: res.json<FileListItem>(), ciphertext: Buffer.concat(chunks), upload };
}

export async function statsOf(
  t: TestApp,
  user: string,
): Promise<{
  storage: { used: number };
  transfers: { uploads: { count: number }; downloads: { count: number } };
  sharing: { count: number };
}> {
  const res = await t.as(user, { method: 'GET', url: '/api/users/stats' });
  expect(res.statusCode).toBe(200);
  return res.json();
}
