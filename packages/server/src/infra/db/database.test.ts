import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config.js';
import { parseDatabaseUrl } from './database.js';
import { DatabaseConfigError, DatabaseError, isForeignKeyViolation, isUniqueViolation } from './errors.js';
import { knownMigrations } from './migrate.js';
import { parseInt8 } from './safe-integers.js';
import { fromDbBool, normalizeEmail, nowIso, toDbBool } from './values.js';

describe('parseDatabaseUrl', () => {
  const dataDir = '/srv/coffer/data';
  const defaultFile = { kind: 'sqlite', file: join(dataDir, 'coffer.db') };

  it('defaults to coffer.db in the data folder', () => {
    expect(parseDatabaseUrl(undefined, dataDir)).toEqual(defaultFile);
    expect(parseDatabaseUrl('', dataDir)).toEqual(defaultFile);
    expect(parseDatabaseUrl('  ', dataDir)).toEqual(defaultFile);
    expect(parseDatabaseUrl('sqlite:', dataDir)).toEqual(defaultFile);
    expect(parseDatabaseUrl('sqlite://', dataDir)).toEqual(defaultFile);
  });

  it('resolves a relative data folder', () => {
    expect(parseDatabaseUrl(undefined, 'data')).toEqual({
      kind: 'sqlite',
      file: resolve('data', 'coffer.db'),
    });
  });

  it('takes a SQLite path in either form', () => {
    expect(parseDatabaseUrl('sqlite:/var/lib/coffer.db', dataDir)).toEqual({
      kind: 'sqlite',
      file: '/var/lib/coffer.db',
    });
    expect(parseDatabaseUrl('sqlite:///var/lib/my%20coffer.db', dataDir)).toEqual({
      kind: 'sqlite',
      file: '/var/lib/my coffer.db',
    });
    expect(parseDatabaseUrl('SQLITE:dev.db', dataDir)).toEqual({ kind: 'sqlite', file: resolve('dev.db') });
    expect(parseDatabaseUrl('sqlite::memory:', dataDir)).toEqual({ kind: 'sqlite', memory: true });
  });

  it('passes PostgreSQL URLs through unchanged', () => {
    for (const url of [
      'postgres://coffer:s3cret@db.internal:5432/coffer',
      'postgresql://postgres@127.0.0.1/test?sslmode=require',
      'postgres://user@/coffer?host=/var/run/postgresql',
    ]) {
      expect(parseDatabaseUrl(url, dataDir)).toEqual({ kind: 'postgres', connectionString: url });
    }
  });

  it('rejects other schemes and broken URLs without echoing secrets', () => {
    const bad = [
      'mysql://root:hunter2@db/coffer',
      'postgres://user:hunter2@:99999/x',
      'coffer.db',
      'postgres://',
    ];
    for (const url of bad) {
      let caught: unknown;
      try {
        parseDatabaseUrl(url, dataDir);
      } catch (err) {
        caught = err;
      }
      expect(caught, url).toBeInstanceOf(DatabaseConfigError);
      expect(caught, url).toBeInstanceOf(ConfigError);
      expect((caught as Error).message, url).toMatch(/DATABASE_URL/);
      expect((caught as Error).message, url).not.toContain('hunter2');
    }
    expect(() => parseDatabaseUrl('sqlite://%E0%A4%A', dataDir)).toThrow(DatabaseConfigError);
  });
});

describe('parseInt8', () => {
  it('parses sizes beyond 32 bits exactly', () => {
    expect(parseInt8('5368709120')).toBe(5 * 1024 ** 3);
    expect(parseInt8('0')).toBe(0);
    expect(parseInt8('-42')).toBe(-42);
    expect(parseInt8(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses values a JS number cannot hold exactly', () => {
    expect(() => parseInt8('9007199254740992')).toThrow(DatabaseError);
    expect(() => parseInt8('-9223372036854775808')).toThrow(/safe range/);
  });
});

describe('driver error recognition', () => {
  it('knows the codes of pg, PGlite and better-sqlite3', () => {
    expect(isUniqueViolation({ code: '23505' })).toBe(true);
    expect(isUniqueViolation({ code: 'SQLITE_CONSTRAINT_UNIQUE' })).toBe(true);
    expect(isUniqueViolation({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' })).toBe(true);
    expect(isUniqueViolation({ code: '23503' })).toBe(false);
    expect(isUniqueViolation(new Error('UNIQUE constraint failed'))).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
    expect(isUniqueViolation('23505')).toBe(false);
    expect(isForeignKeyViolation({ code: '23503' })).toBe(true);
    expect(isForeignKeyViolation({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' })).toBe(true);
    expect(isForeignKeyViolation({ code: 23503 })).toBe(false);
  });
});

describe('value conventions', () => {
  it('writes timestamps that sort as text', () => {
    const earlier = nowIso(new Date('2026-01-02T03:04:05.006Z'));
    const later = nowIso(new Date('2026-01-02T03:04:05.007Z'));
    expect(earlier).toBe('2026-01-02T03:04:05.006Z');
    expect(earlier < later).toBe(true);
  });

  it('maps booleans and emails', () => {
    expect(toDbBool(true)).toBe(1);
    expect(toDbBool(false)).toBe(0);
    expect(fromDbBool(1)).toBe(true);
    expect(fromDbBool(0)).toBe(false);
    expect(normalizeEmail('  Alice@Example.COM ')).toBe('alice@example.com');
  });

  it('names migrations so that they sort by version', () => {
    const names = knownMigrations();
    expect(names[0]).toBe('0001_initial');
    for (const name of names) expect(name).toMatch(/^\d{4}_[a-z0-9_]+$/);
  });
});
