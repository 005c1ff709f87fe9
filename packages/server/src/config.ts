import { resolve } from 'node:path';
import { canonicalEmail } from '@coffer/contracts';
import { fileURLToPath } from 'node:url';
import { CodedError } from './coded-error.js';

/** Everything the server reads from its environment, parsed once at start-up. */
export interface Config {
  /** TCP port the HTTP server listens on. */
  port: number;
  /** Interface to bind. */
  host: string;
  /** The URL users reach the app at; used in mail links and as the OIDC issuer base. */
  publicUrl: string;
  /** Folder for the SQLite file, blobs, mail outbox and IdP keys in the embedded setup. */
  dataDir: string;
  /** Built web app (Vite output) served at `/`. */
  webDistDir: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** `postgres://…` for PostgreSQL; undefined for the SQLite file in the data dir. */
  databaseUrl: string | undefined;
  /** Connections a PostgreSQL pool may open (`DATABASE_POOL_SIZE`); SQLite has one. */
  databasePoolSize: number;
  /** Prometheus metrics on their own port; null (off) unless `METRICS_PORT` is set. */
  metrics: MetricsConfig | null;
  /** Users whose verified email is listed here are admins (feedback admin page). */
  adminEmails: string[];
  plans: Record<Tier, PlanLimits>;
  mail: { smtpUrl: string | undefined; from: string };
  storage: StorageConfig;
  auth: AuthConfig;
  /** "Continue with Google" on the embedded provider's pages; undefined when not configured. */
  google: GoogleConfig | undefined;
  /** scrypt cost (log2 N) for new password hashes of the embedded provider; lower it only in tests. */
  idpPasswordCost: number;
  /** Sign-in and sign-up attempts one IP address may make per 15 minutes at the embedded provider. */
  idpAttemptsPerIp: number;
  /**
   * Which peers may set X-Forwarded-For/-Proto (Fastify's `trustProxy`): false (the default: the
   * socket's address is the client), a hop count, or a list of addresses and CIDR ranges.
   */
  trustProxy: boolean | number | string[];
  /** Hours a multipart (or interrupted direct) upload may stay pending without activity before the sweeper aborts it. */
  uploadExpiryHours: number;
  /** Seconds a SIGTERM waits for running requests (transfers) to finish before the process exits. */
  shutdownGraceSeconds: number;
  /**
   * Minutes without a part after which a multipart upload stops counting against maxConcurrentUploads,
   * and after which a direct upload that stopped receiving bytes (a crashed server) is aborted.
   */
  uploadIdleMinutes: number;
  /** Minutes between two sweeps of stale uploads and temporary blobs (one also runs at start). */
  sweepIntervalMinutes: number;
  /** Seconds in which the headers and the body of a request other than an upload must arrive. */
  requestTimeoutSeconds: number;
  /** An upload body must bring at least this many bytes per second, averaged over each window. */
  uploadMinBytesPerSecond: number;
  /** Seconds of the window over which an upload's rate is measured. */
  uploadRateWindowSeconds: number;
  /** Whether the built web app's `.map` files are served (they are always refused otherwise). */
  serveSourceMaps: boolean;
  /** Upgrade checkout and billing portal: Stripe when `STRIPE_SECRET_KEY` is set, else the built-in demo. */
  payments: PaymentsConfig;
  /** Product analytics (PostHog) for the web app; null (off) unless `POSTHOG_KEY` is set. */
  analytics: AnalyticsConfig | null;
}

export interface MetricsConfig {
  port: number;
  host: string;
}

export type Tier = 'Free' | 'Personal';

/** Limits of one subscription tier, as `/users/stats` reports them (storage in GB). */
export interface PlanLimits {
  storageLimit: number;
  monthlyUploadLimit: number;
  monthlyDownloadLimit: number;
  maxContacts: number;
  maxShares: number;
  maxConcurrentUploads: number;
}

export type StorageConfig =
  | { kind: 'fs'; root: string }
  | { kind: 's3'; bucket: string; endpoint: string | undefined; region: string; forcePathStyle: boolean };

export interface AuthConfig {
  /** External OIDC issuer; undefined means the embedded provider at `${publicUrl}/idp`. */
  issuer: string | undefined;
  clientId: string;
  /** The `aud` the API accepts in access tokens. */
  audience: string;
  scopes: string;
  /**
   * An external issuer whose tokens carry no `email_verified` claim (Azure AD B2C verifies at sign-up
   * and never says so): true treats their emails as verified. False by default: unstated is unverified.
   */
  emailVerifiedWhenAbsent: boolean;
}

