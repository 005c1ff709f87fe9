import { describe, expect, it } from 'vitest';
import { createFairLane } from './fair-lane.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('fair lane', () => {
  it('runs one job at a time', async () => {
    const lane = createFairLane();
    const first = deferred();
    const started: string[] = [];
    const a = lane.run('u1', async () => {
      started.push('a');
      await first.promise;
    });
    const b = lane.run('u2', () => {
      started.push('b');
    });
    // Wait until the first job runs; the second must not have started meanwhile.
    while (started.length === 0) await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['a']);
    expect(lane.waiting).toBe(1);
    first.resolve();
    await Promise.all([a, b]);
    expect(started).toEqual(['a', 'b']);
    expect(lane.waiting).toBe(0);
  });

  it("lets another user's job in between one user's many jobs", async () => {
    const lane = createFairLane();
    const order: string[] = [];
    const heavy = Array.from({ length: 6 }, (_, i) =>
      lane.run('heavy', () => {
        order.push(`heavy${i + 1}`);
      }),
    );
    const light = lane.run('light', () => {
      order.push('light');
    });
    await Promise.all([...heavy, light]);
    // The first heavy job was already running and the second was in line before the light user came.
    expect(order.indexOf('light')).toBeLessThanOrEqual(2);
    expect(order.filter((o) => o.startsWith('heavy'))).toEqual([1, 2, 3, 4, 5, 6].map((i) => `heavy${i}`));
  });

  it('takes users in turn when several wait', async () => {
    const lane = createFairLane();
    const order: string[] = [];
    const jobs: Promise<void>[] = [];
    for (let i = 0; i < 3; i += 1) {
      for (const user of ['a', 'b', 'c']) {
        jobs.push(
          lane.run(user, () => {
            order.push(user);
          }),
        );
      }
    }
    await Promise.all(jobs);
    expect(order).toEqual(['a', 'b', 'c', 'a', 'b', 'c', 'a', 'b', 'c']);
  });

  it('gives the event loop a turn before each job', async () => {
    const lane = createFairLane();
    let ranBetween = false;
    const job = lane.run('u', () => ranBetween);
    setImmediate(() => {
      ranBetween = true;
    });
    expect(await job).toBe(true);
  });

  it('goes on after a job that fails', async () => {
    const lane = createFairLane();
    const failed = lane.run('u', () => {
      throw new Error('boom');
    });
    const next = lane.run('u', () => 'ok');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('ok');
  });
});
