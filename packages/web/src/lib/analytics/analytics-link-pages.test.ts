import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * Issue 30: a link's or file request's page carries the link secret in its fragment; PostHog must not
 * even load there, configured and consented to or not. The library is replaced by a stand-in that
 * records whether it was imported at all.
 */
const loaded = vi.hoisted(() => ({ count: 0, captures: [] as string[] }));
vi.mock('posthog-js/no-external', () => {
  loaded.count += 1;
  return {
    default: {
      init: () => ({
        capture: (event: string) => loaded.captures.push(event),
        opt_out_capturing: () => undefined,
        reset: () => undefined,
      }),
    },
  };
});

const SETTINGS = { key: 'phc_test', host: 'http://127.0.0.1:9' };

afterEach(() => {
  window.history.replaceState(null, '', '/');
});

describe('analytics on link and request pages', () => {
  it('never loads PostHog on /l/… or /r/…, and sends nothing from there once loaded elsewhere', async () => {
    const analytics = await import('./analytics');
    for (const path of ['/l/YGFiY2RlZmdoaWprbG1ubw', '/r/YGFiY2RlZmdoaWprbG1ubw']) {
      window.history.replaceState(null, '', `${path}#secret`);
      expect(await analytics.initAnalytics(SETTINGS)).toBe(false);
      expect(loaded.count).toBe(0);
    }
    // Loaded on another page (the person agreed there), then the tab moves to a link page.
    window.history.replaceState(null, '', '/myfiles');
    expect(await analytics.initAnalytics(SETTINGS)).toBe(true);
    expect(loaded.count).toBe(1);
    window.history.replaceState(null, '', '/l/YGFiY2RlZmdoaWprbG1ubw#secret');
    analytics.trackPageView('/l/YGFiY2RlZmdoaWprbG1ubw');
    analytics.track('sign_up');
    expect(loaded.captures).toEqual([]);
  });
});
