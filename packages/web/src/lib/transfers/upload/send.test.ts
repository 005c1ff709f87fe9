import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../api/http';
import { CryptoWorkerError, type PartSendRequest, type SealedPart } from '../../crypto-worker/chunk-cipher';
import { FakeXhr, type FakeXhrRequest } from '../testing/fake-xhr';
import { TransferError } from '../transfer-errors';
import type { XhrAnswer } from '../upload-xhr';
import { sendDirect, sendPart, type DirectContext, type SendContext } from './send';

const api = {
  authHeaders: () => Promise.resolve({ Authorization: 'Bearer t' }),
  reportUnauthorized: () => undefined,
} as Partial<ApiClient> as ApiClient;

const context: SendContext = {
  api,
  apiBaseUrl: '/api',
  uploadsPath: '/users/uploads',
  signal: new AbortController().signal,
  retryDelaysMs: [0, 0],
};

const ok = (body: string, etag: string | null = null): XhrAnswer => ({
  status: 200,
  responseText: body,
  header: (name) => (name === 'ETag' ? etag : null),
});

/** A held part whose sends answer `answers` in turn (an Error is thrown). */
function scriptedPart(answers: (XhrAnswer | Error)[], log: string[], name = 'part'): SealedPart {
  return {
    size: 10,
    send: (request: PartSendRequest) => {
      log.push(`${name} ${request.url}`);
      const next = answers.shift();
      return next instanceof Error || next === undefined
        ? Promise.reject(next ?? new Error('no answer'))
        : Promise.resolve(next);
    },
    release: () => {
      log.push(`release ${name}`);
    },
  };
}

const target = { uploadId: 'u 1', objectKey: 'k/1' };

/** sendPart of `held` as part `partNumber`; a lost part is replaced by `sealAgain` (default: refused). */
function send(
  held: { part: SealedPart },
  partNumber: number,
  sealAgain: () => Promise<SealedPart> = () => Promise.reject(new Error('not lost')),
): Promise<string> {
  return sendPart(context, target, partNumber, held, () => undefined, sealAgain);
}

describe('send stage: sendPart', () => {
  it("PUTs to the part's URL and answers the ETag of the JSON answer, else of the header", async () => {
    const log: string[] = [];
    const held = { part: scriptedPart([ok('{"etag":"e-json"}'), ok('not json', '"e-header"')], log) };
    expect(await send(held, 3)).toBe('e-json');
    expect(await send(held, 3)).toBe('"e-header"');
    expect(log[0]).toBe('part /api/users/uploads/multipart/u%201/part/3?objectKey=k%2F1');
  });

  it('retries a network error, and fails once the retries are spent', async () => {
    const network = () => new TransferError('NETWORK', 'Network error during upload');
    const log: string[] = [];
    const held = { part: scriptedPart([network(), ok('{"etag":"e"}')], log) };
    expect(await send(held, 1)).toBe('e');
    const failing = { part: scriptedPart([network(), network(), network()], []) };
    await expect(send(failing, 1)).rejects.toMatchObject({ code: 'NETWORK' });
  });

  it('replaces a part lost with its worker by sealAgain() and sends that one, releasing the lost one', async () => {
    const log: string[] = [];
    const held = { part: scriptedPart([new CryptoWorkerError('gone')], log, 'old') };
    const fresh = scriptedPart([ok('{"etag":"e2"}')], log, 'new');
    expect(await send(held, 2, () => Promise.resolve(fresh))).toBe('e2');
    expect(log.map((line) => line.split(' ').slice(0, 2).join(' '))).toEqual([
      'old /api/users/uploads/multipart/u%201/part/2?objectKey=k%2F1',
      'release old',
      'new /api/users/uploads/multipart/u%201/part/2?objectKey=k%2F1',
    ]);
    expect(held.part).toBe(fresh);
  });

  it('fails with NO_ETAG when the answer names none', async () => {
    const held = { part: scriptedPart([ok('{}')], []) };
    await expect(send(held, 4)).rejects.toMatchObject({ code: 'NO_ETAG' });
  });
});

describe('send stage: sendDirect from the page', () => {
  it("POSTs the text fields first, then the page's Blobs joined as the one file", async () => {
    const requests: FakeXhrRequest[] = [];
    const direct: DirectContext = {
      ...context,
      file: new File([new Uint8Array(5)], 'a.txt'),
      contentType: 'text/plain',
      encryptionInfo: { version: 'v1' } as DirectContext['encryptionInfo'],
      cipher: {} as DirectContext['cipher'],
      createXhr: () =>
        new FakeXhr((request) => {
          requests.push(request);
          return Promise.resolve({ kind: 'response', status: 201, body: '{"id":"f"}' });
        }, 1) as unknown as XMLHttpRequest,
    };
    const answer = await sendDirect(
      direct,
      { pieces: [new Blob(['ab']), new Blob(['cd'])] },
      () => undefined,
    );
    expect(answer.responseText).toBe('{"id":"f"}');
    const [request] = requests;
    expect(request?.url).toBe('/api/users/uploads/direct');
    expect(request?.form?.map(([name]) => name)).toEqual([
      'name',
      'contentType',
      'size',
      'isEncrypted',
      'encryptionInfo',
      'file',
    ]);
    const file = request?.form?.at(-1)?.[1] as Blob;
    expect(await file.text()).toBe('abcd');
  });
});
