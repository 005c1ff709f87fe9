import { appPaths } from '@coffer/contracts';
import { ALLOWED_PROP_STRINGS } from './analytics-events';

/**
 * What may never reach analytics: file names, emails, keys, tokens, and ids in URLs. Product
 * properties pass an allow-list (fixed words, counts, flags); the detectors below are the second
 * line, and the only one for the browser properties the analytics library adds by itself.
 */

export type SafeValue = string | number | boolean;

const EMAIL = /[^\s@/]+(?:@|%40)[^\s@/]+\.[^\s@/]+/i;
/** A JWT (`eyJ…`) or any three dot-separated base64url runs, as tokens are. */
const JWT =
  /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}|^[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{4,}$/;
/** 24 or more base64, base64url or hex characters in a row: key material, wrapped keys, secrets. */
const KEY_MATERIAL = /[A-Za-z0-9+/_-]{24,}={0,2}/;
/** A path (any slash) or a file name (ends in a dot and an extension). */
const PATH_OR_FILE_NAME = /[\\/]|\.[A-Za-z0-9]{1,10}$/;
const PROP_KEY = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;

export function looksLikeEmail(value: string): boolean {
  return EMAIL.test(value);
}

export function looksLikeJwt(value: string): boolean {
  return JWT.test(value);
}

export function looksLikeKeyMaterial(value: string): boolean {
  return KEY_MATERIAL.test(value);
}

export function looksLikePathOrFileName(value: string): boolean {
  return PATH_OR_FILE_NAME.test(value);
}

/** Email, token or key material anywhere in the text. */
export function looksSecret(value: string): boolean {
  return looksLikeEmail(value) || looksLikeJwt(value) || looksLikeKeyMaterial(value);
}

/** Counts are small whole numbers; anything else (a byte size, a timestamp, an id) is not a count. */
const MAX_COUNT = 100_000;

function safeProductValue(value: unknown): SafeValue | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number')
    return Number.isSafeInteger(value) && value >= 0 && value <= MAX_COUNT ? value : undefined;
  if (typeof value !== 'string') return undefined;
  if (looksSecret(value) || looksLikePathOrFileName(value)) return undefined;
  return ALLOWED_PROP_STRINGS.has(value) ? value : undefined;
}

/**
 * The properties of a product event, keeping only fixed words (size buckets, type groups, the events'
 * enums), counts and flags. Everything else is dropped, never sent.
 */
export function sanitizeProductProps(props: object): Record<string, SafeValue> {
  const safe: Record<string, SafeValue> = {};
  for (const [key, value] of Object.entries(props as Readonly<Record<string, unknown>>)) {
    if (!PROP_KEY.test(key) || looksSecret(key)) continue;
    const kept = safeProductValue(value);
    if (kept !== undefined) safe[key] = kept;
  }
  return safe;
}

const ROUTE_PATTERNS: readonly string[][] = Object.values(appPaths).map((path) =>
  path.split('/').filter((segment) => segment !== ''),
);

/**
 * An app path as its route pattern: `/share/3f2a…` → `/share/:id`, query and hash removed. Paths that
 * are no route of the app become `/other`, so nothing typed into the address bar is ever sent.
 */
export function normalizeAppPath(path: string): string {
  const pathname = path.split(/[?#]/)[0] ?? '';
  const segments = pathname.split('/').filter((segment) => segment !== '');
  for (const pattern of ROUTE_PATTERNS) {
    if (
      pattern.length === segments.length &&
      pattern.every((part, i) => part.startsWith(':') || part === segments[i])
    ) {
      return `/${pattern.join('/')}`;
    }
  }
  return '/other';
}

/** A URL of the app as origin + route pattern; another site's URL as its origin only; junk dropped. */
export function safeUrl(value: string, appOrigin: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return url.origin === appOrigin ? `${appOrigin}${normalizeAppPath(url.pathname)}` : url.origin;
}
