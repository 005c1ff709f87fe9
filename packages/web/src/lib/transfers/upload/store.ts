import type { EncryptedSlice, SealedPart } from '../../crypto-worker/chunk-cipher';
import { blobPartsOf } from '../buffers';
import { sendUploadXhr, type XhrFactory } from '../upload-xhr';
import { throwIfAborted } from './upload-context';

/**
 * The upload's store stage on the page's thread (docs/transfers.md, "Pipeline"): where the cipher
 * answers the sealed bytes (no crypto worker: tests, a browser without module workers), the page
 * keeps the part as a Blob until it is sent. In the crypto worker the part is stored where it was
 * sealed (`crypto-worker/part-store.ts`: a part file, or a Blob).
 */

/**
 * The part `iv || ciphertext` as a Blob that XHR sends as is. The ciphertext is copied in
 * `SLICE_BYTES` (8 MiB) pieces, yielding in between, so no step blocks the main thread for long.
 */
export async function partBlob(sealed: EncryptedSlice, signal: AbortSignal): Promise<Blob> {
  const parts = await blobPartsOf(sealed.ciphertext, () => {
    throwIfAborted(signal);
  });
  return new Blob([sealed.iv, ...parts], { type: 'application/octet-stream' });
}

/** A part the page holds as `body`: sent by the page's own XHR (a PUT), nothing to free. */
export function heldOnPage(body: Blob, createXhr: XhrFactory): SealedPart {
  return {
    size: body.size,
    send: (request) => sendUploadXhr({ ...request, method: 'PUT', body }, createXhr),
    release: () => undefined,
  };
}
