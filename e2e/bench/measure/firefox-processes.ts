import { readFileSync } from 'node:fs';
import { MB } from '../bench-units.js';
import { CLOCK_TICKS, descendants, processTable, readKb, type ProcInfo } from './proc-table.js';
import type { MemorySnapshot } from './chromium-processes.js';

/**
 * The firefox-esr process tree this benchmark started (the descendants of this process whose
 * command is Firefox), measured as the Chromium one is: the sum of PSS (`/proc/<pid>/smaps_rollup`,
 * proportional, so shared pages count once) every 200 ms, and of it the anonymous pages alone
 * (`Pss_Anon` + `Pss_Shmem`: without the files Firefox maps), by process kind (`main`, and each content
 * process by the type Firefox gives it: `tab`, `socket`, `rdd`, `utility`, …), and the CPU time of
 * the whole tree.
 */
export class FirefoxProcesses {
  private timer: NodeJS.Timeout | null = null;
  private startTicks = 0;
  peak: MemorySnapshot = { total: 0, byKind: {} };
  /** The highest anonymous figure since {@link start} (its own peak: it need not come with the total's). */
  private peakAnonymous = 0;

  private static tree(): ProcInfo[] {
    return descendants(process.pid, processTable()).filter((p) => kindOf(p.pid) !== null);
  }

  /** Memory now. */
  snapshot(): MemorySnapshot {
    const byKind: Record<string, number> = {};
    let total = 0;
    let anonymous = 0;
    for (const p of FirefoxProcesses.tree()) {
      const rollup = `/proc/${p.pid}/smaps_rollup`;
      const pss = readKb(rollup, 'Pss') ?? readKb(`/proc/${p.pid}/status`, 'VmRSS') ?? 0;
      const kind = kindOf(p.pid) ?? 'other';
      byKind[kind] = (byKind[kind] ?? 0) + pss;
      total += pss;
      anonymous += (readKb(rollup, 'Pss_Anon') ?? pss) + (readKb(rollup, 'Pss_Shmem') ?? 0);
    }
    return { total, byKind, anonymous };
  }

  /** CPU seconds of the tree so far (ended processes drop out). */
  private static cpuTicks(): number {
    return FirefoxProcesses.tree().reduce((sum, p) => sum + p.cpuTicks, 0);
  }

  start(trace: boolean): void {
    this.peak = this.snapshot();
    this.peakAnonymous = this.peak.anonymous ?? 0;
    this.startTicks = FirefoxProcesses.cpuTicks();
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

  /** The peak since {@link start} and the tree's CPU seconds meanwhile. */
  stop(): { peak: MemorySnapshot; cpuSeconds: number } {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    const now = this.snapshot();
    if (now.total > this.peak.total) this.peak = now;
    this.peakAnonymous = Math.max(this.peakAnonymous, now.anonymous ?? 0);
    return {
      peak: { ...this.peak, anonymous: this.peakAnonymous },
      cpuSeconds: (FirefoxProcesses.cpuTicks() - this.startTicks) / CLOCK_TICKS,
    };
  }
}

/**
 * `main` for Firefox's parent process, the content process's type for a child (its command line
 * ends with it: `… -contentproc … tab`), null for anything that is not Firefox.
 */
function kindOf(pid: number): string | null {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((a) => a !== '');
    const [binary = ''] = args;
    if (!binary.includes('firefox')) return null;
    if (!args.includes('-contentproc')) return 'main';
    return args.at(-1) ?? 'content';
  } catch {
    return null;
  }
}
