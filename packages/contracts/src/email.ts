/**
 * One canonical form of an email address, used wherever an address is stored, compared or looked up:
 * sign-up, contacts, public-key lookups, shares, invitations and ADMIN_EMAILS. Runs unchanged in the
 * browser and in Node (URL does the IDNA mapping in both).
 *
 * - trimmed, Unicode NFC, lower-cased;
 * - the domain in ASCII (IDNA: `bücher.example` → `xn--bcher-kva.example`), so a look-alike domain in
 *   another script never displays like the real one;
 * - plus-addresses stay distinct (`ann+work@…` is another mailbox as far as Coffer knows).
 */

// The WHATWG URL class exists in every runtime this package targets (browsers, workers, Node); the
// package compiles without DOM or Node typings, so declare the one member used.
declare const URL: new (input: string) => { hostname: string };

/** The longest address SMTP allows (RFC 5321 path limit less the brackets). */
export const MAX_EMAIL_LENGTH = 254;

export const MIXED_SCRIPT_EMAIL_MESSAGE =
  'This address mixes letters from different alphabets, so it could be mistaken for another address. Please use another address.';

export type EmailCheck =
  { ok: true; email: string } | { ok: false; reason: 'invalid' | 'mixed-script'; email: string };

/** Scripts whose letters may not be mixed within one local part or domain label. */
const SCRIPTS: readonly (readonly [string, RegExp])[] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Georgian', /\p{Script=Georgian}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Hangul', /\p{Script=Hangul}/u],
  // Japanese writes Han, Hiragana and Katakana together: one group.
  ['Japanese', /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u],
];

const LETTER = /\p{L}/u;
/** Format and control characters (zero-width joiners, bidi overrides…): never part of a real address. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const ASCII_DOMAIN =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;
const LOCAL_PART = /^[^\s@"(),:;<>[\\\]]{1,64}$/u;

/** True when `text` holds letters of more than one script (digits and punctuation belong to none). */
export function mixesScripts(text: string): boolean {
  const seen = new Set<string>();
  for (const char of text) {
    if (!LETTER.test(char)) continue;
    const script = SCRIPTS.find(([, pattern]) => pattern.test(char))?.[0] ?? 'Other';
    seen.add(script);
    if (seen.size > 1) return true;
  }
  return false;
}

/** The ASCII (IDNA) form of a domain, or null when it is not a valid host name. */
function asciiDomain(domain: string): string | null {
  if (domain === '' || /[/?#:@\\\s%[\]]/.test(domain)) return null;
  let host: string;
  try {
    host = new URL(`http://${domain}/`).hostname;
  } catch {
    return null;
  }
  return ASCII_DOMAIN.test(host) && !/^\d+(\.\d+)*$/.test(host) ? host : null;
}

function split(trimmed: string): { local: string; domain: string } {
  const at = trimmed.lastIndexOf('@');
  return at < 0
    ? { local: trimmed, domain: '' }
    : { local: trimmed.slice(0, at), domain: trimmed.slice(at + 1) };
}

/**
 * Checks an address typed by a person and returns its canonical form. Refuses (reason `invalid`)
 * anything that is not `local@domain` with a real domain, and (reason `mixed-script`) a local part or
 * domain label that mixes alphabets, such as a Cyrillic `а` among Latin letters.
 */
export function checkEmail(raw: string): EmailCheck {
  const trimmed = raw.trim().normalize('NFC');
  const fallback = trimmed.toLowerCase();
  if (trimmed.length > MAX_EMAIL_LENGTH || INVISIBLE.test(trimmed)) {
    return { ok: false, reason: 'invalid', email: fallback };
  }
  const { local, domain } = split(trimmed);
  if (!LOCAL_PART.test(local) || local.startsWith('.') || local.endsWith('.') || local.includes('..')) {
    return { ok: false, reason: 'invalid', email: fallback };
  }
  const ascii = asciiDomain(domain.normalize('NFC'));
  if (ascii === null) return { ok: false, reason: 'invalid', email: fallback };
  const email = `${local.toLowerCase()}@${ascii}`;
  if (email.length > MAX_EMAIL_LENGTH) return { ok: false, reason: 'invalid', email: fallback };
  if (mixesScripts(local) || domain.split('.').some(mixesScripts)) {
    return { ok: false, reason: 'mixed-script', email };
  }
  return { ok: true, email };
}

/**
 * The canonical form for storing and comparing an address that was already accepted somewhere
 * (a token claim, a stored contact, a URL parameter). Never throws: what cannot be parsed is only
 * trimmed, NFC-normalised and lower-cased, so it still compares equal to itself.
 */
export function canonicalEmail(raw: string): string {
  return checkEmail(raw).email;
}
