import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { promisify } from 'node:util';
import { f0 } from '../bench-units.js';
import type { ChromiumProcesses, CpuUse, MemorySnapshot } from '../measure/chromium-processes.js';
import { blockingBetween, pageNow, type Blocking } from '../measure/main-thread-blocking.js';
import { startTaskTrace, taskCpuOf, type TaskCpu } from '../measure/task-trace.js';
import type { Harness } from './session.js';

export interface Measured {
  seconds: number;
  /** Why the transfer failed (it then ran `seconds` before failing); null when it succeeded. */
  failure: string | null;
  idle: MemorySnapshot;
  peak: MemorySnapshot;
  blocking: Blocking | null;
  /** The page main thread's tasks on a core (--task-cpu; null otherwise or for other pages' transfers). */
  taskCpu: TaskCpu | null;
  load: number;
  cpu: CpuUse;
}

/** A transfer the app reported as failed, after `seconds`. */
export class TransferFailed extends Error {
  constructor(
    message: string,
    readonly seconds: number,
  ) {
    super(message);
  }
}

/**
 * Writes the machine's dirty pages to disk (`sync`): every transfer starts with none, so none pays for
 * the kernel writing back an earlier transfer's file (the page cache writes a file back ~30 s after
 * it was written: on the benchmark's order, in the middle of the next transfer but one).
 */
async function settleDisk(): Promise<void> {
  await promisify(execFile)('sync');
}

/** Lets the browser settle (disk synced, page GC, 1.5 s), then the median of three samples: the idle figure. */
async function idleMemory(h: Harness): Promise<MemorySnapshot> {
  await settleDisk();
  await h.cdp.send('HeapProfiler.collectGarbage');
  await new Promise((r) => setTimeout(r, 1500));
  const samples: MemorySnapshot[] = [];
  for (let i = 0; i < 3; i++) {
    samples.push(h.memory.snapshot());
    await new Promise((r) => setTimeout(r, 200));
  }
  return samples.sort((a, b) => a.total - b.total)[1] ?? h.memory.snapshot();
}

/**
 * Runs one transfer with memory sampling and (for the app's page) the block recorder's window.
 * A {@link TransferFailed} is recorded, not thrown.
 */
export async function measure(
  h: Harness,
  run: () => Promise<number>,
  options: { blocking: boolean },
): Promise<Measured> {
  const idle = await idleMemory(h);
  const load = loadavg()[0] ?? 0;
  const tracing = options.blocking && h.taskCpu ? await startTaskTrace(h.cdp) : null;
  h.memory.start();
  const from = options.blocking ? await pageNow(h.page) : 0;
  let seconds: number;
  let failure: string | null = null;
  let sampled: ReturnType<ChromiumProcesses['stop']>;
  try {
    seconds = await run();
  } catch (error) {
    if (!(error instanceof TransferFailed)) throw error;
    seconds = error.seconds;
    failure = error.message;
  } finally {
    sampled = h.memory.stop();
  }
  const to = options.blocking ? await pageNow(h.page) : 0;
  const taskCpu = tracing === null ? null : taskCpuOf(await tracing(), h.memory.pageProcess);
  const blocking = options.blocking ? await blockingBetween(h.page, from, to) : null;
  if (blocking !== null && blocking.longTasks.length > 0) {
    // When they happened tells what they were (the start, the end's screens, or the transfer itself).
    const when = blocking.longTasks.map(([at, ms]) => `${f0(ms)} ms at ${(at / 1000).toFixed(1)} s`);
    console.log(`  long tasks (of ${((to - from) / 1000).toFixed(1)} s): ${when.join(', ')}`);
  }
  return { seconds, failure, idle, peak: sampled.peak, blocking, taskCpu, load, cpu: sampled.cpu };
}

export function transferTimeoutMs(size: number): number {
  // 2 MB/s at worst, plus two minutes: only a stuck transfer reaches it.
  return 120_000 + Math.round(size / 2e3);
}
