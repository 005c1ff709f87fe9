import { spawn, type ChildProcess } from 'node:child_process';

/** How a benchmark starts the built server (`dist/main.js`) as a child process. */
export interface BenchServerOptions {
  /** The built entry point. */
  main: string;
  port: number;
  dataDir: string;
  /** Node's own flags, before the entry point (e.g. `--cpu-prof`). */
  nodeArgs?: readonly string[];
  /** The benchmark's own settings, over this process's environment and the defaults below. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Starts the built server on 127.0.0.1 with quiet logs; its output goes to this process's. Wait
 * for it with {@link waitForHealth}; stopping it is the caller's.
 */
export function spawnBenchServer(options: BenchServerOptions): { base: string; child: ChildProcess } {
  const base = `http://127.0.0.1:${options.port}`;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.main], {
    env: {
      ...process.env,
      PORT: String(options.port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: options.dataDir,
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return { base, child };
}

/**
 * Polls `/api/health` every 200 ms, at most `attempts` times.
 * @throws {Error} the server exited, or never answered.
 */
export async function waitForHealth(base: string, server: ChildProcess, attempts: number): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the server did not start');
}
