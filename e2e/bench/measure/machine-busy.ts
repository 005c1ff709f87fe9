import { readFileSync } from 'node:fs';

/** The machine's CPU ticks so far (the first line of /proc/stat: every core). */
interface MachineTicks {
  user: number;
  kernel: number;
  total: number;
}

function machineTicks(): MachineTicks {
  const ticks = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = ticks;
  return { user: user + nice, kernel: system + irq + softirq, total: ticks.reduce((a, b) => a + b, 0) };
}

/** How busy every core was while `work` ran: shares of all CPU time, busy (user + kernel) and in the kernel. */
export interface MachineBusy {
  busy: number;
  kernel: number;
}

/** Runs `work` and answers its value with how busy the machine was meanwhile. */
export async function machineDuring<T>(work: () => Promise<T>): Promise<{ value: T; machine: MachineBusy }> {
  const before = machineTicks();
  const value = await work();
  const after = machineTicks();
  const total = after.total - before.total;
  const share = (key: 'user' | 'kernel'): number => (total === 0 ? 0 : (after[key] - before[key]) / total);
  return { value, machine: { busy: share('user') + share('kernel'), kernel: share('kernel') } };
}

/** "80 % busy, 35 % in the kernel". */
export function describeBusy({ busy, kernel }: MachineBusy): string {
  return `${(100 * busy).toFixed(0)} % busy, ${(100 * kernel).toFixed(0)} % in the kernel`;
}
