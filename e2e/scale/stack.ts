/**
 * The scale-out topology, started for real on this machine: two built server processes (`dist/main.js`,
 * as `npm start` runs) on one PostgreSQL schema and one S3 endpoint (s3rver, as the S3 contract tests
 * use), behind nginx from Debian's packages, round robin, no sticky sessions. The same topology as
 * deploy/compose.yaml, without containers.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startS3TestServer } from '../../packages/server/dist/infra/storage/s3-test-server.js';
import type { S3TestServer } from '../../packages/server/dist/infra/storage/s3-test-server.js';
import { createPostgresSchema } from '../../packages/server/dist/test/db.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

export interface Instance {
  port: number;
  metricsPort: number;
  process: ChildProcess;
}

export interface ScaleStack {
  /** The proxy's URL: the only address the browser uses. */
  baseURL: string;
  instances: readonly Instance[];
  /** Requests instance `i` has answered so far, by route template (its Prometheus counter). */
  requestsByRoute(i: number): Promise<Map<string, number>>;
  /** SIGTERM to instance `i`, resolved once it has exited. */
  stopInstance(i: number): Promise<void>;
  stop(): Promise<void>;
}

/** `TEST_DATABASE_URL`, or a clear failure: two processes cannot share an in-process PGlite. */
export function scaleDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (url === undefined || url === '') {
    throw new Error(
      'The scale-out test needs a PostgreSQL server: set TEST_DATABASE_URL (CI sets it in .ci/run), e.g. postgres://postgres@127.0.0.1:5432/test',
    );
  }
  return url;
}

function nginxConfig(dir: string, port: number, upstreams: readonly number[]): string {
  // The proxy settings of deploy/nginx.conf, with local paths and ports.
  return `daemon off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
${process.getuid?.() === 0 ? 'user root;' : ''}
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${join(dir, 'body')};
  proxy_temp_path ${join(dir, 'proxy')};
  fastcgi_temp_path ${join(dir, 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'uwsgi')};
  scgi_temp_path ${join(dir, 'scgi')};
  upstream coffer {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join('\n')}
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 200m;
    proxy_request_buffering off;
    proxy_buffering off;
    proxy_read_timeout 300s;
    location / {
      proxy_pass http://coffer;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Request-Id $request_id;
      proxy_next_upstream error timeout http_502 http_503;
    }
  }
}
`;
}

/**
 * Waits for `url` to answer 200; fails at once if `child` exits. The ceiling is for a hung start only:
 * `npm test` starts this part beside four others on two cores, where two instances loading and
 * migrating one schema took over a minute (session 24, a full run at load 12).
 */
async function answers(url: string, child: ChildProcess, what: string, deadline: number): Promise<void> {
  let last = 'no answer';
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    // Each probe has its own ceiling: a server that takes the connection and never answers is hung too.
    const ok = await fetch(url, { signal: AbortSignal.timeout(5_000) }).then(
      (r) => {
        last = `HTTP ${r.status}`;
        return r.ok;
      },
      (error: unknown) => {
        // fetch's own message is "fetch failed"; what failed is its cause (ECONNREFUSED, a timeout).
        const cause: unknown = error instanceof Error ? (error.cause ?? error) : error;
        last = cause instanceof Error ? cause.message : 'no answer';
        return false;
      },
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${what} did not answer ${url} in time (last: ${last})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await once(child, 'exit');
}

/**
 * Starts the stack on `port` (the proxy) and the ports just above it. `dataDir` is the instances'
 * shared DATA_DIR: only the mail outbox is written there (the database and blobs are elsewhere), so the
 * test reads every instance's mail in one folder, as it would read one SMTP server's.
 */
export async function startScaleStack(
  port: number,
  dataDir: string,
  env: Record<string, string>,
): Promise<ScaleStack> {
  const databaseUrl = scaleDatabaseUrl();
  if (!existsSync(NGINX)) {
    throw new Error(`nginx not found at ${NGINX}: apt-get install -y nginx-light (or set NGINX_PATH)`);
  }
  // A fresh schema, dropped at the end: the instances migrate it at start, both at once.
  const schema = await createPostgresSchema(databaseUrl);
  const s3: S3TestServer = await startS3TestServer();
  const baseURL = `http://localhost:${port}`;
  const instances: Instance[] = [0, 1].map((i) => {
    const instancePort = port + 2 + i;
    const metricsPort = port + 4 + i;
    const child = spawn(process.execPath, [join(ROOT, 'packages/server/dist/main.js')], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        ...env,
        PORT: String(instancePort),
        HOST: '127.0.0.1',
        METRICS_PORT: String(metricsPort),
        METRICS_HOST: '127.0.0.1',
        PUBLIC_URL: baseURL,
        DATA_DIR: dataDir,
        DATABASE_URL: schema.url,
        S3_BUCKET: s3.bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_FORCE_PATH_STYLE: 'true',
        AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
        TRUST_PROXY: 'loopback',
        LOG_LEVEL: 'warn',
        SHUTDOWN_GRACE_SECONDS: '10',
      },
    });
    return { port: instancePort, metricsPort, process: child };
  });
  const nginxDir = await mkdtemp(join(tmpdir(), 'coffer-nginx-'));
  await writeFile(
    join(nginxDir, 'nginx.conf'),
    nginxConfig(
      nginxDir,
      port,
      instances.map((i) => i.port),
    ),
  );
  const nginx = spawn(
    NGINX,
    ['-p', nginxDir, '-e', join(nginxDir, 'error.log'), '-c', join(nginxDir, 'nginx.conf')],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );

  async function stop(): Promise<void> {
    for (const child of [nginx, ...instances.map((i) => i.process)]) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await ended(child);
      }
    }
    await s3.close();
    await schema.drop();
    await rm(nginxDir, { recursive: true, force: true });
  }

  try {
    // One ceiling for the whole start (the spec's beforeAll allows 300 s).
    const deadline = Date.now() + 240_000;
    await Promise.all(
      instances.map((i, n) =>
        answers(`http://127.0.0.1:${i.port}/api/ready`, i.process, `instance ${n}`, deadline),
      ),
    );
    await answers(`${baseURL}/api/health`, nginx, 'nginx', deadline);
  } catch (err) {
    await stop();
    throw err;
  }

  return {
    baseURL,
    instances,
    async requestsByRoute(i) {
      const text = await (await fetch(`http://127.0.0.1:${instances[i]?.metricsPort ?? 0}/metrics`)).text();
      const byRoute = new Map<string, number>();
      for (const line of text.split('\n')) {
        const route = /^coffer_http_requests_total\{.*route="([^"]*)"/.exec(line)?.[1];
        if (route === undefined) continue;
        const count = Number(line.slice(line.lastIndexOf(' ') + 1));
        byRoute.set(route, (byRoute.get(route) ?? 0) + count);
      }
      return byRoute;
    },
    async stopInstance(i) {
      const child = instances[i]?.process;
      if (child === undefined) throw new Error(`no instance ${i}`);
      child.kill('SIGTERM');
      await ended(child);
    },
    stop,
  };
}
