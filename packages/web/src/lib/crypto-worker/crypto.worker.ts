/**
 * The crypto worker (a module worker, bundled by Vite): encrypts or decrypts one chunk per
 * message with `@coffer/crypto`, sends upload parts and runs downloads, so multi-gigabyte transfers
 * never block the page. Requests run
 * as they come (each cipher call runs on this thread until its chunk is done: Chromium's WebCrypto is
 * synchronous under its promise); every request gets exactly one answer.
 */
import { describeFailure, responseTransfer } from './chunk-cipher';
import { processCryptoRequest } from './process-request';
import type { CryptoProgress, CryptoRequest, CryptoResponse } from './protocol';
import { checkStreamingGcm } from './streaming-support';

// Once, at start: uploads and downloads here seal and open slice by slice only where it passed.
void checkStreamingGcm();

self.addEventListener('message', (event: MessageEvent<CryptoRequest>) => {
  const { id } = event.data;
  const onProgress = (progress: number, total?: number | null): void => {
    self.postMessage({ id, progress, ...(total === undefined ? {} : { total }) } satisfies CryptoProgress);
  };
  void processCryptoRequest(event.data, onProgress).then((response) => {
    try {
      // A result buffer goes back to the page without a copy; a Blob goes as a reference.
      self.postMessage(response, { transfer: responseTransfer(response) });
    } catch (cause) {
      // An answer that cannot be posted (a detached buffer…) still answers: the page must not wait forever.
      self.postMessage({ id, ok: false, error: describeFailure(cause) } satisfies CryptoResponse);
      // The page never learns of a part it was not told about: it must not stay held.
      if (event.data.op === 'seal-part') void processCryptoRequest({ id, op: 'drop-part', part: id });
    }
  });
});
