import { MB } from '../bench-units.js';
import {
  CLOCK_TICKS,
  NOT_CHROMIUM,
  descendants,
  processKind,
  processTable,
  readKb,
  threadsOf,
  type ThreadTicks,
} from './proc-table.js';

export interface MemorySnapshot {
  total: number;
  byKind: Record<string, number>;
  /**
   * Of `total`, the anonymous and shared-memory pages (`Pss_Anon` + `Pss_Shmem`): what the processes
   * allocated, without the file pages they map (Firefox maps the files it reads and writes). Where
   * measured (Firefox).
   */
  anonymous?: number;
}

export interface CpuUse {
  /** CPU seconds of the Chromium processes, by kind. */
  chromium: Record<string, number>;
  /** CPU seconds of the Chromium threads, by process role and thread name (and the server's, as `server: <name>`). */
  threads: Record<string, number>;
  server: number;
  /** Minor page faults of the Chromium processes during the transfer, by process role (and the server's). */
  faults: Record<string, number>;
}

/**
 * Sums the PSS of the Chromium processes (the descendants of this process, minus the server's
 * tree) and follows their CPU time and the server's.
 */
export class ChromiumProcesses {
  private timer: NodeJS.Timeout | null = null;
  private kinds = new Map<number, string>();
  private startTicks = new Map<number, number>();
  private lastTicks = new Map<number, number>();
  private threadStart = new Map<number, ThreadTicks>();
  private threadLast = new Map<number, ThreadTicks>();
  private startFaults = new Map<number, number>();
  /** The server's process and its children, as last seen. */
  private serverPids = new Set<number>();
  private lastFaults = new Map<number, number>();
  peak: MemorySnapshot = { total: 0, byKind: {} };

  /** `trace`: prints the memory by kind once a second while sampling. */
  constructor(
    private readonly serverPid: number,
    private readonly trace = false,
  ) {}

  /** The renderer of the app's page (see {@link identifyPage}). */
  private pagePid = -1;

  /** The OS pid of the app page's renderer (-1 before {@link identifyPage}). */
  get pageProcess(): number {
    return this.pagePid;
  }

  /**
   * Remembers the renderer that has used the most CPU so far as the app's page: call it after the
   * sign-up, which the page did alone (the key derivations alone take seconds of CPU).
   */
  identifyPage(): void {
    let best = -1;
    for (const p of descendants(process.pid, processTable())) {
      if (this.kindOf(p.pid) === 'renderer' && p.cpuTicks > best) {
        best = p.cpuTicks;
        this.pagePid = p.pid;
      }
    }
  }

  /** `renderer (page)`, `renderer (service worker)`, both, or `renderer (other)`, from its threads. */
  private rendererRole(pid: number, threadNames: readonly string[]): string {
    const roles = [
      pid === this.pagePid ? 'page' : null,
      threadNames.some((n) => n.startsWith('ServiceWorker')) ? 'service worker' : null,
    ].filter((r) => r !== null);
    return `renderer (${roles.length === 0 ? 'other' : roles.join(' + ')})`;
  }

  private kindOf(pid: number): string {
    let kind = this.kinds.get(pid);
    if (kind === undefined) {
      kind = processKind(pid);
      this.kinds.set(pid, kind);
    }
    return kind;
  }

