/**
 * kill -9 of a real server process while a part upload, a direct upload and a download are streaming,
 * then a restart on the same data: the store and the database must agree (every file has exactly its
 * bytes, no stored object or temporary byte belongs to nothing), and the user can go on at once.
 * Runs with the fs store and with S3 (s3rver) on SQLite (the process owns its database file) and, when
 * `TEST_DATABASE_URL` is set, with S3 on PostgreSQL (a fresh schema on that server; PGlite lives in one
 * process and cannot be handed to a child).
 */
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { FileListItem, UploadsResponse } from '@coffer/contracts';
import { CHUNK_SIZE, chunkCountFor, encryptedSizeFor } from '@coffer/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from './infra/db/database.js';
import { startS3TestServer } from './infra/storage/s3-test-server.js';
import type { S3TestServer } from './infra/storage/s3-test-server.js';
import { createPostgresSchema, postgresUrl } from './test/db.js';
import { buildKeyRequest, encryptionInfoFor } from './test/factories.js';
import { formHead, killHard, startServer, streamingRequest } from './test/server-process.js';
import type { Running } from './test/server-process.js';
import { startTestIssuer, userClaims } from './test/test-issuer.js';
import type { TestIssuer } from './test/test-issuer.js';

const MiB = 1024 * 1024;

/*
 * SQLite with both stores; PostgreSQL (when TEST_DATABASE_URL is set) with S3, the topology of several
 * instances (docs/operations.md). What differs between the databases (a dead connection's transaction
 * rolled back by the server, not by the next open of a file) does not depend on the store, and each case
 * costs two server starts (~15 s each on a loaded 2-core machine), so PostgreSQL with fs is left out.
 */
const cases = [
  { database: 'sqlite', store: 'fs', s3: false },
  { database: 'sqlite', store: 's3', s3: true },
  ...(postgresUrl === undefined ? [] : [{ database: 'postgres', store: 's3', s3: true }]),
];

