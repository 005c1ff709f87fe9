import type { CDPSession } from 'playwright-core';
import { f0 } from '../bench-units.js';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  /** Start, µs. */
  ts?: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

/**
 * `BENCH_TASK_DETAIL=1`: trace V8's and Blink's events too, and print what ran inside each main-thread
 * task of 25 ms or more on a core (the events of 2 ms or more within it: script calls with their
 * position in the bundle, collections, layouts). For finding what a long task is; the extra tracing
 * costs CPU, so never for a docs run's figures.
 */
const TASK_DETAIL = process.env.BENCH_TASK_DETAIL === '1';
const DETAIL_CATEGORIES = [
  'toplevel',
  'v8',
  'v8.execute',
  'devtools.timeline',
  'blink',
  'disabled-by-default-v8.gc',
];

/** Starts a trace of every thread's top-level tasks; the function it answers stops it and answers the events. */
export async function startTaskTrace(cdp: CDPSession): Promise<() => Promise<TraceEvent[]>> {
  const events: TraceEvent[] = [];
  const collect = (data: { value: object[] }): void => {
    events.push(...(data.value as TraceEvent[]));
  };
  cdp.on('Tracing.dataCollected', collect);
  await cdp.send('Tracing.start', {
    traceConfig: {
      includedCategories: TASK_DETAIL ? DETAIL_CATEGORIES : ['toplevel'],
      recordMode: 'recordContinuously',
    },
    transferMode: 'ReportEvents',
  });
  return async () => {
    const complete = new Promise<void>((resolve) => {
      cdp.once('Tracing.tracingComplete', () => {
        resolve();
      });
    });
    await cdp.send('Tracing.end');
    await complete;
    cdp.off('Tracing.dataCollected', collect);
    return events;
  };
}

/** The page main thread's tasks in a trace: how many, the longest on a core, those of 50 ms or more. */
export interface TaskCpu {
  tasks: number;
  /** The most time one task ran on a core (`tdur`), ms. */
  longestOnCoreMs: number;
  /** [wall ms, on a core ms] of each task of 50 ms or more of wall time. */
  long: [number, number][];
}

/**
 * The page main thread's tasks: wall time and the time the thread ran on a core (`tdur`); the
 * difference is time it waited for a core that other processes had. Null when the thread is not
 * in the trace. Prints the summary.
 */
export function taskCpuOf(events: TraceEvent[], pagePid: number): TaskCpu | null {
  const main = events.find(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === pagePid && e.args?.name === 'CrRendererMain',
  );
  if (main === undefined) {
    console.log(`  task CPU: the page's main thread is not in the trace (${events.length} events)`);
    return null;
  }
  const tasks = events.filter((e) => e.ph === 'X' && e.pid === pagePid && e.tid === main.tid);
  const long = tasks
    .filter((e) => (e.dur ?? 0) >= 50_000)
    .map((e): [number, number] => [(e.dur ?? 0) / 1000, (e.tdur ?? 0) / 1000]);
  if (TASK_DETAIL) printTaskDetail(events, tasks);
  const longestOnCoreMs = tasks.reduce((most, e) => Math.max(most, e.tdur ?? 0), 0) / 1000;
  const list = long.map(([wall, cpu]) => `${f0(wall)} ms (${f0(cpu)} ms on a core)`);
  console.log(
    `  task CPU: ${tasks.length} main-thread tasks, longest on a core ${longestOnCoreMs.toFixed(1)} ms; ` +
      `tasks of 50 ms or more: ${list.length === 0 ? 'none' : list.join(', ')}`,
  );
  return { tasks: tasks.length, longestOnCoreMs, long };
}

/** What ran inside each task of 25 ms or more on a core (the outermost of nested ones): see {@link TASK_DETAIL}. */
function printTaskDetail(events: TraceEvent[], tasks: TraceEvent[]): void {
  let shownUntil = Number.NEGATIVE_INFINITY;
  const ms = (us: number | undefined): string => ((us ?? 0) / 1000).toFixed(1);
  const long = tasks.filter((e) => (e.tdur ?? 0) >= 25_000).sort((a, b) => (a.ts ?? 0) - (b.ts ?? 0));
  for (const task of long) {
    const start = task.ts ?? 0;
    const end = start + (task.dur ?? 0);
    if (start < shownUntil) continue;
    shownUntil = end;
    const inside = events.filter(
      (e) =>
        e !== task &&
        e.pid === task.pid &&
        e.tid === task.tid &&
        (e.ts ?? 0) >= start &&
        (e.ts ?? 0) <= end &&
        (e.dur ?? 0) >= 2000,
    );
    console.log(`  task detail: ${task.name}, ${ms(task.dur)} ms (${ms(task.tdur)} ms on a core):`);
    for (const e of inside.slice(0, 40))
      console.log(`    ${e.name} ${ms(e.dur)} ms ${JSON.stringify(e.args?.data ?? {}).slice(0, 160)}`);
  }
}