/** Google (or any OpenID Connect issuer playing it) as an upstream identity of the embedded provider. */
export interface GoogleConfig {
  /** Discovery-based; `https://accounts.google.com` unless `GOOGLE_ISSUER` says otherwise. */
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** Documented defaults; `PLAN_LIMITS_FREE` / `PLAN_LIMITS_PERSONAL` (JSON) override single fields. */
export const DEFAULT_PLANS: Record<Tier, PlanLimits> = {
  Free: {
    storageLimit: 5,
    monthlyUploadLimit: 200,
    monthlyDownloadLimit: 1000,
    maxContacts: 10,
    maxShares: 25,
    maxConcurrentUploads: 1,
  },
  Personal: {
    storageLimit: 500,
    monthlyUploadLimit: 10000,
    monthlyDownloadLimit: 50000,
    maxContacts: 500,
    maxShares: 5000,
    maxConcurrentUploads: 3,
  },
};

export class ConfigError extends CodedError {
  readonly code = 'CONFIG_INVALID';
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

function parsePort(raw: string | undefined, fallback: number, name = 'PORT'): number {
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`${name} must be an integer from 0 to 65535, got "${raw}"`);
  }
  return port;
}

/**
 * `METRICS_PORT`: unset or empty turns the metrics endpoint off; it never shares the app's port (0 picks
 * a free one, for both). The metrics are not authenticated: they bind to the loopback interface unless
 * `METRICS_HOST` says otherwise.
 */
function parseMetrics(env: Record<string, string | undefined>, port: number): MetricsConfig | null {
  const metricsPort = parsePort(env.METRICS_PORT, -1, 'METRICS_PORT');
  if (metricsPort === -1) return null;
  if (metricsPort !== 0 && metricsPort === port) throw new ConfigError('METRICS_PORT must differ from PORT');
  const host = env.METRICS_HOST === undefined || env.METRICS_HOST === '' ? '127.0.0.1' : env.METRICS_HOST;
  return { port: metricsPort, host };
}

function parseLogLevel(raw: string | undefined): Config['logLevel'] {
  if (raw === undefined || raw === '') return 'info';
  const level = LOG_LEVELS.find((l) => l === raw);
  if (level === undefined) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  return level;
}

