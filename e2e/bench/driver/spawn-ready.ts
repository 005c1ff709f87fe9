import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Starts `command` and waits until a line of its `stream` matches `ready` (a server's "listening"
 * line): the child and the match's first group. Fails, and kills the child, when it exits or cannot
 * start first, or after `timeoutMs`. Once ready, the stream is no longer read into memory.
 */
export async function spawnReady(
  command: string,
  args: readonly string[],
  {
    stream,
    ready,
    timeoutMs,
    what,
  }: { stream: 'stdout' | 'stderr'; ready: RegExp; timeoutMs: number; what: string },
): Promise<{ child: ChildProcess; found: string }> {
  const child = spawn(command, args, {
    stdio: ['ignore', stream === 'stdout' ? 'pipe' : 'ignore', stream === 'stderr' ? 'pipe' : 'inherit'],
  });
  const output = child[stream];
  if (output === null) throw new Error(`${what}: no ${stream}`);
  try {
    const found = await new Promise<string>((resolve, reject) => {
      let text = '';
      const done = (): void => {
        clearTimeout(timer);
        output.off('data', onData);
        child.off('exit', onExit);
        child.off('error', reject);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${what} was not ready within ${String(timeoutMs / 1000)} s`));
      }, timeoutMs);
      const onData = (data: Buffer): void => {
        text += data.toString();
        const match = ready.exec(text);
        if (match?.[1] === undefined) return;
        done();
        output.resume();
        resolve(match[1]);
      };
      const onExit = (code: number | null): void => {
        done();
        reject(new Error(`${what} exited with ${String(code)}`));
      };
      output.on('data', onData);
      child.once('exit', onExit);
      child.once('error', (error) => {
        done();
        reject(error);
      });
    });
    return { child, found };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

/** Stops `child` (if still running) and waits until it exited. */
export async function stopped(
  child: ChildProcess | undefined,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  if (child?.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      resolve();
    });
  });
  child.kill(signal);
  await exited;
}
