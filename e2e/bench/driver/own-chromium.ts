/**
 * A Chromium this script starts itself (not through Playwright's launcher), so that a benchmark can
 * let go of it: Playwright connects over CDP to set up and disconnects while a transfer runs, as a
 * user's browser has no DevTools client (`unobserved-download-bench.ts`, `download-floor-bench.ts`).
 */
import { mkdir, mkdtemp, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../helpers/browser.js';
import { spawnReady, stopped } from './spawn-ready.js';

export interface OwnChromium {
  /** The DevTools WebSocket to `chromium.connectOverCDP`. */
  readonly ws: string;
  readonly pid: number;
  /** Kills it and waits until it exited. */
  kill(): Promise<void>;
}

/** Chromium with a DevTools port, on a fresh profile whose downloads go to `downloads`; `args` added. */
export async function launchOwnChromium(
  dir: string,
  downloads: string,
  args: readonly string[] = [],
): Promise<OwnChromium> {
  const profile = await mkdtemp(join(dir, 'profile-'));
  await mkdir(join(profile, 'Default'), { recursive: true });
  await writeFile(
    join(profile, 'Default', 'Preferences'),
    JSON.stringify({ download: { default_directory: downloads, prompt_for_download: false } }),
  );
  const { child, found: ws } = await spawnReady(
    CHROMIUM_PATH,
    [...CHROMIUM_ARGS, ...args, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { stream: 'stderr', ready: /DevTools listening on (ws:\S+)/, timeoutMs: 120_000, what: 'Chromium' },
  );
  return {
    ws,
    pid: child.pid ?? 0,
    kill: () => stopped(child, 'SIGKILL'),
  };
}

/** A page whose `goto` takes paths of `base`, as a context with `baseURL` would. */
export function withBase(page: Page, base: string): Page {
  return new Proxy(page, {
    get(target, key) {
      if (key === 'goto')
        return (url: string, options?: object) => target.goto(new URL(url, base).href, options);
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Waits for a download to arrive whole in `dir`: the file `name` (or, without a name, any file) of
 * `size` bytes that Chromium no longer calls `.crdownload` (it renames it once complete). Its name.
 */
export async function fileComplete(
  dir: string,
  size: number,
  timeoutMs: number,
  name?: string,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const found of names) {
      if (found.endsWith('.crdownload') || (name !== undefined && found !== name)) continue;
      if ((await stat(join(dir, found)).catch(() => null))?.size === size) return found;
    }
    if (Date.now() > deadline)
      throw new Error(`${name ?? 'a download'} did not arrive whole in ${dir}: ${names.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