  /** Memory now; also records every process's CPU ticks. */
  snapshot(): MemorySnapshot {
    const table = processTable();
    const server = new Set([this.serverPid, ...descendants(this.serverPid, table).map((p) => p.pid)]);
    this.serverPids = server;
    const byKind: Record<string, number> = {};
    let total = 0;
    for (const p of table) {
      if (!server.has(p.pid)) continue;
      // Server processes are kept under negative keys; their threads under their own tids.
      this.lastTicks.set(-p.pid, p.cpuTicks);
      this.lastFaults.set(-p.pid, p.minflt);
      for (const [tid, thread] of threadsOf(p.pid)) this.threadLast.set(tid, thread);
    }
    for (const p of descendants(process.pid, table)) {
      if (server.has(p.pid) || this.kindOf(p.pid) === NOT_CHROMIUM) continue;
      this.lastTicks.set(p.pid, p.cpuTicks);
      this.lastFaults.set(p.pid, p.minflt);
      const threads = threadsOf(p.pid);
      for (const [tid, thread] of threads) this.threadLast.set(tid, thread);
      const pss =
        readKb(`/proc/${p.pid}/smaps_rollup`, 'Pss') ?? readKb(`/proc/${p.pid}/status`, 'VmRSS') ?? 0;
      const kind = this.kindOf(p.pid);
      // The tracing service exists for --task-cpu's trace (started after the idle figure): the
      // benchmark's own, not the transfer's.
      if (kind === 'utility:tracing') continue;
      // Renderers by what runs in them: the page's (with the crypto worker) and the service worker's.
      const label =
        kind === 'renderer'
          ? this.rendererRole(
              p.pid,
              threads.map(([, thread]) => thread.name),
            )
          : kind;
      byKind[label] = (byKind[label] ?? 0) + pss;
      total += pss;
    }
    return { total, byKind };
  }

  start(): void {
    this.lastTicks = new Map();
    this.threadLast = new Map();
    this.lastFaults = new Map();
    this.peak = this.snapshot();
    this.startTicks = new Map(this.lastTicks);
    this.startFaults = new Map(this.lastFaults);
    this.threadStart = new Map(this.threadLast);
    let ticks = 0;
    this.timer = setInterval(() => {
      const now = this.snapshot();
      if (now.total > this.peak.total) this.peak = now;
      if (this.trace && ++ticks % 5 === 0) {
        const kinds = Object.entries(now.byKind).map(([kind, bytes]) => `${kind} ${(bytes / MB).toFixed(0)}`);
        console.log(`  memory (MB): total ${(now.total / MB).toFixed(0)}; ${kinds.join(', ')}`);
      }
    }, 200);
  }

  stop(): { peak: MemorySnapshot; cpu: CpuUse } {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    const now = this.snapshot();
    if (now.total > this.peak.total) this.peak = now;
    // Server processes are kept under negative keys.
    const cpu: CpuUse = { chromium: {}, threads: {}, server: 0, faults: {} };
    for (const [key, ticks] of this.lastTicks) {
      const seconds = (ticks - (this.startTicks.get(key) ?? 0)) / CLOCK_TICKS;
      if (key < 0) cpu.server += seconds;
      else {
        const kind = this.kindOf(key);
        cpu.chromium[kind] = (cpu.chromium[kind] ?? 0) + seconds;
      }
    }
    // Renderers by what runs in them.
    const names = new Map<number, string[]>();
    for (const thread of this.threadLast.values())
      names.set(thread.pid, [...(names.get(thread.pid) ?? []), thread.name]);
    const roleOf = (pid: number): string => {
      if (pid < 0 || this.serverPids.has(pid)) return 'server';
      const kind = this.kindOf(pid);
      return kind === 'renderer' ? this.rendererRole(pid, names.get(pid) ?? []) : kind;
    };
    // A process that started during the transfer counts all its faults (from 0).
    for (const [pid, faults] of this.lastFaults) {
      const role = roleOf(pid);
      cpu.faults[role] = (cpu.faults[role] ?? 0) + faults - (this.startFaults.get(pid) ?? 0);
    }
    for (const [tid, thread] of this.threadLast) {
      const seconds = (thread.ticks - (this.threadStart.get(tid)?.ticks ?? 0)) / CLOCK_TICKS;
      const label = `${roleOf(thread.pid)}: ${thread.name.replace(/\d+$/, '')}`;
      cpu.threads[label] = (cpu.threads[label] ?? 0) + seconds;
    }
    if (this.trace) {
      const top = Object.entries(cpu.threads)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12)
        .map(([label, secs]) => `${label} ${secs.toFixed(1)}`);
      console.log(`  CPU s by thread: ${top.join('; ')}`);
    }
    return { peak: this.peak, cpu };
  }
}
