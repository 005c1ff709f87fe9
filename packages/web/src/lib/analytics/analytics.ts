// The bundle that never loads remote scripts (the app's CSP allows only its own), imported only once
// analytics is configured and the person agreed: the first page does not carry it (issue 17).
import type { PostHog, PostHogConfig } from 'posthog-js/no-external';
import type { AnalyticsEvent, AnalyticsEvents } from './analytics-events';
import { normalizeAppPath, sanitizeProductProps } from './sanitize';
import { scrubCapture } from './scrub-event';

/** `analytics` of GET /api/config: PostHog's project key and instance; null when analytics is off. */
export interface AnalyticsSettings {
  key: string;
  host: string;
}

/** How events leave the browser; tests send them at once, uncompressed, from a test browser. */
export interface AnalyticsTransportOptions {
  /** Default true: events are batched. */
  requestBatching?: boolean;
  /** Default true: batches are gzipped. */
  compression?: boolean;
  /** Default false: PostHog drops events from user agents that look like bots (test browsers do). */
  allowBotUserAgents?: boolean;
  /** A separate PostHog instance (tests start several). */
  instanceName?: string;
}

let client: PostHog | null = null;

/**
 * A share link's or file request's page (`/l/…`, `/r/…`, issue 30): its address holds a link id and
 * its fragment the link secret. PostHog never loads there, and nothing is sent from there, whatever
 * the configuration and the person's consent.
 */
export function onLinkPage(pathname: string = window.location.pathname): boolean {
  return /^\/[lr]\//.test(pathname);
}

/** PostHog settings that keep analytics to what the app sends on purpose. */
function privacyConfig(
  settings: AnalyticsSettings,
  options: AnalyticsTransportOptions,
): Partial<PostHogConfig> {
  const appOrigin = window.location.origin;
  return {
    api_host: settings.host,
    api_transport: 'fetch',
    persistence: 'localStorage',
    person_profiles: 'identified_only',
    // Page views are sent by the router with the route pattern (URLs carry share ids and invite tokens).
    capture_pageview: false,
    capture_pageleave: false,
    // Nothing captured from the page itself: no clicks, no input values, no text, no recordings.
    autocapture: false,
    rageclick: false,
    capture_dead_clicks: false,
    capture_exceptions: false,
    capture_heatmaps: false,
    capture_performance: false,
    disable_session_recording: true,
    mask_all_text: true,
    mask_all_element_attributes: true,
    mask_personal_data_properties: true,
    save_campaign_params: false,
    disable_surveys: true,
    disable_product_tours: true,
    disable_conversations: true,
    disable_web_experiments: true,
    disable_external_dependency_loading: true,
    // No remote configuration: every feature is set here, and nothing turns recording back on.
    advanced_disable_flags: true,
    respect_dnt: true,
    request_batching: options.requestBatching ?? true,
    disable_compression: options.compression === false,
    opt_out_useragent_filter: options.allowBotUserAgents ?? false,
    before_send: (capture) => scrubCapture(capture, appOrigin),
  };
}

/**
 * Starts analytics when the server configured it (`POSTHOG_KEY`); without settings it stays off and
 * every other function here does nothing. Loads the PostHog library on first use. Resolves to whether
 * analytics is on. Callers start it only once the person agreed (see `consent.ts`).
 */
export async function initAnalytics(
  settings: AnalyticsSettings | null | undefined,
  options: AnalyticsTransportOptions = {},
): Promise<boolean> {
  if (onLinkPage()) return false;
  if (client !== null) return true;
  if (settings === null || settings === undefined || settings.key.trim() === '') return false;
  const { default: posthog } = await import('posthog-js/no-external');
  // Another call may have finished while the library loaded.
  client ??= posthog.init(settings.key, privacyConfig(settings, options), options.instanceName ?? 'coffer');
  return true;
}

/** `analytics` of GET /api/config (null: off, or the server could not be asked). */
export async function analyticsSettingsFromServer(
  fetchImpl: typeof fetch = fetch,
): Promise<AnalyticsSettings | null> {
  try {
    const response = await fetchImpl('/api/config');
    if (!response.ok) return null;
    const body = (await response.json()) as { analytics?: AnalyticsSettings | null };
    const settings = body.analytics;
    return settings === undefined || settings === null || settings.key.trim() === '' ? null : settings;
  } catch {
    return null;
  }
}

type PropsArgs<E extends AnalyticsEvent> =
  Record<string, never> extends AnalyticsEvents[E]
    ? [props?: AnalyticsEvents[E]]
    : [props: AnalyticsEvents[E]];

/** Sends a product event; its properties are checked again at run time (see `sanitizeProductProps`). */
export function track<E extends AnalyticsEvent>(event: E, ...[props]: PropsArgs<E>): void {
  if (client === null || onLinkPage()) return;
  client.capture(event, sanitizeProductProps(props ?? {}));
}

/** A page view of an app path, sent as its route pattern (`/share/:id`), without query or hash. */
export function trackPageView(path: string): void {
  if (client === null || onLinkPage() || onLinkPage(path)) return;
  const route = normalizeAppPath(path);
  client.capture('$pageview', { $current_url: `${window.location.origin}${route}`, $pathname: route });
}

/**
 * A one-way pseudonym for the identity provider's subject, so analytics can count people without
 * knowing who they are.
 *
 * STYLE.md keeps `crypto.subtle` inside packages/crypto, which exports no plain hash; this SHA-256 is
 * not part of the encryption format (it protects nothing, it only hides a name), so it lives here.
 */
export async function analyticsIdOf(subject: string): Promise<string> {
  const bytes = new TextEncoder().encode(`coffer-analytics-v1\u0000${subject}`);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Ties this browser's events to the signed-in person, by pseudonym only (no email, no name). */
export async function identifyUser(subject: string): Promise<void> {
  if (client === null) return;
  const id = await analyticsIdOf(subject);
  client.identify(id);
}

/** On logout: forget the person and start a new anonymous id. */
export function resetAnalytics(): void {
  client?.reset();
}

/** The person withdrew their consent: nothing more is sent, and PostHog's stored ids are dropped. */
export function stopAnalytics(): void {
  client?.opt_out_capturing();
  client?.reset();
  client = null;
}

/** Tests: drop the running client so the next `initAnalytics` starts a fresh one. */
export function stopAnalyticsForTests(): void {
  client?.opt_out_capturing();
  client = null;
}
