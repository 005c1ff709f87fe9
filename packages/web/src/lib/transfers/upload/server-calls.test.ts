import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../api/http';
import { abortMultipart, completeMultipart, createMultipart } from './server-calls';
import type { UploadContext } from './upload-context';

function recordingApi(calls: { method: string; path: string; body: unknown }[], fail = false): ApiClient {
  return {
    request: (method: string, path: string, init?: { body?: unknown }) => {
      calls.push({ method, path, body: init?.body });
      return fail ? Promise.reject(new Error('down')) : Promise.resolve({ ok: true });
    },
  } as Partial<ApiClient> as ApiClient;
}

function contextFor(api: ApiClient, sealed: boolean): UploadContext {
  return {
    api,
    uploadsPath: '/users/uploads',
    signal: new AbortController().signal,
    file: new File([new Uint8Array(7)], 'secret name.txt'),
    contentType: 'text/plain',
    chunkCount: 1,
    encryptionInfo: { version: 'v1' },
    ...(sealed ? { node: { id: 'n' } } : {}),
  } as Partial<UploadContext> as UploadContext;
}

describe('server calls of a multipart upload', () => {
  it('create tells the server the name and type in clear only when the metadata is not sealed', async () => {
    const calls: { method: string; path: string; body: unknown }[] = [];
    await createMultipart(contextFor(recordingApi(calls), false));
    await createMultipart(contextFor(recordingApi(calls), true));
    expect(calls.map((call) => [call.method, call.path])).toEqual([
      ['POST', '/users/uploads/multipart'],
      ['POST', '/users/uploads/multipart'],
    ]);
    expect(calls[0]?.body).toMatchObject({
      name: 'secret name.txt',
      contentType: 'text/plain',
      size: 7,
      parts: 1,
    });
    expect(calls[1]?.body).toMatchObject({ name: 'encrypted', contentType: 'application/octet-stream' });
  });

  it('complete sends the parts in part order', async () => {
    const calls: { method: string; path: string; body: unknown }[] = [];
    const context = contextFor(recordingApi(calls), false);
    await completeMultipart(context, { uploadId: 'u/1', objectKey: 'k' }, [
      { partNumber: 2, etag: 'b' },
      { partNumber: 1, etag: 'a' },
    ]);
    expect(calls[0]?.path).toBe('/users/uploads/multipart/u%2F1/complete');
    expect(calls[0]?.body).toEqual({
      uploadId: 'u/1',
      objectKey: 'k',
      parts: [
        { partNumber: 1, etag: 'a' },
        { partNumber: 2, etag: 'b' },
      ],
    });
  });

  it('abort answers the error of a failed DELETE instead of throwing it', async () => {
    const calls: { method: string; path: string; body: unknown }[] = [];
    expect(await abortMultipart(contextFor(recordingApi(calls), false), 'u1')).toBeUndefined();
    expect(await abortMultipart(contextFor(recordingApi(calls, true), false), 'u1')).toBeInstanceOf(Error);
    expect(calls.map((call) => call.method)).toEqual(['DELETE', 'DELETE']);
  });
});
