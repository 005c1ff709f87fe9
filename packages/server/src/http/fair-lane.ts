import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Where bulk work (reading and encoding a batch of a large list) waits its turn, so that it can never
 * crowd out other requests on the one event loop:
 *
 * - one job at a time in the whole process, each after a turn of the event loop, so between two jobs
 *   every request that has something ready (a new request, a database answer) runs its next step;
 * - users take turns: the next job is the oldest of the user who has waited longest, so one user with
 *   ten lists in flight gets one job in, then another user's job runs.
 *
 * A job should be short (a few milliseconds: one batch of a few hundred rows); a big task is many jobs.
 */
export interface FairLane {
  run<T>(user: string, job: () => Promise<T> | T): Promise<T>;
  /** Jobs waiting, for tests. */
  readonly waiting: number;
}

export function createFairLane(): FairLane {
  /** Per user, the starters of their waiting jobs; the map's order is the order users take turns in. */
  const queues = new Map<string, (() => void)[]>();
  let waiting = 0;
  let busy = false;

  const startNext = () => {
    if (busy) return;
    const turn = queues.entries().next();
    if (turn.done === true) return;
    const [user, starters] = turn.value;
    const start = starters.shift();
    // This user goes to the back of the line (or leaves it).
    queues.delete(user);
    if (starters.length > 0) queues.set(user, starters);
    if (start === undefined) return;
    busy = true;
    waiting -= 1;
    start();
  };

  return {
    async run(user, job) {
      await new Promise<void>((resolve) => {
        const starters = queues.get(user);
        if (starters === undefined) queues.set(user, [resolve]);
        else starters.push(resolve);
        waiting += 1;
        startNext();
      });
      try {
        await nextTurn();
        return await job();
      } finally {
        busy = false;
        startNext();
      }
    },
    get waiting() {
      return waiting;
    },
  };
}

/** The lane the list routes share. */
export const listLane: FairLane = createFairLane();
