import { formatDateTime } from '@coffer/contracts';

/** 'dd/mm/yyyy' in local time: the date part of the app's `formatDateTime`. Empty for an invalid date. */
export function formatDate(date: Date | string | number): string {
  return formatDateTime(date).split(' ')[0] ?? '';
}
