import type {
  CompleteMultipartUploadRequest,
  CreateMultipartUploadRequest,
  FileListItem,
  FileMetadata,
  NewEncryptionInfo,
} from '@coffer/contracts';
import { createApiClient, type ApiClient } from '../../api/http';
import { FakeXhr, type FakeXhrAnswer, type FakeXhrRequest } from './fake-xhr';

interface StoredFile {
  readonly metadata: FileMetadata;
  ciphertext: Uint8Array;
  /** The recipient's copy, for /users/files/shared/{id}. */
  sharedKey?: string | null;
}

interface MultipartUpload {
  readonly request: CreateMultipartUploadRequest;
  readonly objectKey: string;
  readonly parts: Map<number, Uint8Array>;
  aborted: boolean;
}

export interface DirectUploadRecord {
  readonly fieldOrder: readonly string[];
  readonly fields: Readonly<Record<string, string>>;
  readonly ciphertext: Uint8Array;
}

/** How the next part PUT (1-based part number) is answered. */
export type PartBehaviour =
  'ok' | 'no-etag' | 'network-error' | { status: number; body: string; statusText?: string };

export type DownloadBehaviour = 'ok' | 'truncate' | 'extend' | 'tamper' | 'stall';

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/**
 * An in-memory Coffer API for the engine's tests: JSON calls through a fake `fetch` (used by a
 * real ApiClient), uploads through {@link FakeXhr}, downloads as streams in small pieces.
 */
export class FakeCofferServer {
  readonly log: string[] = [];
  readonly authorizations: string[] = [];
  readonly files = new Map<string, StoredFile>();
  readonly multipart = new Map<string, MultipartUpload>();
  readonly directUploads: DirectUploadRecord[] = [];
  readonly createRequests: CreateMultipartUploadRequest[] = [];
  /** Called for every part PUT before it is stored. */
  partBehaviour: (partNumber: number) => PartBehaviour | Promise<PartBehaviour> = () => 'ok';
  directBehaviour: () => FakeXhrAnswer | null = () => null;
  downloadBehaviour: DownloadBehaviour = 'ok';
  /** `network-error`: the server-side abort (`DELETE` of a multipart upload) never reaches the server. */
  abortBehaviour: 'ok' | 'network-error' = 'ok';
  /**
   * Breaks the next download answers: each entry cuts one answer after that many bytes of the
   * object, by a network error (`error`) or by ending the body early (`end`).
   */
  downloadCuts: { at: number; how: 'error' | 'end' }[] = [];
  /** The `Range` header of every download request (null: none). */
  readonly downloadRanges: (string | null)[] = [];
  /** Bytes per piece of a download stream. */
  pieceSize = 1000;
  #sequence = 0;
  #token = 0;

  /** How often the client told its session about a 401 (the session would renew or sign out). */
  unauthorizedReports = 0;

  readonly api: ApiClient = createApiClient({
    getAccessToken: () => Promise.resolve(`token-${++this.#token}`),
    onUnauthorized: () => {
      this.unauthorizedReports++;
    },
    fetchImpl: (input, init) => this.fetch(input instanceof Request ? input.url : input.toString(), init),
  });

