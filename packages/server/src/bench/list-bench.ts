/**
 * Large-list benchmark (issue "Limits and faults that hold", point 6): while 10 clients list a user's
 * 10,000 files over and over, how long do another user's ordinary calls take? Target: p99 < 100 ms.
 *
 *   npm run build && npm run bench:lists -w @coffer/server
 *     [-- --files=10000 --listers=10 --seconds=30 --databases=sqlite,postgres --modes=unpaged,paged
 *         --profile-server=<folder>]
 *
 * The server runs as a child process (`dist/main.js`, as `npm start` runs it), on SQLite and, when
 * `TEST_DATABASE_URL` is set (or `--database-url=`), on a fresh schema of that PostgreSQL server. The
 * listers run in a worker thread of this process, so their reading never delays the clock of the
 * measured calls. Phases, each after the previous one ended:
 *
 * - idle: only the other user's calls;
 * - unpaged: every lister asks for the whole list (`GET /api/users/files`) again and again;
 * - paged: every lister reads the list 500 at a time (`?limit=500&cursor=…`, as the web app does).
 *
 * The other user fires one call every `--interval-ms` (default 20) whatever the previous one is doing
 * (an open loop, so a stalled server shows as latency rather than as fewer calls), cycling through
 * their own file list, stats, contacts and profile; latency is measured from the moment each call was
 * due.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { NewFileRow } from '../infra/db/schema.js';
import { createDatabase } from '../infra/db/database.js';
import { newId } from '../infra/db/values.js';
import { spawnBenchServer, waitForHealth } from './bench-server.js';

interface Args {
  files: number;
  listers: number;
  seconds: number;
  idleSeconds: number;
  intervalMs: number;
  databases: string[];
  modes: Mode[];
  databaseUrl: string | undefined;
  /** Write a CPU profile of the server process into this folder. */
  profileDir: string | undefined;
}

type Mode = 'unpaged' | 'paged';

function parseArgs(argv: string[]): Args {
  const get = (name: string): string | undefined =>
    argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const databaseUrl = get('database-url') ?? process.env.TEST_DATABASE_URL;
  const url = databaseUrl === '' ? undefined : databaseUrl;
  return {
    files: Number(get('files') ?? 10_000),
    listers: Number(get('listers') ?? 10),
    seconds: Number(get('seconds') ?? 30),
    idleSeconds: Number(get('idle-seconds') ?? 10),
    intervalMs: Number(get('interval-ms') ?? 20),
    databases: (get('databases') ?? (url === undefined ? 'sqlite' : 'sqlite,postgres')).split(','),
    modes: (get('modes') ?? 'unpaged,paged').split(',') as Mode[],
    databaseUrl: url,
    profileDir: get('profile-server'),
  };
}

interface Reply {
  status: number;
  body: Buffer;
}

function call(agent: Agent, url: string, token: string, method = 'GET', json?: unknown): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (json !== undefined) headers['content-type'] = 'application/json';
    const req = request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(json === undefined ? undefined : JSON.stringify(json));
  });
}

function expectOk(reply: Reply, what: string): void {
  if (reply.status >= 300) throw new Error(`${what}: ${reply.status} ${reply.body.toString('utf8')}`);
}

// ---- The listers (worker thread) ----

interface ListerTask {
  base: string;
  token: string;
  listers: number;
  seconds: number;
  mode: Mode;
  expectFiles: number;
}

interface ListerResult {
  lists: number;
  /** Milliseconds per whole list (all pages when paged). */
  times: number[];
  bytes: number;
}

