/** Case- and accent-insensitive form used for matching search text. */
function normalise(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

/**
 * The contacts whose name or email contains the search text (ignoring case, accents and the
 * spaces around it). An empty search keeps every contact. Order is kept.
 */
export function filterContacts<T extends { name: string; email: string }>(
  contacts: readonly T[],
  search: string,
): T[] {
  const needle = normalise(search);
  if (needle === '') return [...contacts];
  return contacts.filter(
    (contact) => normalise(contact.name).includes(needle) || normalise(contact.email).includes(needle),
  );
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Alphabetical by name, then by email, so the grid does not reshuffle when the server's order changes. */
export function sortContacts<T extends { name: string; email: string }>(contacts: readonly T[]): T[] {
  return [...contacts].sort((a, b) => collator.compare(a.name, b.name) || collator.compare(a.email, b.email));
}

/**
 * Up to two initials for an avatar: first letters of the first and last words of the name, or the
 * first letter of the email when the name has none. Works on code points, so emoji and non-Latin
 * letters are not cut in half.
 */
export function contactInitials(name: string, email = ''): string {
  const words = name
    .trim()
    .split(/\s+/u)
    .filter((word) => /[\p{L}\p{N}]/u.test(word));
  const first = words[0];
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  const initial = (word: string | undefined): string => {
    if (word === undefined) return '';
    const letter = Array.from(word).find((char) => /[\p{L}\p{N}]/u.test(char));
    return letter === undefined ? '' : letter.toLocaleUpperCase();
  };
  const fromName = initial(first) + initial(last);
  if (fromName !== '') return fromName;
  return initial(email) || '?';
}
