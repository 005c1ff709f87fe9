/**
 * The crypto worker (a module worker, bundled by Vite): encrypts or decrypts one chunk per
 * message with `@coffer/crypto`, so multi-gigabyte transfers never block the page. Requests run
 * concurrently (WebCrypto works on its own threads); every request gets exactly one answer.
 */
import { processCryptoRequest } from './process-request';
import type { CryptoRequest } from './protocol';

self.addEventListener('message', (event: MessageEvent<CryptoRequest>) => {
  void processCryptoRequest(event.data).then((response) => {
    // The result's buffer goes back to the page without a copy.
    self.postMessage(response, { transfer: response.ok ? [response.data] : [] });
  });
});
