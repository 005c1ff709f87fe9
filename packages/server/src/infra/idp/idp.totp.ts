import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/**
 * TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps, what every authenticator app reads from a QR code)
 * and the one-time recovery codes that stand in for it.
 */

export const TOTP_PERIOD_SEC = 30;
/** Codes of the step before and after are accepted too (clock drift): three codes are valid at a time. */
const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

/** A new random secret (160 bits, RFC 4226's recommendation), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secretBase32: string, label = ''): TOTP {
  return new TOTP({
    issuer: 'Coffer',
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_SEC,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** The `otpauth://` URI an authenticator app reads from the QR code. */
export function totpUri(secretBase32: string, email: string): string {
  return totpOf(secretBase32, email).toString();
}

/** Only digits, spaces allowed in between ("123 456"). */
export function cleanTotpCode(input: string): string | null {
  const digits = input.replace(/\s+/g, '');
  return /^\d{6}$/.test(digits) ? digits : null;
}

/**
 * The time step `code` belongs to, within the window around `now`, or null when it matches none. The
 * caller records the step and refuses any code of that step or an earlier one afterwards (no replay).
 */
export function totpStepOf(secretBase32: string, code: string, now: Date): number | null {
  const totp = totpOf(secretBase32);
  const delta = totp.validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW });
  if (delta === null) return null;
  return totp.counter({ timestamp: now.getTime() }) + delta;
}

/** The code of `now` (tests, and the enrolment's own check). */
export function totpCodeAt(secretBase32: string, now: Date): string {
  return totpOf(secretBase32).generate({ timestamp: now.getTime() });
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'; // no i, l, o, 0, 1: read aloud and typed

/** A recovery code: 16 characters of a 31-letter alphabet (79 bits), shown as `xxxx-xxxx-xxxx-xxxx`. */
export function newRecoveryCode(): string {
  const chars: string[] = [];
  // Rejection sampling keeps every character equally likely.
  while (chars.length < 16) {
    for (const byte of randomBytes(32)) {
      if (byte < 248 && chars.length < 16) chars.push(RECOVERY_ALPHABET.charAt(byte % 31));
    }
  }
  return [0, 4, 8, 12].map((i) => chars.slice(i, i + 4).join('')).join('-');
}

/** What a person typed, in the stored form: lower case, no dashes or spaces. */
export function cleanRecoveryCode(input: string): string | null {
  const cleaned = input.toLowerCase().replace(/[\s-]+/g, '');
  return /^[a-hjkmnp-z2-9]{16}$/.test(cleaned) ? cleaned : null;
}

/**
 * What is stored of a recovery code: SHA-256 of the account id and the cleaned code. The codes carry 79
 * random bits, so a slow hash would add nothing but cost.
 */
export function recoveryCodeHash(accountId: string, cleanedCode: string): string {
  return createHash('sha256').update(`${accountId}:${cleanedCode}`, 'utf8').digest('hex');
}
