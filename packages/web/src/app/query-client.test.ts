import { QueryObserver, type QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from './query-client';

/**
 * A list on a fake server: `queryFn` reads what the server holds when called, then waits while the
 * server is held (a slow answer), so a test can change the data between the read and the answer.
 */
function slowServer(first: string) {
  let onServer = first;
  let hold: Promise<void> | null = null;
  let release = (): void => undefined;
  const queryFn = vi.fn(async (): Promise<string> => {
    const answer = onServer;
    if (hold !== null) await hold;
    return answer;
  });
  return {
    queryFn,
    /** The next loads answer only once {@link let} is called. */
    holdAnswers() {
      hold = new Promise<void>((resolve) => {
        release = resolve;
      });
    },
    /** The data changes on the server; loads asked from now on answer at once. */
    change(next: string) {
      onServer = next;
      hold = null;
    },
    /** The held loads answer (with what they read). */
    let() {
      release();
    },
  };
}

/** A screen watching `queryKey`: its observer and what closes it. */
function screen(client: QueryClient, queryKey: string[], queryFn: () => Promise<string>) {
  const observer = new QueryObserver(client, { queryKey, queryFn });
  const close = observer.subscribe(() => undefined);
  return { observer, close, data: () => observer.getCurrentResult().data };
}

const loadsEnded = async (client: QueryClient, queryKey: string[]): Promise<void> => {
  await vi.waitFor(() => {
    expect(client.isFetching({ queryKey })).toBe(0);
  });
};
const loading = async (client: QueryClient, queryKey: string[]): Promise<void> => {
  await vi.waitFor(() => {
    expect(client.isFetching({ queryKey })).toBe(1);
  });
};

type SlowServer = ReturnType<typeof slowServer>;

/** The data changes on the server and the app refreshes the list while a held load runs; then that load answers. */
async function refreshWhileHeld(client: QueryClient, queryKey: string[], server: SlowServer, next: string) {
  server.change(next);
  await client.invalidateQueries({ queryKey });
  server.let();
  await loadsEnded(client, queryKey);
}

/** A screen opened now shows `expected` once loaded. */
async function nextScreenShows(
  client: QueryClient,
  queryKey: string[],
  server: SlowServer,
  expected: string,
) {
  const next = screen(client, queryKey, server.queryFn);
  await vi.waitFor(() => {
    expect(next.data()).toBe(expected);
  });
  next.close();
}

describe("the app's query cache: a refresh is not lost to a load already running", () => {
  // Session 24 found it in My Files; any list whose load ignores its abort signal could hit it
  // (Shared With Me, Links, the usage figures): a load left running with no screen answers after a
  // refresh, and its old answer counted as fresh.
  it('loads again a list refreshed while an unwatched load of it was still running', async () => {
    const client = createQueryClient({ retry: false });
    const key = ['a-list'];
    const server = slowServer('before');
    const first = screen(client, key, server.queryFn);
    await vi.waitFor(() => {
      expect(first.data()).toBe('before');
    });
    // A load starts and is slow; its screen closes meanwhile.
    server.holdAnswers();
    void first.observer.refetch();
    await loading(client, key);
    first.close();
    await refreshWhileHeld(client, key, server, 'after');
    await nextScreenShows(client, key, server, 'after');
  });

  it('also when that load started on a list already marked for a new load', async () => {
    const client = createQueryClient({ retry: false });
    const key = ['marked'];
    const server = slowServer('v1');
    await client.query({ queryKey: key, queryFn: server.queryFn });
    // Marked while no screen shows it; a screen opens (its load reads v2) and closes again at once.
    await client.invalidateQueries({ queryKey: key });
    server.change('v2');
    server.holdAnswers();
    const opened = screen(client, key, server.queryFn);
    await loading(client, key);
    opened.close();
    await refreshWhileHeld(client, key, server, 'v3');
    await nextScreenShows(client, key, server, 'v3');
  });

  it("also when a screen's first load was running (a refresh joins it rather than restarting it)", async () => {
    const client = createQueryClient({ retry: false });
    const key = ['first-load'];
    const server = slowServer('v1');
    server.holdAnswers();
    const watching = screen(client, key, server.queryFn);
    await loading(client, key);
    server.change('v2');
    const refreshing = client.invalidateQueries({ queryKey: key });
    server.let();
    await refreshing;
    await vi.waitFor(() => {
      expect(watching.data()).toBe('v2');
    });
    watching.close();
  });

  it('also when the screen is still there but no longer asks (a disabled query)', async () => {
    const client = createQueryClient({ retry: false });
    const key = ['disabled'];
    const server = slowServer('v1');
    const dialog = screen(client, key, server.queryFn);
    await vi.waitFor(() => {
      expect(dialog.data()).toBe('v1');
    });
    server.holdAnswers();
    void dialog.observer.refetch();
    await loading(client, key);
    dialog.observer.setOptions({ queryKey: key, queryFn: server.queryFn, enabled: false });
    await refreshWhileHeld(client, key, server, 'v2');
    expect(client.getQueryState(key)?.isInvalidated).toBe(true);
    dialog.close();
  });

  it('lets a load someone awaits finish with its answer, and loads again for the next screen', async () => {
    const client = createQueryClient({ retry: false });
    const key = ['awaited'];
    const server = slowServer('before');
    server.holdAnswers();
    // As the shared ZIP does: a fetch no screen watches, awaited by its caller.
    const awaited = client.query({ queryKey: key, queryFn: server.queryFn });
    await loading(client, key);
    await refreshWhileHeld(client, key, server, 'after');
    expect(await awaited).toBe('before');
    await nextScreenShows(client, key, server, 'after');
  });

  it('loads no more than once again when a newer load replaced the one the refresh came during', async () => {
    const client = createQueryClient({ retry: false });
    const key = ['replaced'];
    const server = slowServer('v1');
    await client.query({ queryKey: key, queryFn: server.queryFn });
    // An unwatched load (reads v1) is slow; the data changes and the list is refreshed.
    server.holdAnswers();
    void client.query({ queryKey: key, queryFn: server.queryFn, staleTime: 0 });
    await loading(client, key);
    server.change('v2');
    await client.invalidateQueries({ queryKey: key });
    // A screen opens and loads anew itself, replacing that load (it reads v2).
    const opened = screen(client, key, server.queryFn);
    await opened.observer.refetch();
    await loadsEnded(client, key);
    server.let();
    await loadsEnded(client, key);
    expect(opened.data()).toBe('v2');
    // The first load, the unwatched one and the screen's: no fourth.
    expect(server.queryFn).toHaveBeenCalledTimes(3);
    opened.close();
  });
});
