import type { ComponentType } from 'react';

/** The spec: lazy-loaded parts of the application time out after 120 seconds. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** A lazy-loaded part of the app did not arrive in time. */
export class ChunkLoadTimeoutError extends Error {
  readonly code = 'CHUNK_LOAD_TIMEOUT';

  constructor(timeoutMs: number) {
    super(`Loading part of the application took longer than ${Math.round(timeoutMs / 1000)} seconds.`);
    this.name = 'ChunkLoadTimeoutError';
  }
}

/** Settles like `load()`, or rejects with `ChunkLoadTimeoutError` after `timeoutMs`. */
export function withTimeout<T>(
  load: () => Promise<T>,
  timeoutMs: number = CHUNK_LOAD_TIMEOUT_MS,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new ChunkLoadTimeoutError(timeoutMs));
    }, timeoutMs);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Messages browsers use when a dynamic import fails (new deploy, network loss). */
const DYNAMIC_IMPORT_FAILURE =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

/** True for errors that mean "a piece of the app could not be loaded": a reload is the fix. */
export function isChunkLoadError(error: unknown): boolean {
  if (error instanceof ChunkLoadTimeoutError) return true;
  return error instanceof Error && DYNAMIC_IMPORT_FAILURE.test(error.message);
}

/**
 * A route `lazy` function for a page component, with the chunk time-out applied:
 * `lazy: lazyPage(() => import('./MyPage').then((m) => m.MyPage))`.
 */
export function lazyPage(load: () => Promise<ComponentType>): () => Promise<{ Component: ComponentType }> {
  return async () => ({ Component: await withTimeout(load) });
}
