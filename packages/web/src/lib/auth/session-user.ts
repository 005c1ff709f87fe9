import { avatarColorFor } from '@coffer/contracts';

/** The signed-in person, from the identity provider's ID token claims (spec section 3, User). */
export interface SessionUser {
  /** The identity provider's subject. */
  id: string;
  name: string;
  /** Primary email (first of `emails`). */
  email: string | null;
  /** Avatar colour derived from the email (#rrggbb). */
  color: string;
  image: string | null;
  idTokenClaims: { idp: string | null; emails: string[]; country: string | null };
}

/** A stable avatar colour for an email (FNV-1a over the lower-cased address). */
export function colorFromEmail(email: string): string {
  let hash = 0x811c9dc5;
  for (const char of email.trim().toLowerCase()) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return avatarColorFor(hash);
}

function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** `emails` (Azure AD B2C style list) and `email`, without duplicates, `email` first. */
function emailsOf(claims: Readonly<Record<string, unknown>>): string[] {
  const candidates: unknown[] = [claims.email];
  if (Array.isArray(claims.emails)) candidates.push(...(claims.emails as unknown[]));
  const emails: string[] = [];
  for (const candidate of candidates) {
    const email = text(candidate);
    if (email !== null && !emails.some((known) => known.toLowerCase() === email.toLowerCase())) {
      emails.push(email);
    }
  }
  return emails;
}

function countryOf(claims: Readonly<Record<string, unknown>>): string | null {
  const direct = text(claims.country);
  if (direct !== null) return direct;
  const address = claims.address;
  return typeof address === 'object' && address !== null
    ? text((address as { country?: unknown }).country)
    : null;
}

/** Maps ID token claims (name, email/emails, country, idp, picture) to the app's user. */
export function sessionUserFromClaims(claims: Readonly<Record<string, unknown>>): SessionUser {
  const emails = emailsOf(claims);
  const email = emails[0] ?? null;
  const given = [text(claims.given_name), text(claims.family_name)].filter((part) => part !== null);
  const name =
    text(claims.name) ??
    (given.length > 0 ? given.join(' ') : null) ??
    text(claims.preferred_username) ??
    email;
  const id = text(claims.sub) ?? '';
  return {
    id,
    name: name ?? 'Coffer user',
    email,
    color: colorFromEmail(email ?? id),
    image: text(claims.picture),
    idTokenClaims: { idp: text(claims.idp), emails, country: countryOf(claims) },
  };
}
