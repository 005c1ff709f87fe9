import { fileTypeOf, fileTypes, type FileType } from '@coffer/contracts';

/**
 * The product events Coffer sends to analytics and the only properties each may carry: bucketed sizes,
 * file-type groups, counts, yes/no flags and a few fixed words. No file name, email, key, token or id
 * fits these types, and `sanitizeProductProps` drops anything else that slips through at run time.
 */

export const SIZE_BUCKETS = ['<1MB', '1-10MB', '10-100MB', '100MB-1GB', '>1GB'] as const;
export type SizeBucket = (typeof SIZE_BUCKETS)[number];

const MB = 1024 * 1024;
const GB = 1024 * MB;

/** The size bucket of a byte count (binary units, like the app's size display). */
export function sizeBucketOf(bytes: number): SizeBucket {
  if (bytes < MB) return '<1MB';
  if (bytes < 10 * MB) return '1-10MB';
  if (bytes < 100 * MB) return '10-100MB';
  if (bytes < GB) return '100MB-1GB';
  return '>1GB';
}

/** The file-type group of a file name (spec section 3); the name itself never leaves this function. */
export function fileTypeGroupOf(fileName: string): FileType {
  return fileTypeOf(fileName);
}

export type UploadMethod = 'direct' | 'multipart';
export const UPLOAD_FAILURE_REASONS = [
  'quota',
  'network',
  'encryption',
  'server',
  'cancelled',
  'unknown',
] as const;
export type UploadFailureReason = (typeof UPLOAD_FAILURE_REASONS)[number];
export type DownloadSource = 'own' | 'shared';

type NoProps = Record<string, never>;

interface TransferProps {
  sizeBucket: SizeBucket;
  fileType: FileType;
  method: UploadMethod;
}

/** Every event and what it may say. */
export interface AnalyticsEvents {
  sign_up: NoProps;
  encryption_set_up: NoProps;
  upload_started: TransferProps & { fileCount?: number };
  upload_completed: TransferProps;
  upload_failed: TransferProps & { reason: UploadFailureReason };
  download: { sizeBucket: SizeBucket; fileType: FileType; source: DownloadSource };
  share: { fileCount: number; contactCount: number };
  revoke: { fileCount: number };
  contact_added: { verified: boolean };
  invite_sent: NoProps;
  upgrade_started: NoProps;
}

export type AnalyticsEvent = keyof AnalyticsEvents;

export const ANALYTICS_EVENTS = [
  'sign_up',
  'encryption_set_up',
  'upload_started',
  'upload_completed',
  'upload_failed',
  'download',
  'share',
  'revoke',
  'contact_added',
  'invite_sent',
  'upgrade_started',
] as const satisfies readonly AnalyticsEvent[];

/** The only string values a product property may have. */
export const ALLOWED_PROP_STRINGS: ReadonlySet<string> = new Set<string>([
  ...SIZE_BUCKETS,
  ...fileTypes,
  'direct',
  'multipart',
  'own',
  'shared',
  ...UPLOAD_FAILURE_REASONS,
]);
