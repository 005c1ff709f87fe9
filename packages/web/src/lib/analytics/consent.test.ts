import { describe, expect, it, vi } from 'vitest';
import type { AnalyticsSettings } from './analytics';
import { ANALYTICS_CONSENT_KEY, createAnalyticsConsent, type ConsentDeps } from './consent';

const SETTINGS: AnalyticsSettings = { key: 'phc_test', host: 'https://analytics.example' };

function memoryStorage(initial: Record<string, string> = {}): Storage {
  const values = new Map(Object.entries(initial));
  return {
    get length() {
      return values.size;
    },
    clear: () => {
      values.clear();
    },
    getItem: (key) => values.get(key) ?? null,
    key: (index) => [...values.keys()][index] ?? null,
    removeItem: (key) => values.delete(key),
    setItem: (key, value) => values.set(key, value),
  };
}

function setUp(settings: AnalyticsSettings | null, stored: Record<string, string> = {}) {
  const storage = memoryStorage(stored);
  const deps = {
    storage: () => storage,
    loadSettings: vi.fn(() => Promise.resolve(settings)),
    start: vi.fn(() => Promise.resolve(true)),
    stop: vi.fn(),
  } satisfies ConsentDeps;
  return { storage, deps, store: createAnalyticsConsent(deps) };
}

describe('analytics consent', () => {
  it('starts nothing until the person agrees, then starts and remembers', async () => {
    const { store, deps, storage } = setUp(SETTINGS);
    await store.load();
    expect(store.getSnapshot()).toEqual({ configured: true, consent: null, dismissed: false });
    expect(deps.start).not.toHaveBeenCalled();

    await store.choose('granted');
    expect(deps.start).toHaveBeenCalledWith(SETTINGS);
    expect(storage.getItem(ANALYTICS_CONSENT_KEY)).toBe('granted');
  });

  it('starts at load when the person agreed on an earlier visit', async () => {
    const { store, deps } = setUp(SETTINGS, { [ANALYTICS_CONSENT_KEY]: 'granted' });
    await store.load();
    expect(deps.start).toHaveBeenCalledTimes(1);
  });

  it('a refusal starts nothing and stops what ran; closing the prompt decides nothing', async () => {
    const { store, deps, storage } = setUp(SETTINGS);
    await store.load();
    store.dismiss();
    expect(store.getSnapshot()).toMatchObject({ consent: null, dismissed: true });
    expect(storage.getItem(ANALYTICS_CONSENT_KEY)).toBeNull();

    await store.choose('denied');
    expect(deps.start).not.toHaveBeenCalled();
    expect(deps.stop).toHaveBeenCalled();
    expect(storage.getItem(ANALYTICS_CONSENT_KEY)).toBe('denied');
  });

  it('without analytics configured there is nothing to ask and nothing starts, whatever was stored', async () => {
    const { store, deps } = setUp(null, { [ANALYTICS_CONSENT_KEY]: 'granted' });
    await store.load();
    expect(store.getSnapshot().configured).toBe(false);
    expect(deps.start).not.toHaveBeenCalled();
  });

  it('ignores a stored value it does not know', () => {
    const { store } = setUp(SETTINGS, { [ANALYTICS_CONSENT_KEY]: 'yes please' });
    expect(store.getSnapshot().consent).toBeNull();
  });
});
