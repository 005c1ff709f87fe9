import { readFileSync } from 'node:fs';
import { MB } from '../bench-units.js';
import {
  CLOCK_TICKS,
  descendants,
  processTable,
  readKb,
  threadsOf,
  type ProcInfo,
  type ThreadTicks,
} from './proc-table.js';
import type { MemorySnapshot } from './chromium-processes.js';

/**
 * The firefox-esr process tree this benchmark started (the descendants of this process whose
 * command is Firefox), measured as the Chromium one is: the sum of PSS (`/proc/<pid>/smaps_rollup`,
 * proportional, so shared pages count once) every 200 ms, and of it the anonymous pages alone
 * (`Pss_Anon` + `Pss_Shmem`: without the files Firefox maps), by process kind (`main`, and each child
 * process by the name Firefox gives it: `Web Content`, `Socket Process`, …), and the CPU time of the
 * whole tree and of each of its threads by kind and name (`Web Content: DOM Worker`, …: where Firefox
 * spends a transfer's CPU).
 */
export class FirefoxProcesses {
  private timer: NodeJS.Timeout | null = null;
  private startTicks = 0;
  peak: MemorySnapshot = { total: 0, byKind: {} };
  /** The highest anonymous figure since {@link start} (its own peak: it need not come with the total's). */
  private peakAnonymous = 0;
  /** Each thread's CPU ticks at {@link start}, by thread id. */
  private threadStart = new Map<number, ThreadTicks>();

  /**
   * `root`: the pid of the Firefox whose processes are measured (it and its descendants); by
   * default every Firefox this process started.
   */
  constructor(private readonly root: number = process.pid) {}

  private tree(): ProcInfo[] {
    const table = processTable();
    const own = table.filter((p) => p.pid === this.root);
    return [...own, ...descendants(this.root, table)].filter((p) => kindOf(p.pid) !== null);
  }

  /** Memory now. */
  snapshot(): MemorySnapshot {
    const byKind: Record<string, number> = {};
    let total = 0;
    let anonymous = 0;
    for (const p of this.tree()) {
      const rollup = `/proc/${p.pid}/smaps_rollup`;
      const pss = readKb(rollup, 'Pss') ?? readKb(`/proc/${p.pid}/status`, 'VmRSS') ?? 0;
      const kind = kindOf(p.pid) ?? 'other';
      byKind[kind] = (byKind[kind] ?? 0) + pss;
      total += pss;
      anonymous += (readKb(rollup, 'Pss_Anon') ?? pss) + (readKb(rollup, 'Pss_Shmem') ?? 0);
    }
    return { total, byKind, anonymous };
  }

  /** Each thread of the tree with its CPU ticks so far, by thread id. */
  private threads(): Map<number, ThreadTicks> {
    return new Map(this.tree().flatMap((p) => threadsOf(p.pid)));
  }

  /** CPU seconds of the tree so far (ended processes drop out). */
  private cpuTicks(): number {
    return this.tree().reduce((sum, p) => sum + p.cpuTicks, 0);
  }

  start(trace: boolean): void {
    this.peak = this.snapshot();
    this.peakAnonymous = this.peak.anonymous ?? 0;
    this.startTicks = this.cpuTicks();
    this.threadStart = this.threads();
    let ticks = 0;
    this.timer = setInterval(() => {
      const now = this.snapshot();
      if (now.total > this.peak.total) this.peak = now;
      this.peakAnonymous = Math.max(this.peakAnonymous, now.anonymous ?? 0);
      if (trace && ++ticks % 5 === 0) {
        const kinds = Object.entries(now.byKind).map(([kind, bytes]) => `${kind} ${(bytes / MB).toFixed(0)}`);
        console.log(`  memory (MB): total ${(now.total / MB).toFixed(0)}; ${kinds.join(', ')}`);
      }
    }, 200);
  }

  /**
   * The peak since {@link start}, the tree's CPU seconds meanwhile, and those seconds by process kind
   * and thread name (`Web Content: DOM Worker`, `main: Socket Thread`, …; threads of one kind and name
   * summed, a trailing number dropped; a thread that ended meanwhile drops out).
   */
  stop(): { peak: MemorySnapshot; cpuSeconds: number; threads: Record<string, number> } {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    const now = this.snapshot();
    if (now.total > this.peak.total) this.peak = now;
    this.peakAnonymous = Math.max(this.peakAnonymous, now.anonymous ?? 0);
    const threads: Record<string, number> = {};
    // Each process's kind read once, not once per thread (Firefox runs hundreds).
    const kinds = new Map<number, string>();
    for (const [tid, thread] of this.threads()) {
      const kind = kinds.get(thread.pid) ?? kindOf(thread.pid) ?? 'gone';
      kinds.set(thread.pid, kind);
      const label = `${kind}: ${thread.name.replace(/\s*#?\d+$/, '')}`;
      const ticks = thread.ticks - (this.threadStart.get(tid)?.ticks ?? 0);
      threads[label] = (threads[label] ?? 0) + ticks / CLOCK_TICKS;
    }
    return {
      peak: { ...this.peak, anonymous: this.peakAnonymous },
      cpuSeconds: (this.cpuTicks() - this.startTicks) / CLOCK_TICKS,
      threads,
    };
  }
}

/**
 * `main` for Firefox's parent process; for a child, the name Firefox gives its process (`Web Content`,
 * `Isolated Web Co`, `Socket Process`, `RDD Process`, `Utility Process`, `WebExtensions`, `forkserver`,
 * from `/proc/<pid>/comm`); null for anything that is not Firefox. The children that Firefox's fork
 * server starts carry their whole command line as ONE string (`… -contentproc … tab`), so the command
 * line is split on spaces too; until session 21 that string was missed and every such process was
 * counted as `main`.
 */
function kindOf(pid: number): string | null {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split(/[\0 ]+/)
      .filter((a) => a !== '');
    const [binary = ''] = args;
    if (!binary.includes('firefox')) return null;
    if (!args.includes('-contentproc')) return 'main';
    const name = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    return name === '' ? (args.at(-1) ?? 'content') : name;
  } catch {
    return null;
  }
}