describe.each(cases)('crash recovery ($database, $store store)', ({ database: dialect, s3 }) => {
  let issuer: TestIssuer;
  let s3server: S3TestServer | undefined;
  let schema: { url: string; drop: () => Promise<void> } | undefined;
  let dataDir: string;
  let env: Record<string, string>;
  let server: Running | undefined;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    dataDir = mkdtempSync(join(tmpdir(), 'coffer-crash-'));
    if (dialect === 'postgres' && postgresUrl !== undefined) schema = await createPostgresSchema(postgresUrl);
    env = {
      DATA_DIR: dataDir,
      WEB_DIST_DIR: join(dataDir, 'no-web-build'),
      PUBLIC_URL: 'http://coffer.test',
      OIDC_ISSUER: issuer.issuer,
      OIDC_AUDIENCE: issuer.audience,
      // Empty: the SQLite file in DATA_DIR, whatever the environment says.
      DATABASE_URL: schema?.url ?? '',
    };
    if (s3) {
      s3server = await startS3TestServer();
      Object.assign(env, {
        S3_BUCKET: s3server.bucket,
        S3_ENDPOINT: s3server.endpoint,
        S3_FORCE_PATH_STYLE: 'true',
        AWS_ACCESS_KEY_ID: s3server.credentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: s3server.credentials.secretAccessKey,
      });
    }
  });
  afterAll(async () => {
    if (server?.process.exitCode === null) await killHard(server);
    await s3server?.close();
    await schema?.drop();
    await issuer.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('agrees with itself after kill -9 mid-transfer, and the user goes on at once', async () => {
    const token = await issuer.mintToken(userClaims('crash'));
    const auth = { authorization: `Bearer ${token}` };
    const api = async (running: Running, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${running.base}/api${path}`, {
        method,
        headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? null : JSON.stringify(body),
      });
      return { status: res.status, json: (await res.json()) as unknown };
    };

    server = await startServer(env);
    const key = await api(server, 'POST', '/users/keys', await buildKeyRequest());
    expect(key.status).toBe(201);
    const keyId = (key.json as { keyId: string }).keyId;

    // A finished 8 MiB file to download.
    const fileSize = 8 * MiB;
    const boundary = 'crashboundary';
    const fields = (size: number) => ({
      name: 'doc.bin',
      contentType: 'application/octet-stream',
      size: String(size),
      isEncrypted: 'true',
      encryptionInfo: JSON.stringify(encryptionInfoFor(keyId)),
    });
    const whole = Buffer.concat([
      formHead(boundary, fields(fileSize)),
      Buffer.alloc(encryptedSizeFor(fileSize), 1),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const stored = await fetch(`${server.base}/api/users/uploads/direct`, {
      method: 'POST',
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: whole,
    });
    expect(stored.status).toBe(201);
    const file = (await stored.json()) as FileListItem;

    // Three transfers in flight: part 1 of a 2-part upload, a 60 MiB direct upload, the download.
    const bigSize = CHUNK_SIZE + 10;
    const started = await api(server, 'POST', '/users/uploads/multipart', {
      name: 'movie.mp4',
      contentType: 'video/mp4',
      size: bigSize,
      parts: chunkCountFor(bigSize),
      isEncrypted: true,
      encryptionInfo: encryptionInfoFor(keyId),
    });
    expect(started.status).toBe(201);
    const upload = started.json as { uploadId: string; objectKey: string };
    const part = streamingRequest(
      `${server.base}/api/users/uploads/multipart/${upload.uploadId}/part/1?objectKey=${encodeURIComponent(upload.objectKey)}`,
      {
        method: 'PUT',
        headers: {
          ...auth,
          'content-type': 'application/octet-stream',
          'content-length': String(CHUNK_SIZE + 28),
        },
      },
      Buffer.alloc(0),
      CHUNK_SIZE + 28,
      40 * MiB,
    );
    const directSize = 60 * MiB;
    const directHead = formHead(boundary, fields(directSize));
    const direct = streamingRequest(
      `${server.base}/api/users/uploads/direct`,
      {
        method: 'POST',
        headers: {
          ...auth,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(directHead.length + encryptedSizeFor(directSize) + boundary.length + 8),
        },
      },
      directHead,
      encryptedSizeFor(directSize),
      24 * MiB,
    );
    const download = await new Promise<IncomingMessage>((resolve, reject) => {
      request(`${server?.base ?? ''}/api/users/files/${file.fileId}/download`, { headers: auth }, resolve)
        .on('error', reject)
        .end();
    });
    expect(download.statusCode).toBe(200);
    download.pause();
    await Promise.all([part.sent, direct.sent, once(download, 'readable')]);

    await killHard(server);
    for (const pending of [part, direct]) {
      pending.req.destroy();
      await pending.response;
    }
    download.destroy();

    server = await startServer(env);

    // The database and the store agree.
    const database = createDatabase({ url: schema?.url, dataDir });
    try {
      const files = await database.db.selectFrom('files').selectAll().execute();
      expect(files.map((f) => f.id)).toEqual([file.fileId]);
      const stored = new Map<string, number>();
      if (s3server === undefined) {
        const blobs = join(dataDir, 'blobs');
        // No temporary bytes are left: the dead process's scratch folder is gone.
        const tmpFiles = readdirSync(join(blobs, 'tmp'), { recursive: true, withFileTypes: true }).filter(
          (entry) => entry.isFile(),
        );
        expect(tmpFiles.map((entry) => entry.name)).toEqual([]);
        for (const entry of readdirSync(join(blobs, 'objects'), { recursive: true, withFileTypes: true })) {
          if (!entry.isFile()) continue;
          const path = join(entry.parentPath, entry.name);
          const key = path.slice(join(blobs, 'objects').length + 1).replace(/\.json$/, '');
          stored.set(key, (JSON.parse(await readFile(path, 'utf8')) as { size: number }).size);
        }
        // The open upload's folder holds no part: part 1 never finished.
        const uploadDirs = readdirSync(join(blobs, 'uploads'));
        expect(uploadDirs).toHaveLength(1);
        const [uploadDir] = uploadDirs;
        expect(readdirSync(join(blobs, 'uploads', uploadDir ?? ''))).toEqual(['upload.json']);
        expect(statSync(join(blobs, 'uploads', uploadDir ?? '', 'upload.json')).size).toBeGreaterThan(0);
      } else {
        const client = new S3Client({
          region: 'us-east-1',
          endpoint: s3server.endpoint,
          forcePathStyle: true,
          credentials: s3server.credentials,
        });
        const listed = await client.send(new ListObjectsV2Command({ Bucket: s3server.bucket }));
        for (const object of listed.Contents ?? []) stored.set(object.Key ?? '', object.Size ?? -1);
        client.destroy();
      }
      expect([...stored]).toEqual(files.map((f) => [f.object_key, f.stored_size]));
      const parts = await database.db.selectFrom('upload_parts').selectAll().execute();
      expect(parts).toEqual([]);
    } finally {
      await database.destroy();
    }

    // The user goes on at once: the file downloads whole, a new file uploads, the interrupted upload is
    // listed and cancelled, and a new large upload starts.
    const again = await fetch(`${server.base}/api/users/files/${file.fileId}/download`, { headers: auth });
    expect(again.status).toBe(200);
    expect((await again.arrayBuffer()).byteLength).toBe(encryptedSizeFor(fileSize));
    const small = await fetch(`${server.base}/api/users/uploads/direct`, {
      method: 'POST',
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: whole,
    });
    expect(small.status).toBe(201);
    const uploads = (await api(server, 'GET', '/users/uploads')).json as UploadsResponse;
    const interrupted = uploads.uploads.find((u) => u.uploadId === upload.uploadId);
    expect(interrupted?.status).toBe('pending');
    expect((await api(server, 'DELETE', `/users/uploads/multipart/${upload.uploadId}`)).status).toBe(200);
    const next = await api(server, 'POST', '/users/uploads/multipart', {
      name: 'movie.mp4',
      contentType: 'video/mp4',
      size: bigSize,
      parts: chunkCountFor(bigSize),
      isEncrypted: true,
      encryptionInfo: encryptionInfoFor(keyId),
    });
    expect(next.status).toBe(201);
  }, 180_000);
});
