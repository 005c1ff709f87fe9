import { decryptChunk, encryptChunk, generateFileKey } from '@coffer/crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CryptoRequest, CryptoResponse } from './protocol';

/** What the worker posts; posting with a transfer list fails (as for a detached buffer) while `refuse()`. */
function answersRefusingTransfers(refuse: () => boolean): CryptoResponse[] {
  const answers: CryptoResponse[] = [];
  vi.spyOn(self, 'postMessage').mockImplementation((message: unknown, options?: unknown) => {
    if (refuse() && options !== undefined)
      throw new DOMException('An ArrayBuffer is detached', 'DataCloneError');
    answers.push(message as CryptoResponse);
  });
  return answers;
}

/** A request for the one and only chunk of a 3-byte file, under a fresh key. */
async function oneChunkRequest(id: number, op: 'encrypt-slice' | 'seal-part'): Promise<CryptoRequest> {
  const key = await generateFileKey();
  return {
    id,
    op,
    key,
    index: 0,
    isLast: true,
    source: new Blob([new Uint8Array([1, 2, 3])]),
    start: 0,
    end: 3,
  };
}

// The worker entry listens on `self`; in happy-dom that is the window, so the test talks to it there.
describe('crypto.worker entry', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('answers each message with the transferred result, or a failure', async () => {
    const answers: { response: CryptoResponse; transfer: unknown }[] = [];
    vi.spyOn(self, 'postMessage').mockImplementation((message: unknown, options?: unknown) => {
      answers.push({ response: message as CryptoResponse, transfer: options });
    });
    await import('./crypto.worker');
    const key = await generateFileKey();
    const plain = new Uint8Array([4, 5, 6]);
    const request: CryptoRequest = {
      id: 7,
      op: 'encrypt-slice',
      key,
      index: 2,
      isLast: true,
      source: new Blob([plain]),
      start: 0,
      end: 3,
    };
    self.dispatchEvent(new MessageEvent('message', { data: request }));
    const encrypted = await encryptChunk(key, 0, true, plain);
    self.dispatchEvent(
      new MessageEvent('message', {
        data: {
          id: 8,
          op: 'decrypt',
          key,
          index: 1,
          isLast: true,
          data: encrypted.buffer,
        } satisfies CryptoRequest,
      }),
    );
    await vi.waitFor(() => {
      expect(answers).toHaveLength(2);
    });
    const ok = answers.find((a) => a.response.id === 7);
    if (ok?.response.ok !== true) throw new Error('expected a successful answer');
    const { data, iv } = ok.response;
    expect(ok.transfer).toEqual({ transfer: [data, iv] });
    const chunk = new Uint8Array([...new Uint8Array(iv ?? new ArrayBuffer(0)), ...new Uint8Array(data)]);
    expect([...(await decryptChunk(key, 2, true, chunk))]).toEqual([4, 5, 6]);
    const failed = answers.find((a) => a.response.id === 8)?.response;
    expect(failed).toMatchObject({ ok: false, error: { kind: 'integrity' } });
  });

  it('answers a failure when the result cannot be posted, so the page never waits forever', async () => {
    const answers = answersRefusingTransfers(() => true);
    await import('./crypto.worker');
    const request = await oneChunkRequest(9, 'encrypt-slice');
    self.dispatchEvent(new MessageEvent('message', { data: request }));
    await vi.waitFor(() => {
      expect(answers.filter((answer) => 'ok' in answer)).toHaveLength(1);
    });
    expect(answers.find((answer) => 'ok' in answer)).toMatchObject({ id: 9, ok: false });
  });

  it('drops a sealed part whose answer cannot be posted: the page never learns of it, so nothing may hold it', async () => {
    let refuse = true;
    const answers = answersRefusingTransfers(() => refuse);
    await import('./crypto.worker');
    const seal = await oneChunkRequest(21, 'seal-part');
    self.dispatchEvent(new MessageEvent('message', { data: seal }));
    await vi.waitFor(() => {
      expect(answers.find((answer) => answer.id === 21 && 'ok' in answer)).toMatchObject({ ok: false });
    });
    refuse = false;
    // Sending it now finds no part: it is lost (a held part would be sent, and fail on the network).
    const send: CryptoRequest = {
      id: 22,
      op: 'send-part',
      parts: [21],
      method: 'PUT',
      url: 'http://127.0.0.1:9/part',
      headers: {},
    };
    self.dispatchEvent(new MessageEvent('message', { data: send }));
    await vi.waitFor(() => {
      expect(answers.find((answer) => answer.id === 22 && 'ok' in answer)).toMatchObject({
        ok: false,
        error: { name: 'PartLostError' },
      });
    });
  });
});
