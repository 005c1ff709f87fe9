import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  close(): Promise<void>;
}

/**
 * A real s3rver (temp directory, one bucket) behind a small front that adds the S3 behaviour
 * s3rver 3.7.1 lacks, so the contract suite holds the S3 store to what AWS S3 actually does
 * (each point checked in s3rver's source):
 *
 * - PutObject / UploadPart are atomic: s3rver streams straight into the object file, so an upload
 *   cut off midway leaves a partial object. The front buffers each request body and forwards it
 *   only once complete (test bodies are small).
 * - AbortMultipartUpload: s3rver answers 405; the front forgets the upload.
 * - NoSuchUpload for part uploads and completion of unknown, aborted or completed uploads:
 *   s3rver creates the folder on demand or fails with a 500.
 * - CompleteMultipartUpload checks that every listed part exists with that ETag (`InvalidPart`)
 *   and that parts ascend (`InvalidPartOrder`); s3rver assembles whatever is listed.
 *
 * Everything else (auth, storage, ranges, errors) is s3rver's own.
 */
export async function startS3TestServer(): Promise<S3TestServer> {
  const bucket = 'coffer-test';
  const directory = await mkdtemp(join(tmpdir(), 'coffer-s3rver-'));
  const s3rver = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const upstream = await s3rver.run();
  const uploads = new Map<string, { key: string; parts: Map<number, string> }>();

  const front = createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) sendError(res, 500, 'InternalError');
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readWholeBody(req);
    if (body === null) return; // The client gave up midway: like S3, store nothing.
    const url = new URL(req.url ?? '/', 'http://s3');
    const key = decodeURIComponent(url.pathname.split('/').slice(2).join('/'));
    const uploadId = url.searchParams.get('uploadId');
    const upload = uploadId === null ? undefined : uploads.get(uploadId);
    if (uploadId !== null && upload?.key !== key) {
      sendError(res, 404, 'NoSuchUpload');
      return;
    }
    if (uploadId !== null && upload !== undefined) {
      if (req.method === 'DELETE') {
        uploads.delete(uploadId);
        res.writeHead(204).end();
        return;
      }
      if (req.method === 'POST') {
        const problem = checkPartList(body.toString('utf8'), upload.parts);
        if (problem !== null) {
          sendError(res, 400, problem);
          return;
        }
      }
    }
    const answer = await forward(req, body);
    const status = answer.statusCode ?? 500;
    if (status === 200 && uploadId !== null && upload !== undefined) {
      const partNumber = url.searchParams.get('partNumber');
      if (req.method === 'PUT' && partNumber !== null && typeof answer.headers.etag === 'string') {
        upload.parts.set(Number(partNumber), answer.headers.etag.replaceAll('"', ''));
      }
      if (req.method === 'POST') uploads.delete(uploadId);
    }
    res.writeHead(status, answer.headers);
    if (status === 200 && req.method === 'POST' && url.searchParams.has('uploads')) {
      const xml = (await readWholeBody(answer))?.toString('utf8') ?? '';
      const id = /<UploadId>([^<]+)<\/UploadId>/.exec(xml)?.[1];
      if (id !== undefined) uploads.set(id, { key, parts: new Map() });
      res.end(xml);
      return;
    }
    // Streamed, not buffered: the store must cope with s3rver's responses as they come.
    res.flushHeaders();
    answer.pipe(res);
    res.on('close', () => answer.destroy());
  }

  function forward(req: IncomingMessage, body: Buffer): Promise<IncomingMessage> {
    const headers = { ...req.headers };
    delete headers.expect; // Not signed; the whole body is already here.
    return new Promise((resolve, reject) => {
      const outgoing = request(
        { host: upstream.address, port: upstream.port, method: req.method, path: req.url, headers },
        resolve,
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const { port } = front.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    async close() {
      front.closeAllConnections();
      await new Promise<void>((resolve) =>
        front.close(() => {
          resolve();
        }),
      );
      await s3rver.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** The body, or null if the sender stopped before the declared length. */
async function readWholeBody(message: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of message as AsyncIterable<Buffer>) chunks.push(chunk);
  } catch {
    return null;
  }
  const body = Buffer.concat(chunks);
  const declared = message.headers['content-length'];
  if (!message.complete || (declared !== undefined && Number(declared) !== body.length)) return null;
  return body;
}

function checkPartList(xml: string, stored: Map<number, string>): string | null {
  let previous = 0;
  for (const [, partXml = ''] of xml.matchAll(/<Part>(.*?)<\/Part>/gs)) {
    const partNumber = Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(partXml)?.[1]);
    const etag = (/<ETag>([^<]*)<\/ETag>/.exec(partXml)?.[1] ?? '')
      .replaceAll('&quot;', '')
      .replaceAll('"', '');
    if (!(partNumber > previous)) return 'InvalidPartOrder';
    if (stored.get(partNumber) !== etag) return 'InvalidPart';
    previous = partNumber;
  }
  return null;
}

function sendError(res: ServerResponse, status: number, code: string): void {
  const xml = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message><RequestId>test</RequestId></Error>`;
  res.writeHead(status, { 'content-type': 'application/xml' }).end(xml);
}