async function runListers(task: ListerTask): Promise<ListerResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: task.listers });
  const url = `${task.base}/api/users/files`;
  const times: number[] = [];
  let bytes = 0;
  const deadline = performance.now() + task.seconds * 1000;
  const lister = async () => {
    while (performance.now() < deadline) {
      const start = performance.now();
      let count = 0;
      if (task.mode === 'unpaged') {
        const reply = await call(agent, url, task.token);
        expectOk(reply, 'list');
        bytes += reply.body.length;
        // Counting entries by their id field is enough to know the list is whole, without parsing it.
        count = reply.body.toString('latin1').split('"fileId":').length - 1;
      } else {
        let cursor: string | undefined;
        do {
          const page = `${url}?limit=500${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
          const reply = await call(agent, page, task.token);
          expectOk(reply, 'page');
          bytes += reply.body.length;
          const parsed = JSON.parse(reply.body.toString('utf8')) as { files: unknown[]; nextCursor?: string };
          count += parsed.files.length;
          cursor = parsed.nextCursor;
        } while (cursor !== undefined);
      }
      if (count !== task.expectFiles) throw new Error(`listed ${count} files, expected ${task.expectFiles}`);
      times.push(performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: task.listers }, lister));
  agent.destroy();
  return { lists: times.length, times, bytes };
}

if (!isMainThread) {
  const result = await runListers(workerData as ListerTask);
  parentPort?.postMessage(result);
}

// ---- The measured user and the phases (main thread) ----

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

interface Probe {
  stop(): Promise<number[]>;
}

/** Fires the other user's calls every `intervalMs`, each measured from when it was due. */
function startProbe(base: string, token: string, intervalMs: number): Probe {
  const agent = new Agent({ keepAlive: true });
  const paths = ['/api/users/files', '/api/users/stats', '/api/users/contacts', '/api/users/me'];
  const latencies: number[] = [];
  const running = new Set<Promise<void>>();
  const first = performance.now();
  let n = 0;
  let stopped = false;
  let failure: Error | undefined;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    // Every call that fell due since the last tick starts now, measured from its due time.
    while (!stopped && first + n * intervalMs <= performance.now()) {
      const due = first + n * intervalMs;
      const path = paths[n % paths.length] ?? '/api/users/me';
      n += 1;
      const done = call(agent, `${base}${path}`, token).then(
        (reply) => {
          if (reply.status !== 200) failure ??= new Error(`${path}: ${reply.status}`);
          latencies.push(performance.now() - due);
        },
        (err: unknown) => {
          failure ??= err instanceof Error ? err : new Error(String(err));
        },
      );
      running.add(done);
      void done.finally(() => running.delete(done));
    }
    if (!stopped) timer = setTimeout(tick, Math.max(0, first + n * intervalMs - performance.now()));
  };
  tick();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.all(running);
      agent.destroy();
      if (failure !== undefined) throw failure;
      return latencies.sort((a, b) => a - b);
    },
  };
}

function listersInWorker(task: ListerTask): Promise<ListerResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(fileURLToPath(import.meta.url), { workerData: task });
    worker.once('message', (result: ListerResult) => {
      resolve(result);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`listers exited with ${code}`));
    });
  });
}

/** 10,000 files with realistic names, some sharing a timestamp (several files uploaded at once). */
async function seedFiles(databaseUrl: string | undefined, dataDir: string, email: string, n: number) {
  const database = createDatabase({ url: databaseUrl, dataDir });
  try {
    const user = await database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const start = Date.parse('2026-01-01T00:00:00.000Z');
    const rows: NewFileRow[] = Array.from({ length: n }, (_, i) => {
      const id = newId();
      return {
        id,
        owner_id: user.id,
        name: `Holiday photo ${String(i).padStart(5, '0')} – beach, sunset.jpg`,
        content_type: 'image/jpeg',
        size: 3_000_000 + i,
        stored_size: 3_000_028 + i,
        is_encrypted: 1,
        encryption_info: JSON.stringify({
          version: 'key-1',
          algorithm: 'AES-GCM',
          iv: '',
          encryptedFileKey: 'k'.repeat(344),
          format: 'coffer-v1',
          chunkSize: 99614720,
        }),
        object_key: `u/${user.id}/${id}`,
        uploaded_at: new Date(start + Math.floor(i / 3) * 1000).toISOString(),
      };
    });
    await database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 500)
        await trx
          .insertInto('files')
          .values(rows.slice(i, i + 500))
          .execute();
    });
  } finally {
    await database.destroy();
  }
}

interface PhaseRow {
  database: string;
  phase: string;
  calls: number[];
  listers?: ListerResult;
  seconds: number;
  /** CPU the server process used during the phase, in cores (1 = one core busy all the time). */
  serverCores: number;
}

/** CPU seconds a process has used so far (user + system), from /proc. */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command name; in clock ticks.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Runs `fn`, returning its result, its wall seconds and the server's CPU cores over that time. */
async function measured<T>(
  pid: number,
  fn: () => Promise<T>,
): Promise<{ value: T; seconds: number; cores: number }> {
  const cpu = cpuSecondsOf(pid);
  const start = performance.now();
  const value = await fn();
  const seconds = (performance.now() - start) / 1000;
  return { value, seconds, cores: (cpuSecondsOf(pid) - cpu) / seconds };
}

const ms = (v: number): string => (Number.isNaN(v) ? '–' : v.toFixed(v < 10 ? 1 : 0));

function formatRow(row: PhaseRow, args: Args): string {
  const c = row.calls;
  const l = row.listers;
  const listTimes = (l?.times ?? []).sort((a, b) => a - b);
  const perSecond = l === undefined ? '–' : (l.lists / row.seconds).toFixed(1);
  const mb = l === undefined ? '–' : (l.bytes / 1e6 / row.seconds).toFixed(0);
  return [
    row.database,
    row.phase === 'idle' ? 'none' : `${args.listers} × ${row.phase}`,
    String(c.length),
    ms(percentile(c, 50)),
    ms(percentile(c, 95)),
    ms(percentile(c, 99)),
    ms(c.at(-1) ?? NaN),
    perSecond,
    ms(percentile(listTimes, 50)),
    ms(listTimes.at(-1) ?? NaN),
    mb,
    row.serverCores.toFixed(2),
  ].join(' | ');
}

async function runDatabase(name: string, args: Args): Promise<PhaseRow[]> {
  const { startTestIssuer, userClaims } = await import('../test/test-issuer.js');
  const dir = mkdtempSync(join(tmpdir(), 'coffer-list-bench-'));
  const issuer = await startTestIssuer();
  let schema: { url: string; drop: () => Promise<void> } | undefined;
  if (name === 'postgres') {
    if (args.databaseUrl === undefined) throw new Error('postgres needs TEST_DATABASE_URL or --database-url');
    const { createPostgresSchema } = await import('../test/db.js');
    schema = await createPostgresSchema(args.databaseUrl);
  }
  const port = 18000 + Math.floor(Math.random() * 1000);
  const main = fileURLToPath(new URL('../main.js', import.meta.url));
  const dataDir = join(dir, 'data');
  const profile = args.profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${args.profileDir}`];
  const { base, child: server } = spawnBenchServer({
    main,
    port,
    dataDir,
    nodeArgs: profile,
    env: {
      DATABASE_URL: schema?.url ?? '',
      OIDC_ISSUER: issuer.issuer,
      OIDC_AUDIENCE: issuer.audience,
    },
  });
  const rows: PhaseRow[] = [];
  try {
    await waitForHealth(base, server, 300);
    const agent = new Agent({ keepAlive: true });
    const lister = await issuer.mintToken(userClaims('lister'), { expiresInSec: 6 * 3600 });
    const other = await issuer.mintToken(userClaims('other'), { expiresInSec: 6 * 3600 });
    // The first call of each creates the user.
    expectOk(await call(agent, `${base}/api/users/files`, lister), 'lister');
    expectOk(await call(agent, `${base}/api/users/files`, other), 'other');
    expectOk(
      await call(agent, `${base}/api/users/contacts`, other, 'POST', {
        email: 'friend@example.test',
        name: 'Friend',
      }),
      'contact',
    );
    await seedFiles(schema?.url, dataDir, 'lister@example.test', args.files);
    await seedFiles(schema?.url, dataDir, 'other@example.test', 20);
    agent.destroy();

    const pid = server.pid ?? 0;
    const idle = await measured(pid, async () => {
      const probe = startProbe(base, other, args.intervalMs);
      await new Promise((r) => setTimeout(r, args.idleSeconds * 1000));
      return { calls: await probe.stop() };
    });
    rows.push({
      database: name,
      phase: 'idle',
      ...idle.value,
      seconds: idle.seconds,
      serverCores: idle.cores,
    });
    for (const mode of args.modes) {
      const phase = await measured(pid, async () => {
        const probe = startProbe(base, other, args.intervalMs);
        const listers = await listersInWorker({
          base,
          token: lister,
          listers: args.listers,
          seconds: args.seconds,
          mode,
          expectFiles: args.files,
        });
        return { calls: await probe.stop(), listers };
      });
      rows.push({
        database: name,
        phase: mode,
        ...phase.value,
        seconds: phase.seconds,
        serverCores: phase.cores,
      });
    }
    return rows;
  } finally {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
    await schema?.drop();
    await issuer.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const started = new Date();
  const loads: number[] = [];
  const loadSampler = setInterval(() => loads.push(loadavg()[0] ?? 0), 5000);
  const rows: PhaseRow[] = [];
  for (const name of args.databases) rows.push(...(await runDatabase(name, args)));
  clearInterval(loadSampler);
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  console.log(`\n### Large lists — ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC\n`);
  console.log(
    `Machine: ${cpus().length} cores, ${cpu}, Node ${process.version}; load average (1 min) during the run ` +
      `${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}. ${args.files} files, ` +
      `${args.listers} listers, ${args.seconds} s per phase, one other-user call every ${args.intervalMs} ms.\n`,
  );
  console.log(
    '| database | listers | other user: calls | p50 ms | p95 ms | p99 ms | max ms | lists/s | list p50 ms | list max ms | MB/s | server CPU (cores) |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) console.log(`| ${formatRow(row, args)} |`);
  const worst = Math.max(...rows.filter((r) => r.phase !== 'idle').map((r) => percentile(r.calls, 99)));
  console.log(
    `\nTarget: other user's p99 < 100 ms under load — ${worst < 100 ? 'met' : 'missed'} (worst ${ms(worst)} ms).`,
  );
}

if (isMainThread) await main();
