import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
}

export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

function parsePort(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be an integer from 0 to 65535, got "${raw}"`);
  }
  return port;
}

function parseLogLevel(raw: string | undefined): Config['logLevel'] {
  if (raw === undefined || raw === '') return 'info';
  const level = LOG_LEVELS.find((l) => l === raw);
  if (level === undefined) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  return level;
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
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    publicUrl: parseUrl('PUBLIC_URL', env.PUBLIC_URL ?? `http://localhost:${port}`),
    dataDir: resolve(env.DATA_DIR ?? 'data'),
    webDistDir: resolve(env.WEB_DIST_DIR ?? defaultWebDist),
    logLevel: parseLogLevel(env.LOG_LEVEL),
  };
}
