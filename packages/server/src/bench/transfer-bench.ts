/**
 * Server transfer benchmark (issue "Server files"): encrypted-size uploads and downloads through the
 * real API (fs blob store, SQLite) with several transfers at once, next to a plain disk write and read
 * of the same bytes in the same run, and the server's peak RSS growth (it must stream).
 *
 *   npm run build && npm run bench -w @coffer/server [-- --sizes-gib=1,4 --parallel=4 --s3-sizes-gib=1]
 *
 * The server runs as a child process (`dist/main.js`, as `npm start` runs it) so its memory is measured
 * alone; this process only generates and discards bytes.
 */
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { randomBytes, webcrypto } from 'node:crypto';
import { chunkCountFor, encryptedPartSizeFor, encryptedSizeFor } from '@coffer/contracts';
import { startS3TestServer } from '../infra/storage/s3-test-server.js';
import { startTestIssuer, userClaims } from '../test/test-issuer.js';

const GIB = 1024 ** 3;
const MB = 1e6;
const BLOCK = randomBytes(4 * 1024 * 1024);

interface Args {
  sizesGib: number[];
  parallel: number;
  /** Sizes for the S3 run (s3rver on loopback); empty skips it. */
  s3SizesGib: number[];
}

function parseArgs(argv: string[]): Args {
  const get = (name: string): string | undefined =>
    argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  return {
    sizesGib: (get('sizes-gib') ?? '1,4').split(',').map(Number),
    parallel: Number(get('parallel') ?? 4),
    s3SizesGib: (get('s3-sizes-gib') ?? '1')
      .split(',')
      .filter((v) => v !== '')
      .map(Number),
  };
}

function* bytesOf(total: number): Generator<Buffer> {
  for (let sent = 0; sent < total; sent += BLOCK.length)
    yield BLOCK.subarray(0, Math.min(BLOCK.length, total - sent));
}

interface HttpResult {
  status: number;
  body: string;
}

function http(
  base: string,
  method: string,
  path: string,
  token: string,
  body?: { json?: unknown; bytes?: number },
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { authorization: `Bearer ${token}` };
    if (body?.json !== undefined) headers['content-type'] = 'application/json';
    if (body?.bytes !== undefined) {
      headers['content-type'] = 'application/octet-stream';
      headers['content-length'] = body.bytes;
    }
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body?.json !== undefined) req.end(JSON.stringify(body.json));
    else if (body?.bytes !== undefined) {
      const bytes = body.bytes;
      void (async () => {
        for (const piece of bytesOf(bytes)) {
          if (!req.write(piece)) await new Promise((r) => req.once('drain', r));
        }
        req.end();
      })();
    } else req.end();
  });
}

