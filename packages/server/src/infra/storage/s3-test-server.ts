import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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
  writesBeforeAnswering((s3rver as unknown as { store: S3rverStore }).store);
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

/**
 * s3rver 3.7.1 answers a PUT (an object's or a part's) once the body has gone through its MD5 hash,
 * not once it is in the file: its store resolves on the hash stream's 'finish', before the file
 * stream's. A read right after could find a shorter file: seen once in `npm test` under the full
 * suite's load, a small object read back as 0 bytes (blob-store.int.test.ts › round-trips a small
 * body). These replacements write the same files and answer only once they are written.
 */
/** s3rver's file-system store (untyped): the methods replaced below, and what they use. */
interface S3rverStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: unknown, md5: string): Promise<void>;
  putObject(object: {
    bucket: string;
    key: string;
    content: NodeJS.ReadableStream | Buffer;
    metadata: unknown;
  }): Promise<{ size: number; md5: string }>;
  putPart(
    bucket: string,
    uploadId: string,
    partNumber: number,
    content: NodeJS.ReadableStream,
  ): Promise<{ size: number; md5: string }>;
}

function writesBeforeAnswering(store: S3rverStore): void {
  const writeHashed = async (
    content: NodeJS.ReadableStream | Buffer,
    path: string,
  ): Promise<{ size: number; md5: string }> => {
    await mkdir(dirname(path), { recursive: true });
    const md5 = createHash('md5');
    let size = 0;
    await pipeline(
      Buffer.isBuffer(content) ? Readable.from([content]) : content,
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          md5.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      }),
      createWriteStream(path),
    );
    return { size, md5: md5.digest('hex') };
  };
  store.putObject = async (object) => {
    const written = await writeHashed(
      object.content,
      store.getResourcePath(object.bucket, object.key, 'object'),
    );
    await store.putMetadata(object.bucket, object.key, object.metadata, written.md5);
    return written;
  };
  store.putPart = async (bucket, uploadId, partNumber, content) => {
    const path = join(store.getResourcePath(bucket, undefined, 'uploads'), uploadId, String(partNumber));
    const written = await writeHashed(content, path);
    await writeFile(`${path}.md5`, written.md5);
    return written;
  };
}
