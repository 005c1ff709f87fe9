/**
 * Display formatting shared by the file cards, the limits card, the checkout and list sorting: one
 * formatter per kind of number, so the same figure reads the same on every screen.
 */

const sizeUnits = ['Bytes', 'KB', 'MB', 'GB', 'TB'] as const;
const KIB = 1024;
/** Bytes in one "GB" of a storage limit; 1024-based like formatSize. */
export const BYTES_PER_GB = KIB ** 3;

/**
 * Sizes in Bytes, KB, MB, GB, TB (1024-based). Whole bytes are shown without decimals
 * ('0 Bytes', '512 Bytes'); larger units always with 2 decimals ('1.50 KB', '1.00 MB').
 * A value that rounds up to 1024 of a unit moves to the next unit; TB is the largest unit.
 * Negative or non-finite input is shown as '0 Bytes'.
 */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  if (bytes < KIB) return `${Math.round(bytes)} Bytes`;
  let unit = Math.min(Math.floor(Math.log(bytes) / Math.log(KIB)), sizeUnits.length - 1);
  let value = bytes / KIB ** unit;
  if (Number(value.toFixed(2)) >= KIB && unit < sizeUnits.length - 1) {
    unit += 1;
    value = bytes / KIB ** unit;
  }
  return `${value.toFixed(2)} ${sizeUnits[unit] ?? 'TB'}`;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** 'dd/mm/yyyy HH:MM:SS' in local time, zero-padded, 24-hour. Accepts a Date, ISO string or epoch ms. */
export function formatDateTime(date: Date | string | number): string {
  const d = date instanceof Date ? date : new Date(date);
  if (Number.isNaN(d.getTime())) return '';
  return (
    `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${pad(d.getFullYear(), 4)} ` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  );
}

const dateTimePattern = /^(\d{1,2})\/(\d{1,2})\/(\d{4}) (\d{1,2}):(\d{2}):(\d{2})$/;

/**
 * Reads a formatDateTime string back as a local-time Date, for sorting; null when the
 * text is not in that form or names an impossible date (31/02/2024).
 */
export function parseDateTime(text: string): Date | null {
  const match = dateTimePattern.exec(text.trim());
  if (match === null) return null;
  const [day, month, year, hours, minutes, seconds] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const d = new Date(year, month - 1, day, hours, minutes, seconds);
  const roundTrips =
    d.getFullYear() === year &&
    d.getMonth() === month - 1 &&
    d.getDate() === day &&
    d.getHours() === hours &&
    d.getMinutes() === minutes &&
    d.getSeconds() === seconds;
  return roundTrips ? d : null;
}

/**
 * Storage use for the limits card: the percentage of `limitGb` (1024³ bytes per GB)
 * rounded up and capped at 100, but 99 while the raw value is strictly between 99 and
 * 100 so that "100%" only shows when the quota is really full. A limit of 0 (or invalid)
 * shows 0 when nothing is stored and 100 otherwise.
 */
export function storagePercent(usedBytes: number, limitGb: number): number {
  const used = Number.isFinite(usedBytes) && usedBytes > 0 ? usedBytes : 0;
  if (!Number.isFinite(limitGb) || limitGb <= 0) return used > 0 ? 100 : 0;
  const raw = (used / (limitGb * BYTES_PER_GB)) * 100;
  if (raw > 99 && raw < 100) return 99;
  // Rounding to 1e-9 first keeps float noise (50.000000000001) from rounding up a whole point.
  const roundedUp = Math.ceil(Math.round(raw * 1e9) / 1e9);
  return Math.min(100, roundedUp);
}

const countFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const gbFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** A count with thousands separators ('5,000'): plan limits and usage everywhere. */
export function formatCount(n: number): string {
  return countFormat.format(Number.isFinite(n) ? n : 0);
}

/** A storage limit in GB ('5 GB', '0.5 GB', '1,024 GB'). */
export function formatGb(gb: number): string {
  return `${gbFormat.format(Number.isFinite(gb) ? gb : 0)} GB`;
}

/**
 * Used storage in GB with 2 decimals, like the limit beside it ('1.25 GB'); amounts that would read
 * '0.00 GB' are shown in their own unit ('2.92 MB') so a little use is never shown as none.
 */
export function formatStorageUsed(usedBytes: number): string {
  const gb = usedBytes / BYTES_PER_GB;
  if (usedBytes > 0 && gb < 0.01) return formatSize(usedBytes);
  return `${(Number.isFinite(gb) && gb > 0 ? gb : 0).toFixed(2)} GB`;
}
