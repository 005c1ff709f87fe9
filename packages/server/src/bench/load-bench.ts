/**
 * Metadata load benchmark (issue 16): 50 connections, each a different signed-in user, cycle through
 * what the web app asks while someone browses (their file list twice, stats, contacts, files shared
 * with them, unfinished uploads), as fast as the server answers (autocannon, a closed loop). Runs:
 *
 * - one instance, direct;
 * - one instance behind nginx, and two behind nginx (round robin), when nginx is installed: the
 *   scaling figure compares the two proxied runs.
 *
 *   npm run build && npm run bench:load -w @coffer/server [-- --seconds=20 --connections=50]
 *     [--direct-only] [--profile-server=<folder>]   (a V8 CPU profile of the first instance)
 *     [--server-main=<dist/main.js of another build>]   (to compare builds with the same generator)
 *
 * The instances are `dist/main.js` child processes on a fresh schema of the PostgreSQL server
 * `TEST_DATABASE_URL` names (two instances need a shared database), tokens from a local test issuer.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { createDatabase } from '../infra/db/database.js';
import { insertContact, insertFile } from '../test/db-factories.js';

const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const MIX = [
  '/api/users/files',
  '/api/users/stats',
  '/api/users/contacts',
  '/api/users/files',
  '/api/users/files/shared',
  '/api/users/uploads',
];

function textArg(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

function arg(name: string, fallback: number): number {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found === undefined ? fallback : Number(found.slice(name.length + 3));
}

async function until(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode}`);
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}

async function stopAll(children: ChildProcess[]): Promise<void> {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); 0 elsewhere. */
function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of every PostgreSQL process on the machine (its server runs beside the benchmark). */
function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
    } catch {
      continue;
    }
    total += cpuSeconds(Number(entry));
  }
  return total;
}

/**
 * CPU seconds so far of the PostgreSQL backends serving this benchmark's instances (their connections
 * carry an application_name starting with `prefix`), by backend pid. Unlike {@link postgresCpuSeconds}
 * it leaves out whatever else the PostgreSQL server is doing for other work on a shared machine.
 */
async function instanceBackendsCpu(url: string, prefix: string): Promise<Map<number, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where starts_with(application_name, $1)',
      [prefix],
    );
    return new Map(result.rows.map((row) => [row.pid, cpuSeconds(row.pid)]));
  } finally {
    await client.end();
  }
}

/** CPU used between two samples; a backend opened in between counts from zero. */
function backendsCpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

function withApplicationName(url: string, name: string): string {
  const named = new URL(url);
  named.searchParams.set('application_name', name);
  return named.toString();
}

function describeFailures(result: Awaited<ReturnType<typeof autocannon>>): string {
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .filter(([status]) => !status.startsWith('2'))
    .map(([status, { count }]) => `${status}: ${String(count)}`);
  if (result.errors > 0) statuses.push(`errors: ${String(result.errors)}`);
  if (result.timeouts > 0) statuses.push(`timeouts: ${String(result.timeouts)}`);
  return statuses.join(', ');
}

interface Row {
  run: string;
  reqPerSec: number;
  /** Coffer's CPU time per answered request (all instances), ms: the figure a busy machine distorts least. */
  cpuMsPerRequest: number;
  /** The same for the load generator (this process) and for PostgreSQL (every postgres process). */
  generatorMsPerRequest: number;
  postgresMsPerRequest: number;
  /** PostgreSQL's CPU per request in the backends serving the instances only. */
  postgresForCofferMsPerRequest: number;
  p50: number;
  p99: number;
  max: number;
  failed: number;
  /** What the failures were: answers other than 2xx by status, connection errors, timeouts. */
  failures: string;
  load: string;
}