  readonly createXhr = (): XMLHttpRequest =>
    new FakeXhr((request) => this.#handleXhr(request)) as unknown as XMLHttpRequest;

  /** The fake `fetch`: JSON calls and download streams. */
  readonly fetch = (url: string, init: RequestInit = {}): Promise<Response> =>
    Promise.resolve().then(() => this.#route(url, init));

  #route(url: string, init: RequestInit): Response {
    const method = init.method ?? 'GET';
    const path = new URL(url, 'http://coffer.test').pathname;
    this.log.push(`${method} ${path}`);
    const auth = new Headers(init.headers).get('Authorization');
    if (auth !== null) this.authorizations.push(auth);
    if (init.signal?.aborted === true) throw new DOMException('aborted', 'AbortError');
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    let match: RegExpExecArray | null;

    if (method === 'POST' && path === '/api/users/uploads/multipart') {
      const request = body as CreateMultipartUploadRequest;
      this.createRequests.push(request);
      const uploadId = `up${++this.#sequence}`;
      const objectKey = `u/${uploadId}/object`;
      this.multipart.set(uploadId, { request, objectKey, parts: new Map(), aborted: false });
      return json(201, { uploadId, objectKey });
    }
    if ((match = /^\/api\/users\/uploads\/multipart\/([^/]+)\/complete$/.exec(path)) && method === 'POST') {
      const upload = this.multipart.get(match[1] ?? '');
      const request = body as CompleteMultipartUploadRequest;
      if (upload === undefined || upload.aborted)
        return json(404, { code: 'NOT_FOUND', message: 'no upload' });
      const pieces = request.parts.map((part) => upload.parts.get(part.partNumber) ?? new Uint8Array(0));
      const item = this.addFile(
        upload.request.name,
        upload.request.size,
        upload.request.encryptionInfo,
        concat(pieces),
      );
      this.multipart.delete(match[1] ?? '');
      return json(201, item);
    }
    if ((match = /^\/api\/users\/uploads\/multipart\/([^/]+)$/.exec(path)) && method === 'GET') {
      const uploadId = match[1] ?? '';
      const upload = this.multipart.get(uploadId);
      if (upload === undefined || upload.aborted)
        return json(404, { code: 'NOT_FOUND', message: 'no upload' });
      return json(200, {
        uploadId,
        objectKey: upload.objectKey,
        fileName: upload.request.name,
        contentType: upload.request.contentType,
        size: upload.request.size,
        createdAt: new Date(0).toISOString(),
        parts: upload.request.parts,
        heldParts: [...upload.parts]
          .sort(([a], [b]) => a - b)
          .map(([partNumber, bytes]) => ({ partNumber, size: bytes.length, etag: `"etag-${partNumber}"` })),
        encryptionInfo: upload.request.encryptionInfo,
      });
    }
    if ((match = /^\/api\/users\/uploads\/multipart\/([^/]+)$/.exec(path)) && method === 'DELETE') {
      if (this.abortBehaviour === 'network-error') throw new TypeError('Failed to fetch');
      const upload = this.multipart.get(match[1] ?? '');
      if (upload === undefined) return json(404, { code: 'NOT_FOUND', message: 'no upload' });
      upload.aborted = true;
      return json(200, { ok: true });
    }
    if ((match = /^\/api\/users\/files\/shared\/([^/]+)$/.exec(path)) && method === 'GET') {
      const file = this.files.get(match[1] ?? '');
      if (file === undefined) return json(404, { code: 'FILE_NOT_FOUND', message: 'gone' });
      return json(200, { file: file.metadata, owner: 'owner@example.com', encryptedFileKey: file.sharedKey });
    }
    if ((match = /^\/api\/users\/files\/(shared\/)?([^/]+)\/download$/.exec(path)) && method === 'GET') {
      const file = this.files.get(match[2] ?? '');
      if (file === undefined) return json(404, { code: 'FILE_NOT_FOUND', message: 'gone' });
      const range = new Headers(init.headers).get('Range');
      this.downloadRanges.push(range);
      const start = range === null ? 0 : Number(/^bytes=(\d+)-$/.exec(range)?.[1] ?? Number.NaN);
      const size = file.ciphertext.length;
      if (!(start >= 0 && start < size)) return new Response(null, { status: 416 });
      return new Response(this.#downloadStream(file.ciphertext, init.signal ?? null, start), {
        status: range === null ? 200 : 206,
        headers: {
          'Content-Type': 'application/octet-stream',
          ...(range === null ? {} : { 'Content-Range': `bytes ${start}-${size - 1}/${size}` }),
        },
      });
    }
    if ((match = /^\/api\/users\/files\/([^/]+)$/.exec(path)) && method === 'GET') {
      const file = this.files.get(match[1] ?? '');
      if (file === undefined) return json(404, { code: 'FILE_NOT_FOUND', message: 'gone' });
      return json(200, file.metadata);
    }
    return json(404, { code: 'NOT_FOUND', message: `no route ${method} ${path}` });
  }

  /** Stores a file (as an upload would) and returns its list item. */
  addFile(
    name: string,
    size: number,
    encryptionInfo: NewEncryptionInfo | FileMetadata['encryptionInfo'],
    ciphertext: Uint8Array,
  ): FileListItem {
    const fileId = `f${++this.#sequence}`;
    const uploadedAt = new Date(0).toISOString();
    this.files.set(fileId, {
      ciphertext,
      metadata: {
        fileId,
        name,
        originalFilename: name,
        contentType: 'application/octet-stream',
        size,
        isEncrypted: encryptionInfo !== null,
        encryptionInfo,
        uploadedAt,
      },
    });
    return {
      fileId,
      name,
      contentType: 'application/octet-stream',
      isEncrypted: true,
      size,
      uploadedAt,
      ownerId: 'owner',
    };
  }

