import { QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from './query-client';

describe("the app's query cache", () => {
  // Session 24 found it in My Files; any list whose load ignores its abort signal could hit it
  // (Shared With Me, Links, the usage figures): a load left running with no screen answers after a
  // refresh, and its old answer counted as fresh.
  it('loads again a list refreshed while an unwatched load of it was still running', async () => {
    const client = createQueryClient({ retry: false });
    const queryKey = ['a-list'];
    let onServer = 'before';
    let hold: Promise<void> | null = null;
    const queryFn = async (): Promise<string> => {
      const answer = onServer;
      if (hold !== null) await hold;
      return answer;
    };
    const watch = () => {
      const observer = new QueryObserver(client, { queryKey, queryFn });
      return { observer, stop: observer.subscribe(() => undefined) };
    };
    const first = watch();
    await vi.waitFor(() => {
      expect(first.observer.getCurrentResult().data).toBe('before');
    });

    // A load starts and is slow; its screen closes meanwhile.
    let release = (): void => undefined;
    hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    void first.observer.refetch();
    await vi.waitFor(() => {
      expect(client.isFetching({ queryKey })).toBe(1);
    });
    first.stop();

    // The data changes on the server and the app marks the list for a new load; then the slow
    // load answers with what it read before.
    onServer = 'after';
    hold = null;
    await client.invalidateQueries({ queryKey });
    release();
    await vi.waitFor(() => {
      expect(client.isFetching({ queryKey })).toBe(0);
    });

    const again = watch();
    await vi.waitFor(() => {
      expect(again.observer.getCurrentResult().data).toBe('after');
    });
    again.stop();
  });

  it('lets a load someone awaits finish with its answer, and loads again for the next screen', async () => {
    const client = createQueryClient({ retry: false });
    const queryKey = ['awaited'];
    let onServer = 'before';
    let release = (): void => undefined;
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = true;
    const queryFn = async (): Promise<string> => {
      const answer = onServer;
      if (held) await hold;
      return answer;
    };
    // As the shared ZIP does: a fetch no screen watches, awaited by its caller.
    const awaited = client.query({ queryKey, queryFn });
    await vi.waitFor(() => {
      expect(client.isFetching({ queryKey })).toBe(1);
    });
    onServer = 'after';
    held = false;
    await client.invalidateQueries({ queryKey });
    release();
    expect(await awaited).toBe('before');

    const observer = new QueryObserver(client, { queryKey, queryFn });
    const stop = observer.subscribe(() => undefined);
    await vi.waitFor(() => {
      expect(observer.getCurrentResult().data).toBe('after');
    });
    stop();
  });

  it('leaves a watched load to the refresh, which loads it again', async () => {
    const client = createQueryClient({ retry: false });
    const queryKey = ['watched'];
    let onServer = 'before';
    const queryFn = vi.fn(() => Promise.resolve(onServer));
    const observer = new QueryObserver(client, { queryKey, queryFn });
    const stop = observer.subscribe(() => undefined);
    await vi.waitFor(() => {
      expect(observer.getCurrentResult().data).toBe('before');
    });
    onServer = 'after';
    await client.invalidateQueries({ queryKey });
    expect(observer.getCurrentResult().data).toBe('after');
    expect(queryFn).toHaveBeenCalledTimes(2);
    stop();
  });
});