async function main(): Promise<void> {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (databaseUrl === undefined || databaseUrl === '') {
    process.stdout.write('load benchmark skipped: it needs a PostgreSQL server in TEST_DATABASE_URL\n');
    return;
  }
  const seconds = arg('seconds', 20);
  const connections = arg('connections', 50);
  const warmup = arg('warmup', 5);
  const { startTestIssuer, userClaims } = await import('../test/test-issuer.js');
  const { createPostgresSchema } = await import('../test/db.js');
  const issuer = await startTestIssuer();
  const schema = await createPostgresSchema(databaseUrl);
  const dir = mkdtempSync(join(tmpdir(), 'coffer-load-bench-'));
  const main = textArg('server-main') ?? fileURLToPath(new URL('../main.js', import.meta.url));
  const basePort = 18500 + Math.floor(Math.random() * 500);
  const backendPrefix = `coffer-bench-${String(basePort)}-`;
  const children: ChildProcess[] = [];
  const instances: ChildProcess[] = [];
  const profileDir = textArg('profile-server');

  const startInstance = async (port: number): Promise<void> => {
    const profile =
      profileDir === undefined || children.length > 0 ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
    const child = spawn(process.execPath, [...profile, main], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${basePort}`,
        DATA_DIR: join(dir, 'data'),
        DATABASE_URL: withApplicationName(schema.url, `${backendPrefix}${String(port)}`),
        LOG_LEVEL: 'warn',
        OIDC_ISSUER: issuer.issuer,
        OIDC_AUDIENCE: issuer.audience,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    instances.push(child);
    await until(`http://127.0.0.1:${port}/api/ready`, child);
  };
  const startNginx = async (port: number, upstreams: number[]): Promise<ChildProcess> => {
    const conf = join(dir, `nginx-${port}.conf`);
    // nginx closes a client's keep-alive connection after 1,000 requests by default: at ~50 requests a
    // second per connection that happens mid-run, and a request racing the close counts as a failure of
    // the generator (browsers retry such a request). Lifted here so the runs measure the proxy, not that.
    writeFileSync(
      conf,
      `daemon off; worker_processes 1; pid ${join(dir, `nginx-${port}.pid`)}; error_log ${join(dir, 'nginx.log')} warn;
${process.getuid?.() === 0 ? 'user root;' : ''}
events { worker_connections 1024; }
http { access_log off; client_body_temp_path ${dir}; proxy_temp_path ${dir};
  upstream coffer { ${upstreams.map((p) => `server 127.0.0.1:${p};`).join(' ')} keepalive 64; }
  server { listen 127.0.0.1:${port}; keepalive_requests 1000000;
    location / { proxy_pass http://coffer; proxy_http_version 1.1; proxy_set_header Connection ""; } } }
`,
    );
    const nginx = spawn(NGINX, ['-e', join(dir, 'nginx.log'), '-c', conf], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(nginx);
    await until(`http://127.0.0.1:${port}/api/health`, nginx);
    return nginx;
  };

  const rows: Row[] = [];
  try {
    await startInstance(basePort + 1);
    // 50 people, each with 20 files and 3 contacts; the first call of each creates the user.
    const tokens: string[] = [];
    for (let i = 0; i < connections; i++) {
      const token = await issuer.mintToken(userClaims(`load${i}`), { expiresInSec: 3600 });
      const res = await fetch(`http://127.0.0.1:${basePort + 1}/api/users/stats`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (!res.ok) throw new Error(`user ${i}: ${res.status}`);
      tokens.push(token);
    }
    const database = createDatabase({ url: schema.url, dataDir: dir });
    for (const user of await database.db.selectFrom('users').select('id').execute()) {
      for (let f = 0; f < 20; f++) await insertFile(database.db, user.id, { name: `report-${f}.pdf` });
      for (let c = 0; c < 3; c++) await insertContact(database.db, user.id);
    }
    await database.destroy();

    // Every call of the mix must succeed, or the figures would measure refusals.
    for (const path of new Set(MIX)) {
      const res = await fetch(`http://127.0.0.1:${basePort + 1}${path}`, {
        headers: { authorization: `Bearer ${tokens[0] ?? ''}` },
      });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    }

    const generate = (url: string, duration: number): ReturnType<typeof autocannon> => {
      let next = 0;
      return autocannon({
        url,
        connections,
        duration,
        // Each connection is one person: it takes a token on its first request and keeps it.
        requests: MIX.map((path) => ({
          method: 'GET',
          path,
          setupRequest: (request, context) => {
            context.token ??= tokens[next++ % tokens.length];
            return {
              ...request,
              headers: { ...request.headers, authorization: `Bearer ${String(context.token)}` },
            };
          },
        })),
      });
    };

    const run = async (name: string, url: string): Promise<void> => {
      // Steady state: the warm-up's requests (compiling the hot paths, each person's first token check) are
      // not counted; the same people then come back within the token cache's minute.
      if (warmup > 0) await generate(url, warmup);
      const load = loadavg()[0]?.toFixed(1) ?? '?';
      const live = instances.filter((c) => c.exitCode === null && c.signalCode === null);
      const cpuBefore = live.reduce((sum, c) => sum + cpuSeconds(c.pid), 0);
      const generatorBefore = process.cpuUsage();
      const postgresBefore = postgresCpuSeconds();
      const backendsBefore = await instanceBackendsCpu(schema.url, backendPrefix);
      const result = await generate(url, seconds);
      const cpu = live.reduce((sum, c) => sum + cpuSeconds(c.pid), 0) - cpuBefore;
      const generator = process.cpuUsage(generatorBefore);
      const postgres = postgresCpuSeconds() - postgresBefore;
      const backends = backendsCpuBetween(
        backendsBefore,
        await instanceBackendsCpu(schema.url, backendPrefix),
      );
      const perRequest = (seconds: number) =>
        Math.round((seconds * 1000 * 100) / Math.max(1, result.requests.total)) / 100;
      rows.push({
        run: name,
        reqPerSec: Math.round(result.requests.average),
        cpuMsPerRequest: perRequest(cpu),
        generatorMsPerRequest: perRequest((generator.user + generator.system) / 1e6),
        postgresMsPerRequest: perRequest(postgres),
        postgresForCofferMsPerRequest: perRequest(backends),
        p50: result.latency.p50,
        p99: result.latency.p99,
        max: result.latency.max,
        failed: result.non2xx + result.errors + result.timeouts,
        failures: describeFailures(result),
        load: `${load} → ${loadavg()[0]?.toFixed(1) ?? '?'}`,
      });
      process.stdout.write(`${JSON.stringify(rows.at(-1))}\n`);
    };

    await run('1 instance, direct', `http://127.0.0.1:${basePort + 1}`);
    if (process.argv.includes('--direct-only')) {
      // Profiling or a quick look: the proxied runs are skipped on request.
    } else if (existsSync(NGINX)) {
      const one = await startNginx(basePort + 10, [basePort + 1]);
      await run('1 instance behind nginx', `http://127.0.0.1:${basePort + 10}`);
      await stopAll([one]);
      await startInstance(basePort + 2);
      await startNginx(basePort + 11, [basePort + 1, basePort + 2]);
      await run('2 instances behind nginx', `http://127.0.0.1:${basePort + 11}`);
    } else {
      process.stdout.write(`nginx not found at ${NGINX}: the two-instance run is skipped\n`);
    }
  } finally {
    await stopAll(children.reverse());
    await schema.drop();
    await issuer.close();
    rmSync(dir, { recursive: true, force: true });
  }

  process.stdout.write(
    `\n${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${new Date().toISOString()}, ${connections} connections, ${seconds} s per run\n`,
  );
  process.stdout.write(
    '| run | req/s | CPU ms / request: Coffer | load generator | PostgreSQL | of which for Coffer | p50 ms | p99 ms | max ms | failed | load (1 min) before → after |\n',
  );
  process.stdout.write('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n');
  for (const r of rows) {
    process.stdout.write(
      `| ${r.run} | ${r.reqPerSec} | ${r.cpuMsPerRequest} | ${r.generatorMsPerRequest} | ${r.postgresMsPerRequest} | ${r.postgresForCofferMsPerRequest} | ${r.p50} | ${r.p99} | ${r.max} | ${r.failed} | ${r.load} |\n`,
    );
  }
}

await main();
