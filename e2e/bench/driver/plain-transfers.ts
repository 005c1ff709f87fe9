// Browser globals for the functions that run in the page (`page.evaluate`).
/// <reference lib="dom" />
import { stat } from 'node:fs/promises';
import { CHUNK_OVERHEAD_BYTES, CHUNK_SIZE } from '@coffer/contracts';
import type { TestFile } from '../../helpers/files.js';
import { elapsed } from '../bench-units.js';
import { transferTimeoutMs } from './measured-run.js';
import type { Harness } from './session.js';

export interface PlainUploadResult {
  fileId: string;
  ms: number;
}

/**
 * The file's bytes through the same route without encryption: a multipart upload with a dummy
 * wrapped key, each part a 95 MiB slice of the File plus 28 zero bytes (the size the server
 * expects of an encrypted chunk), sent with XHR one part at a time. Timed in the page.
 */
export async function plainUpload(h: Pick<Harness, 'page'>, file: TestFile): Promise<PlainUploadResult> {
  const { page } = h;
  await page.evaluate(addBenchFileInput, PLAIN_INPUT_ID);
  await page.locator(`#${PLAIN_INPUT_ID}`).setInputFiles(file.path);
  try {
    return await page.evaluate(plainUploadInPage, {
      chunkSize: CHUNK_SIZE,
      overhead: CHUNK_OVERHEAD_BYTES,
      inputId: PLAIN_INPUT_ID,
    });
  } finally {
    await page.evaluate((id) => document.getElementById(id)?.remove(), PLAIN_INPUT_ID);
  }
}

/** The id of the hidden file input the plain upload reads its File from. */
export const PLAIN_INPUT_ID = 'coffer-bench-file';

/** In the page: a hidden file input with this id, for the driver to give the file to. */
export function addBenchFileInput(id: string): void {
  const input = document.createElement('input');
  input.type = 'file';
  input.id = id;
  input.hidden = true;
  document.body.append(input);
}

/**
 * In the page (Chromium or Firefox): the plain upload of the File in input `inputId`, timed in the
 * page; answers the stored file's id.
 */
export async function plainUploadInPage({
  chunkSize,
  overhead,
  inputId,
}: {
  chunkSize: number;
  overhead: number;
  inputId: string;
}): Promise<PlainUploadResult> {
  const token = (): string => {
    const key = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:')) ?? '';
    const user = JSON.parse(localStorage.getItem(key) ?? '{}') as { access_token?: string };
    return user.access_token ?? '';
  };
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`/api${path}`, {
      method,
      headers: { Authorization: `Bearer ${token()}`, 'Content-Type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const put = (url: string, body: Blob): Promise<string> =>
    new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('PUT', url);
      xhr.setRequestHeader('Authorization', `Bearer ${token()}`);
      xhr.setRequestHeader('Content-Type', 'application/octet-stream');
      xhr.onload = () => {
        if (xhr.status >= 200 && xhr.status < 300)
          resolve((JSON.parse(xhr.responseText) as { etag: string }).etag);
        else reject(new Error(`PUT ${url}: ${xhr.status} ${xhr.responseText}`));
      };
      xhr.onerror = () => {
        reject(new Error(`PUT ${url}: network error`));
      };
      xhr.send(body);
    });

  const element = document.getElementById(inputId) as HTMLInputElement;
  const file = element.files?.[0];
  if (file === undefined) throw new Error('no file');
  const { keyId } = await api<{ keyId: string }>('GET', '/users/keys/active');
  const wrapped = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(256))));
  const count = Math.max(1, Math.ceil(file.size / chunkSize));
  const pad = new Uint8Array(overhead);

  const started = performance.now();
  const created = await api<{ uploadId: string; objectKey: string }>('POST', '/users/uploads/multipart', {
    name: `plain-${file.name}`,
    contentType: 'application/octet-stream',
    size: file.size,
    parts: count,
    isEncrypted: true,
    encryptionInfo: {
      version: keyId,
      algorithm: 'AES-GCM',
      iv: '',
      encryptedFileKey: wrapped,
      format: 'coffer-v1',
      chunkSize,
    },
  });
  const parts: { partNumber: number; etag: string }[] = [];
  for (let index = 0; index < count; index++) {
    const slice = file.slice(index * chunkSize, Math.min(file.size, (index + 1) * chunkSize));
    const url =
      `/api/users/uploads/multipart/${encodeURIComponent(created.uploadId)}/part/${index + 1}` +
      `?objectKey=${encodeURIComponent(created.objectKey)}`;
    parts.push({ partNumber: index + 1, etag: await put(url, new Blob([slice, pad])) });
  }
  const stored = await api<{ fileId: string }>(
    'POST',
    `/users/uploads/multipart/${encodeURIComponent(created.uploadId)}/complete`,
    { uploadId: created.uploadId, objectKey: created.objectKey, parts },
  );
  return { fileId: stored.fileId, ms: performance.now() - started };
}

/**
 * The stored object as an ordinary browser download (no service worker, no decryption), in a
 * second context that sends the bearer header with every request. Timed to the file on disk.
 */
export async function plainDownload(h: Harness, fileId: string, expected: number): Promise<number> {
  const { token } = await h.page.evaluate(accessSessionInPage);
  const context = await h.browser.newContext({
    acceptDownloads: true,
    extraHTTPHeaders: { Authorization: `Bearer ${token}` },
  });
  try {
    const page = await context.newPage();
    await page.goto(`${h.base}/api/health`);
    const url = `${h.base}/api/users/files/${encodeURIComponent(fileId)}/download`;
    const start = process.hrtime.bigint();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: transferTimeoutMs(expected) }),
      page.evaluate((target) => {
        location.href = target;
      }, url),
    ]);
    const path = await download.path();
    const seconds = elapsed(start);
    const { size } = await stat(path);
    if (size !== expected) throw new Error(`plain download: ${size} bytes, expected ${expected}`);
    await download.delete();
    return seconds;
  } finally {
    await context.close();
  }
}

/** In the page: the signed-in person's access token and when it expires (ms since the epoch). */
export function accessSessionInPage(): { token: string; expiresAt: number } {
  const key = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:')) ?? '';
  const user = JSON.parse(localStorage.getItem(key) ?? '{}') as {
    access_token?: string;
    expires_at?: number;
  };
  return { token: user.access_token ?? '', expiresAt: (user.expires_at ?? 0) * 1000 };
}
