import { randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import type { JWK } from 'jose';
import type { Kysely } from 'kysely';
import type { DB, IdpKeyPurpose } from '../db/schema.js';
import { nowIso } from '../db/values.js';

/** The embedded provider's secrets: token signing keys and cookie signing secrets. */
export interface IdpKeys {
  /** Private RS256 JWKs (with `kid`, `alg`, `use`); the first one signs. */
  signing: JWK[];
  /** Cookie secrets for oidc-provider's `cookies.keys`; the first one signs, all verify. */
  cookie: string[];
}

/**
 * Fixed row ids for the keys made on first start: when several servers start at once on an empty
 * database, exactly one insert wins and all of them then read the same keys.
 */
const INITIAL_ROW_ID: Record<IdpKeyPurpose, string> = { signing: 'signing-0001', cookie: 'cookie-0001' };

async function newSigningJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: 'RS256', use: 'sig' };
}

function newCookieSecret(): JWK {
  return { kty: 'oct', k: randomBytes(32).toString('base64url') };
}

async function insertIfMissing(db: Kysely<DB>, purpose: IdpKeyPurpose, jwk: JWK, now: Date): Promise<void> {
  await db
    .insertInto('idp_keys')
    .values({ id: INITIAL_ROW_ID[purpose], purpose, jwk: JSON.stringify(jwk), created_at: nowIso(now) })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/**
 * Reads the provider's keys from `idp_keys`, generating them on first start, so tokens, sessions and
 * cookies stay valid across restarts and across servers sharing the database. Newest keys come first
 * (a rotation adds a row; older keys keep verifying until removed).
 */
export async function loadOrCreateIdpKeys(db: Kysely<DB>, now: Date = new Date()): Promise<IdpKeys> {
  const read = () =>
    db
      .selectFrom('idp_keys')
      .select(['purpose', 'jwk'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  let rows = await read();
  const missing = (purpose: IdpKeyPurpose) => !rows.some((row) => row.purpose === purpose);
  if (missing('signing') || missing('cookie')) {
    if (missing('signing')) await insertIfMissing(db, 'signing', await newSigningJwk(), now);
    if (missing('cookie')) await insertIfMissing(db, 'cookie', newCookieSecret(), now);
    rows = await read();
  }
  const keys: IdpKeys = { signing: [], cookie: [] };
  for (const row of rows) {
    const jwk = JSON.parse(row.jwk) as JWK;
    if (row.purpose === 'signing') keys.signing.push(jwk);
    else if (typeof jwk.k === 'string') keys.cookie.push(jwk.k);
  }
  return keys;
}

/** The public half of signing keys, as a JWKS publishes them. */
export function publicJwks(signing: readonly JWK[]): { keys: JWK[] } {
  return {
    keys: signing.map(({ kty, n, e, crv, x, y, kid, alg, use }) =>
      Object.fromEntries(
        Object.entries({ kty, n, e, crv, x, y, kid, alg, use }).filter(([, value]) => value !== undefined),
      ),
    ),
  };
}
