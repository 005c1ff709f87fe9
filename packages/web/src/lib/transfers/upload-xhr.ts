import { uploadMessages } from '@coffer/contracts';
import { uploadHttpErrorMessage } from './error-mapping';
import { TransferAbortedError, TransferError } from './transfer-errors';

/** Makes the XMLHttpRequest for one request; tests pass a fake. */
export type XhrFactory = () => XMLHttpRequest;

export const createBrowserXhr: XhrFactory = () => new XMLHttpRequest();

export interface XhrUploadRequest {
  readonly method: 'POST' | 'PUT';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** A Blob (the encrypted part) or FormData (the direct upload). */
  readonly body: Blob | FormData;
  readonly signal: AbortSignal;
  /** Bytes of the body sent so far, and the body's total when the browser knows it. */
  readonly onProgress?: (loaded: number, total: number | null) => void;
  /** Called on a 401 answer (the session renews its token or signs out). */
  readonly onUnauthorized?: () => void;
}

export interface XhrAnswer {
  readonly status: number;
  readonly responseText: string;
  header(name: string): string | null;
}

/**
 * Sends one upload request with XHR, the transport whose upload progress works for 95 MiB bodies
 * (fetch cannot stream a request body over HTTP/1.1). Resolves with a 2xx answer.
 * @throws {TransferAbortedError} 'Upload was aborted' when `signal` aborts.
 * @throws {TransferError} NETWORK ('Network error during upload') or HTTP (spec section 8 mapping).
 */
export function sendUploadXhr(request: XhrUploadRequest, createXhr: XhrFactory): Promise<XhrAnswer> {
  return new Promise((resolve, reject) => {
    if (request.signal.aborted) {
      reject(new TransferAbortedError(uploadMessages.aborted));
      return;
    }
    const xhr = createXhr();
    const onAbortSignal = (): void => {
      xhr.abort();
    };
    const settle = (): void => {
      request.signal.removeEventListener('abort', onAbortSignal);
    };
    xhr.open(request.method, request.url);
    for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.addEventListener('progress', (event: ProgressEvent) => {
      request.onProgress?.(event.loaded, event.lengthComputable ? event.total : null);
    });
    xhr.addEventListener('load', () => {
      settle();
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve({
          status: xhr.status,
          responseText: xhr.responseText,
          header: (name) => xhr.getResponseHeader(name),
        });
      } else {
        if (xhr.status === 401) request.onUnauthorized?.();
        const message = uploadHttpErrorMessage(xhr.status, xhr.statusText, xhr.responseText);
        reject(new TransferError('HTTP', message, { status: xhr.status }));
      }
    });
    xhr.addEventListener('error', () => {
      settle();
      reject(new TransferError('NETWORK', uploadMessages.networkError));
    });
    xhr.addEventListener('timeout', () => {
      settle();
      reject(new TransferError('NETWORK', uploadMessages.networkError));
    });
    xhr.addEventListener('abort', () => {
      settle();
      reject(new TransferAbortedError(uploadMessages.aborted));
    });
    request.signal.addEventListener('abort', onAbortSignal, { once: true });
    xhr.send(request.body);
  });
}