function parseBool(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function parsePlan(name: string, raw: string | undefined, base: PlanLimits): PlanLimits {
  if (raw === undefined || raw === '') return base;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(`${name} must be a JSON object such as {"maxContacts": 20}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`${name} must be a JSON object such as {"maxContacts": 20}`);
  }
  const plan = { ...base };
  for (const [key, value] of Object.entries(parsed)) {
    if (!(key in base)) throw new ConfigError(`${name}: unknown limit "${key}"`);
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new ConfigError(`${name}: "${key}" must be a non-negative number`);
    }
    plan[key as keyof PlanLimits] = value;
  }
  if (!Number.isInteger(plan.maxConcurrentUploads) || plan.maxConcurrentUploads < 1) {
    throw new ConfigError(`${name}: "maxConcurrentUploads" must be a whole number of at least 1`);
  }
  return plan;
}

function parsePositiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new ConfigError(`${name} must be a whole number of at least 1`);
  return value;
}

/** A comma-separated list of addresses, each in the canonical form every email column holds. */
function parseEmailList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map(canonicalEmail);
}

function parseCost(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 15;
  const cost = Number(raw);
  if (!Number.isInteger(cost) || cost < 10 || cost > 20) {
    throw new ConfigError(`IDP_PASSWORD_COST must be a whole number from 10 to 20, got "${raw}"`);
  }
  return cost;
}

function parseGoogle(env: NodeJS.ProcessEnv): GoogleConfig | undefined {
  const clientId = env.GOOGLE_CLIENT_ID ?? '';
  const clientSecret = env.GOOGLE_CLIENT_SECRET ?? '';
  if (clientId === '' && clientSecret === '') return undefined;
  if (clientId === '' || clientSecret === '') {
    throw new ConfigError('GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together');
  }
  const raw = env.GOOGLE_ISSUER ?? '';
  // Kept as given, like OIDC_ISSUER: it must match the discovery document and the id_token's `iss`.
  const issuer = raw === '' ? 'https://accounts.google.com' : (parseUrl('GOOGLE_ISSUER', raw), raw);
  return { issuer, clientId, clientSecret };
}

function parseUrl(name: string, raw: string): string {
  try {
    const url = new URL(raw);
    return url.toString().replace(/\/$/, '');
  } catch {
    throw new ConfigError(`${name} must be an absolute URL, got "${raw}"`);
  }
}

/**
 * Builds the configuration from environment variables. Every variable has a default that gives the
 * zero-config embedded setup (`npm start`); the README lists them all.
 */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const port = parsePort(env.PORT, 8080);
  const publicUrl = parseUrl('PUBLIC_URL', env.PUBLIC_URL ?? `http://localhost:${port}`);
  const dataDir = resolve(env.DATA_DIR ?? 'data');
  const databaseUrl = env.DATABASE_URL === '' ? undefined : env.DATABASE_URL;
  if (databaseUrl !== undefined && !/^(postgres(ql)?|sqlite):/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres://, postgresql:// or sqlite:');
  }
  const bucket = env.S3_BUCKET ?? '';
  // Kept exactly as given: the issuer must match the tokens' `iss` to the character (trailing slash too).
  const issuer = env.OIDC_ISSUER ? (parseUrl('OIDC_ISSUER', env.OIDC_ISSUER), env.OIDC_ISSUER) : undefined;
  const host = env.HOST ?? '0.0.0.0';
  return {
    port,
    host,
    publicUrl,
    dataDir,
    webDistDir: resolve(env.WEB_DIST_DIR ?? defaultWebDist),
    logLevel: parseLogLevel(env.LOG_LEVEL),
    databaseUrl,
    databasePoolSize: parsePositiveInt('DATABASE_POOL_SIZE', env.DATABASE_POOL_SIZE, 10),
    metrics: parseMetrics(env, port),
    adminEmails: parseEmailList(env.ADMIN_EMAILS),
    plans: {
      Free: parsePlan('PLAN_LIMITS_FREE', env.PLAN_LIMITS_FREE, DEFAULT_PLANS.Free),
      Personal: parsePlan('PLAN_LIMITS_PERSONAL', env.PLAN_LIMITS_PERSONAL, DEFAULT_PLANS.Personal),
    },
    mail: {
      smtpUrl: env.SMTP_URL === '' ? undefined : env.SMTP_URL,
      from: env.MAIL_FROM ?? `Coffer <no-reply@${new URL(publicUrl).hostname}>`,
    },
    storage:
      bucket === ''
        ? { kind: 'fs', root: resolve(dataDir, 'blobs') }
        : {
            kind: 's3',
            bucket,
            endpoint: env.S3_ENDPOINT === '' ? undefined : env.S3_ENDPOINT,
            region: env.S3_REGION ?? 'us-east-1',
            forcePathStyle: parseBool('S3_FORCE_PATH_STYLE', env.S3_FORCE_PATH_STYLE, false),
          },
    auth: {
      issuer,
      clientId: env.OIDC_CLIENT_ID ?? 'coffer-web',
      audience:
        env.OIDC_AUDIENCE ??
        (issuer === undefined ? `${publicUrl}/api` : (env.OIDC_CLIENT_ID ?? 'coffer-web')),
      scopes: env.OIDC_SCOPES ?? 'openid profile email offline_access',
      emailVerifiedWhenAbsent: parseBool(
        'OIDC_EMAIL_VERIFIED_WHEN_ABSENT',
        env.OIDC_EMAIL_VERIFIED_WHEN_ABSENT,
        false,
      ),
    },
    google: parseGoogle(env),
    idpPasswordCost: parseCost(env.IDP_PASSWORD_COST),
    idpAttemptsPerIp: parsePositiveInt('IDP_ATTEMPTS_PER_IP', env.IDP_ATTEMPTS_PER_IP, 30),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    uploadExpiryHours: parseHours('UPLOAD_EXPIRY_HOURS', env.UPLOAD_EXPIRY_HOURS, 24),
    shutdownGraceSeconds: parsePositiveInt('SHUTDOWN_GRACE_SECONDS', env.SHUTDOWN_GRACE_SECONDS, 30),
    uploadIdleMinutes: parseIdleMinutes(env.UPLOAD_IDLE_MINUTES),
    sweepIntervalMinutes: parseHours('SWEEP_INTERVAL_MINUTES', env.SWEEP_INTERVAL_MINUTES, 5),
    requestTimeoutSeconds: parseHours('REQUEST_TIMEOUT_SECONDS', env.REQUEST_TIMEOUT_SECONDS, 30),
    uploadMinBytesPerSecond: parsePositiveInt(
      'UPLOAD_MIN_BYTES_PER_SECOND',
      env.UPLOAD_MIN_BYTES_PER_SECOND,
      1024,
    ),
    uploadRateWindowSeconds: parseHours('UPLOAD_RATE_WINDOW_SECONDS', env.UPLOAD_RATE_WINDOW_SECONDS, 60),
    serveSourceMaps: parseBool('SERVE_SOURCE_MAPS', env.SERVE_SOURCE_MAPS, false),
    payments: parsePayments(env),
    analytics: parseAnalytics(env),
  };
}

const IPV4_OR_CIDR = /^(\d{1,3}\.){3}\d{1,3}(\/\d{1,2})?$/;
const IPV6_OR_CIDR = /^[0-9a-f:.]+(\/\d{1,3})?$/i;
const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * `TRUST_PROXY`: unset, empty or `false` trusts no proxy; a whole number trusts that many hops;
 * otherwise a comma-separated list of addresses, CIDR ranges, or `loopback`/`linklocal`/`uniquelocal`.
 * `true` (trust every peer) is refused: anyone could then pick the IP the rate limits see.
 */
export function parseTrustProxy(raw: string | undefined): boolean | number | string[] {
  const value = (raw ?? '').trim();
  if (value === '' || /^(false|0|no|off)$/i.test(value)) return false;
  if (/^\d+$/.test(value)) return Number(value);
  if (/^(true|yes|on)$/i.test(value)) {
    throw new ConfigError(
      'TRUST_PROXY=true would trust X-Forwarded-For from anyone; name the proxies (addresses or CIDR ranges) or a hop count',
    );
  }
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    if (!IPV4_OR_CIDR.test(entry) && !IPV6_OR_CIDR.test(entry) && !NAMED_RANGES.includes(entry)) {
      throw new ConfigError(`TRUST_PROXY: "${entry}" is not an IP address, a CIDR range or a hop count`);
    }
  }
  return entries;
}

/** Uploads are marked active once a minute while bytes arrive, so idleness needs a margin above that. */
function parseIdleMinutes(raw: string | undefined): number {
  const minutes = parseHours('UPLOAD_IDLE_MINUTES', raw, 10);
  if (minutes < 2) throw new ConfigError(`UPLOAD_IDLE_MINUTES must be at least 2, got "${raw ?? ''}"`);
  return minutes;
}

/** A positive number (hours, minutes or seconds, as the variable's name says; fractions allowed). */
function parseHours(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw new ConfigError(`${name} must be a positive number, got "${raw}"`);
  }
  return value;
}

