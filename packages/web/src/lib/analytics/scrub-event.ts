import type { CaptureResult, Properties } from 'posthog-js/no-external';
import { ANALYTICS_EVENTS } from './analytics-events';
import { looksSecret, normalizeAppPath, safeUrl, sanitizeProductProps } from './sanitize';

/** Events that may leave the browser: ours, page views, and the identify call (an opaque id). */
const ALLOWED_EVENTS: ReadonlySet<string> = new Set<string>([...ANALYTICS_EVENTS, '$pageview', '$identify']);

/** Ids the analytics library makes (random UUIDs, our hashed user id, the project key): kept as they are. */
const TECHNICAL_ID_KEYS: ReadonlySet<string> = new Set([
  'distinct_id',
  'token',
  '$device_id',
  '$user_id',
  '$anon_distinct_id',
  '$session_id',
  '$window_id',
  '$pageview_id',
  '$insert_id',
]);
const ID_VALUE = /^[A-Za-z0-9_.:-]{1,128}$/;

function isTechnicalKey(key: string): boolean {
  return key.startsWith('$') || TECHNICAL_ID_KEYS.has(key);
}

/** A property the library adds (browser, screen, URLs…): URLs reduced to route patterns, secrets dropped. */
function scrubTechnical(key: string, value: unknown, appOrigin: string): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  if (TECHNICAL_ID_KEYS.has(key)) return ID_VALUE.test(value) ? value : undefined;
  if (/^https?:\/\//i.test(value)) return safeUrl(value, appOrigin);
  if (/pathname$/i.test(key)) return normalizeAppPath(value);
  return looksSecret(value) ? undefined : value;
}

function scrubProperties(properties: Properties, appOrigin: string): Properties {
  const scrubbed: Properties = {};
  for (const [key, value] of Object.entries(properties) as [string, unknown][]) {
    if (isTechnicalKey(key)) {
      const kept = scrubTechnical(key, value, appOrigin);
      if (kept !== undefined) scrubbed[key] = kept;
    } else {
      Object.assign(scrubbed, sanitizeProductProps({ [key]: value }));
    }
  }
  return scrubbed;
}

/**
 * The last step before an event is sent (PostHog's `before_send`): unknown events are dropped, and
 * every property, the library's own included (`$current_url`, `$set_once.$initial_current_url`, the
 * page title…), is reduced to what may leave the browser.
 */
export function scrubCapture(capture: CaptureResult | null, appOrigin: string): CaptureResult | null {
  if (capture === null || !ALLOWED_EVENTS.has(capture.event)) return null;
  const scrubbed: CaptureResult = { ...capture, properties: scrubProperties(capture.properties, appOrigin) };
  if (capture.$set !== undefined) scrubbed.$set = scrubProperties(capture.$set, appOrigin);
  if (capture.$set_once !== undefined) scrubbed.$set_once = scrubProperties(capture.$set_once, appOrigin);
  return scrubbed;
}
