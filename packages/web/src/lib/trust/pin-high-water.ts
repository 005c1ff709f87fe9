import { pinHighWaterId } from '@coffer/crypto';
import type { PinVersionStore } from './pin-book';

/**
 * The highest pin set version this device has opened or written, per user, kept across logouts:
 * what makes a server's replay of an older (genuine) pin set detectable. Entries are named by
 * `pinHighWaterId` (a hash of the user's signing key), never by email, so nothing in them says who
 * used this browser. Not secret; a fresh browser has none (docs/threat-model.md).
 */
export interface PinHighWaterStore {
  /** The mark of `id`, 0 when there is none. */
  get(id: string): Promise<number>;
  /** Raises the mark of `id` to `version`; never lowers it. */
  raise(id: string, version: number): Promise<void>;
}

/** In memory: tests, and browsers without IndexedDB (the mark then lasts as long as the tab). */
export function createMemoryPinHighWater(): PinHighWaterStore {
  const marks = new Map<string, number>();
  return {
    get: (id) => Promise.resolve(marks.get(id) ?? 0),
    raise: (id, version) => {
      if (version > (marks.get(id) ?? 0)) marks.set(id, version);
      return Promise.resolve();
    },
  };
}

/** One user's mark in `store`, named by their signing key. */
export function pinVersionsOf(store: PinHighWaterStore, signingPublicKeyB64: string): PinVersionStore {
  let id: Promise<string> | null = null;
  const idOf = (): Promise<string> => (id ??= pinHighWaterId(signingPublicKeyB64));
  return {
    get: async () => store.get(await idOf()),
    raise: async (version) => {
      await store.raise(await idOf(), version);
    },
  };
}