export interface PaymentsConfig {
  provider: 'demo' | 'stripe';
  /** The one subscription price the Upgrade button buys; checkout refuses any other. */
  priceId: string;
  /** Set exactly when `provider` is 'stripe'. */
  stripe: StripeSettings | null;
}

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** `STRIPE_API_BASE`: another API origin for the SDK (tests run a local fake Stripe); undefined for api.stripe.com. */
  apiBase: string | undefined;
}

export interface AnalyticsConfig {
  /** PostHog project API key (public by design: it only allows sending events). */
  key: string;
  /** PostHog instance, e.g. `https://eu.i.posthog.com` or a self-hosted one. */
  host: string;
}

/** The demo's price id; with Stripe, `STRIPE_PRICE_ID` must name a real recurring price. */
export const DEMO_PRICE_ID = 'price_personal_monthly';

function parsePayments(env: NodeJS.ProcessEnv): PaymentsConfig {
  const secretKey = env.STRIPE_SECRET_KEY ?? '';
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET ?? '';
  const priceId = env.STRIPE_PRICE_ID ?? '';
  const rawBase = env.STRIPE_API_BASE ?? '';
  if (priceId !== '' && !/^[A-Za-z0-9_-]{1,255}$/.test(priceId)) {
    throw new ConfigError('STRIPE_PRICE_ID must be a price id such as price_1Nxyz…');
  }
  if (secretKey === '') {
    if (webhookSecret !== '')
      throw new ConfigError('STRIPE_WEBHOOK_SECRET is set but STRIPE_SECRET_KEY is not');
    return { provider: 'demo', priceId: priceId === '' ? DEMO_PRICE_ID : priceId, stripe: null };
  }
  // Without the webhook secret no payment would ever change a tier; without the price, checkout has nothing to sell.
  if (webhookSecret === '') throw new ConfigError('STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY');
  if (priceId === '') throw new ConfigError('STRIPE_PRICE_ID must be set with STRIPE_SECRET_KEY');
  return {
    provider: 'stripe',
    priceId,
    stripe: {
      secretKey,
      webhookSecret,
      apiBase: rawBase === '' ? undefined : parseUrl('STRIPE_API_BASE', rawBase),
    },
  };
}

function parseAnalytics(env: NodeJS.ProcessEnv): AnalyticsConfig | null {
  const key = (env.POSTHOG_KEY ?? '').trim();
  if (key === '') return null;
  const host = env.POSTHOG_HOST ?? '';
  return { key, host: host === '' ? 'https://us.i.posthog.com' : parseUrl('POSTHOG_HOST', host) };
}
