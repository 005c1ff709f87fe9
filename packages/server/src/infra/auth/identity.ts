import type { JWTPayload } from 'jose';
import { canonicalEmail } from '@coffer/contracts';

/** Who a verified access token says the caller is. Built only from a token that passed verification. */
export interface Identity {
  /** The `iss` claim: the identity provider that issued the token. */
  issuer: string;
  /** The `sub` claim: stable per user at this issuer. `(issuer, subject)` identifies a user. */
  subject: string;
  /** Lower-cased: the `email` claim, else the first of the `emails` list (Azure AD B2C), else null. */
  email: string | null;
  /** The `email_verified` claim; null when the issuer does not say. */
  emailVerified: boolean | null;
  /** Every address the token names, lower-cased, without duplicates; `email` first. */
  emails: string[];
  /** The `name` claim, else `given_name family_name`, else null. */
  name: string | null;
  /** The `country` claim (or `address.country`), else null. */
  country: string | null;
  /** The `idp` claim (e.g. `google.com`), else the verifier's default (the issuer's host). */
  idp: string;
  /** The `iat` claim (seconds since the epoch), when the token has one. */
  issuedAt?: number;
}

function nonEmptyString(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

function emailList(payload: JWTPayload): string[] {
  const candidates: unknown[] = [payload.email];
  if (Array.isArray(payload.emails)) candidates.push(...(payload.emails as unknown[]));
  const emails: string[] = [];
  for (const candidate of candidates) {
    const raw = nonEmptyString(candidate);
    const email = raw === null ? undefined : canonicalEmail(raw);
    if (email !== undefined && !emails.includes(email)) emails.push(email);
  }
  return emails;
}

/** Some issuers (Cognito, older Auth0 rules) send `"true"`/`"false"` strings. */
function emailVerified(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return null;
}

function displayName(payload: JWTPayload): string | null {
  const name = nonEmptyString(payload.name);
  if (name !== null) return name;
  const parts = [nonEmptyString(payload.given_name), nonEmptyString(payload.family_name)];
  const joined = parts.filter((part) => part !== null).join(' ');
  return joined === '' ? null : joined;
}

function country(payload: JWTPayload): string | null {
  const direct = nonEmptyString(payload.country);
  if (direct !== null) return direct;
  const address = payload.address;
  if (typeof address === 'object' && address !== null) {
    return nonEmptyString((address as { country?: unknown }).country);
  }
  return null;
}

/**
 * Maps the claims of a verified token to an {@link Identity}. `payload.iss` and `payload.sub` must
 * already be checked by the caller.
 */
export function identityFromClaims(
  payload: JWTPayload & { iss: string; sub: string },
  defaultIdp: string,
): Identity {
  const emails = emailList(payload);
  return {
    issuer: payload.iss,
    subject: payload.sub,
    email: emails[0] ?? null,
    emailVerified: emailVerified(payload.email_verified),
    emails,
    name: displayName(payload),
    country: country(payload),
    idp: nonEmptyString(payload.idp) ?? defaultIdp,
    ...(typeof payload.iat === 'number' && Number.isFinite(payload.iat) ? { issuedAt: payload.iat } : {}),
  };
}
