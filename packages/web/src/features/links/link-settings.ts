/** The create-link dialog's choices (issue 30) and what they mean for the API. */

export const EXPIRY_PRESETS = [
  { value: '1h', label: '1 hour', ms: 60 * 60_000 },
  { value: '1d', label: '1 day', ms: 24 * 60 * 60_000 },
  { value: '7d', label: '7 days', ms: 7 * 24 * 60 * 60_000 },
  { value: '30d', label: '30 days', ms: 30 * 24 * 60 * 60_000 },
  { value: 'never', label: 'Never', ms: null },
  { value: 'date', label: 'On a date…', ms: null },
] as const;

export type ExpiryChoice = (typeof EXPIRY_PRESETS)[number]['value'];

export const DOWNLOAD_LIMITS = [
  { value: '1', label: '1 download' },
  { value: '5', label: '5 downloads' },
  { value: '10', label: '10 downloads' },
  { value: '100', label: '100 downloads' },
  { value: 'unlimited', label: 'Unlimited' },
] as const;

export type DownloadLimitChoice = (typeof DOWNLOAD_LIMITS)[number]['value'];

/**
 * The expiry as ISO 8601 (or null for never). `date` is a `datetime-local` value (the person's own
 * time zone); a date in the past, or unreadable, is null-with-error for the form to show.
 */
export function expiryOf(
  choice: ExpiryChoice,
  date: string,
  now: number = Date.now(),
): { expiresAt: string | null; error: string | null } {
  if (choice === 'never') return { expiresAt: null, error: null };
  if (choice === 'date') {
    const at = date === '' ? Number.NaN : new Date(date).getTime();
    if (Number.isNaN(at)) return { expiresAt: null, error: 'Choose a date and time.' };
    if (at <= now) return { expiresAt: null, error: 'Choose a time in the future.' };
    return { expiresAt: new Date(at).toISOString(), error: null };
  }
  const preset = EXPIRY_PRESETS.find((entry) => entry.value === choice);
  return { expiresAt: new Date(now + (preset?.ms ?? 0)).toISOString(), error: null };
}

export function maxDownloadsOf(choice: DownloadLimitChoice): number | null {
  return choice === 'unlimited' ? null : Number(choice);
}

/** A link's current expiry and limit as the form's choices (an expiry as its date, in local time). */
export function choicesOf(
  expiresAt: string | null,
  maxDownloads: number | null,
): { expiry: ExpiryChoice; date: string; limit: DownloadLimitChoice } {
  const limit = DOWNLOAD_LIMITS.find((entry) => entry.value === String(maxDownloads))?.value ?? 'unlimited';
  if (expiresAt === null) return { expiry: 'never', date: '', limit };
  const at = new Date(expiresAt);
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  return { expiry: 'date', date: local, limit };
}
