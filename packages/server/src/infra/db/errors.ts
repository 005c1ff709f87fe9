import { ConfigError } from '../../config.js';
import { CodedError } from '../../coded-error.js';

/** `DATABASE_URL` is not one the server can use. Thrown at start-up, before any connection is made. */
export class DatabaseConfigError extends ConfigError {}

/** The database answered something the server cannot represent safely (e.g. an integer beyond 2^53). */
export class DatabaseError extends CodedError {
  readonly code = 'DATABASE_ERROR';
}

/** The `code` a driver puts on its errors: PostgreSQL SQLSTATE (pg, PGlite) or SQLite extended code (better-sqlite3). */
function driverCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null || !('code' in err)) return undefined;
  return typeof err.code === 'string' ? err.code : undefined;
}

/**
 * True when `err` is a unique or primary-key violation, from either dialect. Services use it to turn a
 * lost race ("two requests add the same contact") into the right API error instead of a 500.
 */
export function isUniqueViolation(err: unknown): boolean {
  const code = driverCode(err);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** True when `err` is a foreign-key violation (the referenced row does not exist, or still has dependents). */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = driverCode(err);
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
