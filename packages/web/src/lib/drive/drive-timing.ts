/** What the drive's User Timing measures are called (DevTools' Performance panel, the 10k-list benchmark). */
export const DRIVE_TIMING_PREFIX = 'coffer:drive:';

/** Now, for {@link measureSince}. */
export function timingStart(): number {
  return performance.now();
}

/**
 * Records the User Timing measure `coffer:drive:<name>` from `start` to now: names and counts only,
 * never a file name or a key.
 */
export function measureSince(name: string, start: number, detail?: { count: number }): void {
  try {
    performance.measure(`${DRIVE_TIMING_PREFIX}${name}`, { start, detail });
  } catch {
    // An environment without measure options: the timing is only for profiling.
  }
}
