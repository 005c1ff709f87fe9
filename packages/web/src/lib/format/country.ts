/**
 * A country from the identity claims as people read it: a two-letter region code ('GB') becomes its
 * English name ('United Kingdom'); anything else is shown as given. Null for a missing or blank value.
 */
export function formatCountry(country: string | null | undefined): string | null {
  const value = country?.trim() ?? '';
  if (value === '') return null;
  if (/^[A-Za-z]{2}$/.test(value)) {
    try {
      const name = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' }).of(
        value.toUpperCase(),
      );
      if (name !== undefined) return name;
    } catch {
      // Not a region the runtime knows: show the code.
    }
  }
  return value;
}