  async #handleXhr(request: FakeXhrRequest): Promise<FakeXhrAnswer> {
    const path = new URL(request.url, 'http://coffer.test').pathname;
    this.log.push(`${request.method} ${path}`);
    this.authorizations.push(request.headers.Authorization ?? '');
    const part = /^\/api\/users\/uploads\/multipart\/([^/]+)\/part\/(\d+)$/.exec(path);
    if (request.method === 'PUT' && part !== null) {
      const upload = this.multipart.get(part[1] ?? '');
      const partNumber = Number(part[2]);
      if (upload === undefined || upload.aborted)
        return { kind: 'response', status: 404, body: '{"code":"NOT_FOUND","message":"x"}' };
      const behaviour = await this.partBehaviour(partNumber);
      if (behaviour === 'network-error') return { kind: 'network-error' };
      if (typeof behaviour === 'object') return { kind: 'response', ...behaviour };
      upload.parts.set(partNumber, request.bytes ?? new Uint8Array(0));
      return {
        kind: 'response',
        status: 200,
        body: behaviour === 'no-etag' ? '{}' : JSON.stringify({ etag: `"etag-${partNumber}"` }),
      };
    }
    if (request.method === 'POST' && path === '/api/users/uploads/direct' && request.form !== null) {
      const override = this.directBehaviour();
      if (override !== null) return override;
      const fields: Record<string, string> = {};
      let ciphertext = new Uint8Array(0);
      for (const [name, value] of request.form) {
        if (typeof value === 'string') fields[name] = value;
        else ciphertext = new Uint8Array(await value.arrayBuffer());
      }
      this.directUploads.push({ fieldOrder: request.form.map(([name]) => name), fields, ciphertext });
      const info = JSON.parse(fields.encryptionInfo ?? 'null') as NewEncryptionInfo;
      const item = this.addFile(fields.name ?? '', Number(fields.size), info, ciphertext);
      return { kind: 'response', status: 201, body: JSON.stringify(item) };
    }
    return { kind: 'response', status: 404, body: '{"code":"NOT_FOUND","message":"no route"}' };
  }

  #downloadStream(
    ciphertext: Uint8Array,
    signal: AbortSignal | null,
    start: number,
  ): ReadableStream<Uint8Array> {
    let bytes = ciphertext;
    if (this.downloadBehaviour === 'truncate') bytes = bytes.subarray(0, bytes.length - 10);
    if (this.downloadBehaviour === 'extend') bytes = concat([bytes, new Uint8Array([1, 2, 3])]);
    if (this.downloadBehaviour === 'tamper') {
      bytes = bytes.slice();
      const at = Math.floor(bytes.length / 2);
      bytes[at] = (bytes[at] ?? 0) ^ 0xff;
    }
    const stall = this.downloadBehaviour === 'stall';
    const cut = this.downloadCuts.shift();
    if (cut !== undefined) bytes = bytes.subarray(0, Math.max(start, cut.at));
    let offset = start;
    const pieceSize = this.pieceSize;
    return new ReadableStream<Uint8Array>({
      start(controller) {
        signal?.addEventListener('abort', () => {
          controller.error(new DOMException('aborted', 'AbortError'));
        });
      },
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (signal?.aborted === true) return;
        if (stall && offset >= pieceSize) return new Promise<void>(() => undefined);
        if (offset >= bytes.length) {
          if (cut?.how === 'error') controller.error(new TypeError('network error'));
          else controller.close();
          return;
        }
        controller.enqueue(bytes.slice(offset, offset + pieceSize));
        offset += pieceSize;
      },
    });
  }
}

export function concat(pieces: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let offset = 0;
  for (const piece of pieces) {
    out.set(piece, offset);
    offset += piece.length;
  }
  return out;
}

/** Deterministic test content. */
export function patternBytes(length: number, seed = 1): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    out[i] = state >>> 24;
  }
  return out;
}
