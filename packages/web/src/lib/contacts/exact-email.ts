import { checkEmail } from '@coffer/contracts';

/**
 * Addresses are shown exactly as stored (issue 12): no lower-casing, no decoding of an IDNA domain
 * (`xn--…` stays as it is, so a look-alike domain never renders like the real one), plus-addresses in
 * full. What a browser would not draw at all (zero-width characters, direction overrides, control
 * characters) is drawn as `[U+XXXX]`, so two addresses that differ only there look different.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Zs}]/gu;

export function revealHiddenCharacters(text: string): string {
  return text.replace(
    HIDDEN,
    (char) => `[U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}]`,
  );
}

/**
 * True when a stored address mixes alphabets in its local part or a domain label (sign-up refuses
 * such addresses now; contacts added earlier may still hold one).
 */
export function mixesAlphabets(email: string): boolean {
  const check = checkEmail(email);
  return !check.ok && check.reason === 'mixed-script';
}