function download(base: string, path: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      let n = 0;
      res.on('data', (c: Buffer) => (n += c.length));
      res.on('end', () => {
        resolve(n);
      });
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

function expectOk(res: HttpResult, what: string): Record<string, unknown> {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.body}`);
  return JSON.parse(res.body) as Record<string, unknown>;
}

async function uploadFile(base: string, token: string, keyId: string, plain: number): Promise<string> {
  const parts = chunkCountFor(plain);
  const created = expectOk(
    await http(base, 'POST', '/api/users/uploads/multipart', token, {
      json: {
        name: 'bench.bin',
        contentType: 'application/octet-stream',
        size: plain,
        parts,
        isEncrypted: true,
        encryptionInfo: {
          version: keyId,
          algorithm: 'AES-GCM',
          iv: '',
          encryptedFileKey: randomBytes(256).toString('base64'),
          format: 'coffer-v1',
          chunkSize: 99614720,
        },
      },
    }),
    'create',
  ) as { uploadId: string; objectKey: string };
  const etags: { partNumber: number; etag: string }[] = [];
  for (let n = 1; n <= parts; n++) {
    const size = encryptedPartSizeFor(plain, n) ?? 0;
    const res = expectOk(
      await http(
        base,
        'PUT',
        `/api/users/uploads/multipart/${created.uploadId}/part/${n}?objectKey=${encodeURIComponent(created.objectKey)}`,
        token,
        { bytes: size },
      ),
      `part ${n}`,
    ) as { etag: string };
    etags.push({ partNumber: n, etag: res.etag });
  }
  const file = expectOk(
    await http(base, 'POST', `/api/users/uploads/multipart/${created.uploadId}/complete`, token, {
      json: { uploadId: created.uploadId, objectKey: created.objectKey, parts: etags },
    }),
    'complete',
  ) as { fileId: string };
  return file.fileId;
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
  return kb === undefined ? 0 : Number(kb) * 1024;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, value };
}

async function diskBaseline(
  dir: string,
  total: number,
  parallel: number,
): Promise<{ write: number; read: number }> {
  const files = Array.from({ length: parallel }, (_, i) => join(dir, `plain-${i}.bin`));
  const write = await timed(() =>
    Promise.all(files.map((f) => pipeline(bytesOf(total), createWriteStream(f)))),
  );
  const read = await timed(() =>
    Promise.all(
      files.map(async (f) => {
        let n = 0;
        for await (const c of createReadStream(f, { highWaterMark: 1024 * 1024 })) n += (c as Buffer).length;
        return n;
      }),
    ),
  );
  for (const f of files) rmSync(f, { force: true });
  return { write: write.seconds, read: read.seconds };
}

interface SuiteResult {
  rows: string[];
  idleRss: number;
  peakRss: number;
}

/** One server process with the given storage settings, the transfers at each size, then stop. */
async function runSuite(
  label: string,
  sizesGib: number[],
  parallel: number,
  storageEnv: Record<string, string>,
  withDiskBaseline: boolean,
): Promise<SuiteResult> {
  const dir = mkdtempSync(join(tmpdir(), 'coffer-bench-'));
  const issuer = await startTestIssuer();
  const port = 18000 + Math.floor(Math.random() * 1000);
  const base = `http://127.0.0.1:${port}`;
  const main = fileURLToPath(new URL('../main.js', import.meta.url));
  const plans = JSON.stringify({ storageLimit: 1024, monthlyUploadLimit: 100000, maxConcurrentUploads: 16 });
  const server = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: join(dir, 'data'),
      LOG_LEVEL: 'warn',
      OIDC_ISSUER: issuer.issuer,
      OIDC_AUDIENCE: issuer.audience,
      PLAN_LIMITS_FREE: plans,
      ...storageEnv,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const pid = server.pid ?? 0;
  try {
    for (let i = 0; i < 100; i++) {
      const ok = await download(base, '/api/health', '').then(
        () => true,
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const token = await issuer.mintToken(userClaims('bench'), { expiresInSec: 6 * 3600 });
    const pair = await webcrypto.subtle.generateKey(
      { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      true,
      ['encrypt', 'decrypt'],
    );
    const spki = Buffer.from(await webcrypto.subtle.exportKey('spki', pair.publicKey)).toString('base64');
    const wrapped = JSON.stringify({
      iv: randomBytes(12).toString('base64'),
      salt: randomBytes(16).toString('base64'),
      data: randomBytes(1232).toString('base64'),
      kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: 600000 },
    });
    const key = expectOk(
      await http(base, 'POST', '/api/users/keys', token, {
        json: { publicKey: spki, encryptedPrivateKey: wrapped },
      }),
      'key',
    ) as { keyId: string };

    const idleRss = rssOf(pid);
    let peakRss = idleRss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, rssOf(pid));
    }, 50);

    const rows: string[] = [];
    for (const gib of sizesGib) {
      const plain = Math.round(gib * GIB);
      const stored = encryptedSizeFor(plain);
      const totalMb = (stored * parallel) / MB;
      const up = await timed(() =>
        Promise.all(Array.from({ length: parallel }, () => uploadFile(base, token, key.keyId, plain))),
      );
      const down = await timed(() =>
        Promise.all(up.value.map((id) => download(base, `/api/users/files/${id}/download`, token))),
      );
      for (const n of down.value)
        if (n !== stored) throw new Error(`downloaded ${n} bytes, expected ${stored}`);
      for (const id of up.value) await http(base, 'DELETE', `/api/users/files/${id}`, token);
      const upRate = totalMb / up.seconds;
      const downRate = totalMb / down.seconds;
      if (withDiskBaseline) {
        const disk = await diskBaseline(dir, stored, parallel);
        const diskWrite = totalMb / disk.write;
        const diskRead = totalMb / disk.read;
        rows.push(
          `| ${label} | ${gib} GiB × ${parallel} | upload | ${upRate.toFixed(0)} | ${diskWrite.toFixed(0)} | ${(upRate / diskWrite).toFixed(2)} |`,
          `| ${label} | ${gib} GiB × ${parallel} | download | ${downRate.toFixed(0)} | ${diskRead.toFixed(0)} | ${(downRate / diskRead).toFixed(2)} |`,
        );
      } else {
        rows.push(
          `| ${label} | ${gib} GiB × ${parallel} | upload | ${upRate.toFixed(0)} | – | – |`,
          `| ${label} | ${gib} GiB × ${parallel} | download | ${downRate.toFixed(0)} | – | – |`,
        );
      }
    }
    clearInterval(sampler);
    return { rows, idleRss, peakRss };
  } finally {
    server.kill('SIGTERM');
    await issuer.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(0);

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const fs = await runSuite('fs', args.sizesGib, args.parallel, {}, true);
  let s3: SuiteResult | null = null;
  if (args.s3SizesGib.length > 0) {
    const s3rver = await startS3TestServer();
    try {
      s3 = await runSuite(
        's3rver',
        args.s3SizesGib,
        1,
        {
          S3_BUCKET: s3rver.bucket,
          S3_ENDPOINT: s3rver.endpoint,
          S3_FORCE_PATH_STYLE: 'true',
          AWS_ACCESS_KEY_ID: s3rver.credentials.accessKeyId,
          AWS_SECRET_ACCESS_KEY: s3rver.credentials.secretAccessKey,
        },
        false,
      );
    } finally {
      await s3rver.close();
    }
  }
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  console.log(`\n### Server transfers — ${new Date().toISOString().slice(0, 10)}\n`);
  console.log(
    `Machine: ${cpus().length} cores, ${cpu}, Node ${process.version}, load ${loadavg()[0]?.toFixed(1)}.\n`,
  );
  console.log('| store | size | direction | API MB/s | plain disk MB/s | ratio |');
  console.log('|---|---|---|---:|---:|---:|');
  for (const row of [...fs.rows, ...(s3?.rows ?? [])]) console.log(row);
  console.log(
    `\nServer RSS (fs run): idle ${mib(fs.idleRss)} MiB, peak ${mib(fs.peakRss)} MiB, growth ${mib(fs.peakRss - fs.idleRss)} MiB.`,
  );
  if (s3 !== null) {
    console.log(
      `Server RSS (s3rver run): idle ${mib(s3.idleRss)} MiB, peak ${mib(s3.peakRss)} MiB, growth ${mib(s3.peakRss - s3.idleRss)} MiB.`,
    );
  }
}

await main();
