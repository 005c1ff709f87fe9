// Readers of /proc: the process table, a process's Chromium kind and threads, a status field.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcInfo {
  pid: number;
  ppid: number;
  /** utime + stime, in clock ticks. */
  cpuTicks: number;
  /** Minor page faults (field 10, `minflt`): pages touched for the first time, e.g. a fresh buffer's. */
  minflt: number;
}

export const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

export function processTable(): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after the command name (which may contain spaces) in parentheses: state, ppid, …
      const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
      out.push({
        pid: Number(name),
        ppid: Number(rest[1]),
        cpuTicks: Number(rest[11]) + Number(rest[12]),
        minflt: Number(rest[7]),
      });
    } catch {
      // The process ended meanwhile.
    }
  }
  return out;
}

/** Every process below `root` (not `root` itself). */
export function descendants(root: number, table: ProcInfo[]): ProcInfo[] {
  const found: ProcInfo[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const p of table) {
      if (p.ppid === parent) {
        found.push(p);
        queue.push(p.pid);
      }
    }
  }
  return found;
}

export function readKb(path: string, field: string): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(path, 'utf8'));
    return match?.[1] === undefined ? null : Number(match[1]) * 1024;
  } catch {
    return null;
  }
}

export const NOT_CHROMIUM = 'not-chromium';

/** browser, renderer, gpu-process, utility:network, … from the command line (Chromium rewrites it). */
export function processKind(pid: number): string {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]+/);
    const [binary = ''] = args;
    // Not Chromium: e.g. the esbuild service tsx runs beside this script.
    if (!binary.includes('chrom')) return NOT_CHROMIUM;
    const type = args.find((a) => a.startsWith('--type='))?.slice(7);
    if (type === undefined) return binary.endsWith('crashpad_handler') ? 'crashpad' : 'browser';
    if (type !== 'utility') return type;
    const sub = args.find((a) => a.startsWith('--utility-sub-type='))?.slice(19) ?? '';
    return `utility:${sub.split('.')[0] ?? ''}`;
  } catch {
    return NOT_CHROMIUM;
  }
}

export interface ThreadTicks {
  pid: number;
  name: string;
  ticks: number;
}

/** The threads of a process with their CPU ticks. */
export function threadsOf(pid: number): [number, ThreadTicks][] {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const out: [number, ThreadTicks][] = [];
  for (const tid of tids) {
    try {
      const text = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // A process's first thread is named after the binary: call it what it is.
      const name = tid === String(pid) ? 'main' : text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
      const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
      out.push([Number(tid), { pid, name, ticks: Number(rest[11]) + Number(rest[12]) }]);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}
