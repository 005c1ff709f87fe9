import { useSyncExternalStore } from 'react';
import {
  analyticsSettingsFromServer,
  initAnalytics,
  stopAnalytics,
  type AnalyticsSettings,
} from './analytics';

/**
 * Analytics consent (issue 15, point 15): when the server configures analytics, nothing is sent and the
 * PostHog library is not even loaded until the person agrees. The answer is kept in this browser's
 * local storage; a prompt asks once, and Profile has a switch to change it later.
 */
export type AnalyticsConsent = 'granted' | 'denied';

/** Coffer's own local storage entry beside the spec's session entries. */
export const ANALYTICS_CONSENT_KEY = 'coffer.analyticsConsent';

export interface ConsentState {
  /** The server publishes analytics settings: only then is there anything to agree to. */
  configured: boolean;
  /** The person's answer; null until they give one. */
  consent: AnalyticsConsent | null;
  /** The prompt was closed without an answer: it stays away until the next visit. */
  dismissed: boolean;
}

export interface AnalyticsConsentStore {
  /** Reads the server's settings, and starts analytics if the person agreed before. */
  load(): Promise<void>;
  choose(consent: AnalyticsConsent): Promise<void>;
  dismiss(): void;
  readonly getSnapshot: () => ConsentState;
  readonly subscribe: (listener: () => void) => () => void;
}

export interface ConsentDeps {
  storage: () => Storage | null;
  loadSettings: () => Promise<AnalyticsSettings | null>;
  start: (settings: AnalyticsSettings) => Promise<boolean>;
  stop: () => void;
}

function readConsent(storage: Storage | null): AnalyticsConsent | null {
  try {
    const value = storage?.getItem(ANALYTICS_CONSENT_KEY);
    return value === 'granted' || value === 'denied' ? value : null;
  } catch {
    return null;
  }
}

export function createAnalyticsConsent(deps: ConsentDeps): AnalyticsConsentStore {
  let settings: AnalyticsSettings | null = null;
  let state: ConsentState = { configured: false, consent: readConsent(deps.storage()), dismissed: false };
  const listeners = new Set<() => void>();
  const update = (change: Partial<ConsentState>): void => {
    state = { ...state, ...change };
    for (const listener of listeners) listener();
  };

  return {
    async load() {
      settings = await deps.loadSettings();
      update({ configured: settings !== null });
      if (settings !== null && state.consent === 'granted') await deps.start(settings);
    },
    async choose(consent) {
      try {
        deps.storage()?.setItem(ANALYTICS_CONSENT_KEY, consent);
      } catch {
        // Blocked storage: the answer holds for this visit only.
      }
      update({ consent });
      if (consent === 'denied') deps.stop();
      else if (settings !== null) await deps.start(settings);
    },
    dismiss() {
      update({ dismissed: true });
    },
    getSnapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function browserStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The app's consent store. */
export const analyticsConsent = createAnalyticsConsent({
  storage: browserStorage,
  loadSettings: () => analyticsSettingsFromServer(),
  start: (settings) => initAnalytics(settings),
  stop: stopAnalytics,
});

export function useAnalyticsConsent(store: AnalyticsConsentStore = analyticsConsent): ConsentState {
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}
