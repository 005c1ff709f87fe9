/**
 * Business constants and limits of the product (spec section 9), plus the small
 * shared vocabularies (session-storage keys, tiers, landing reasons) that both
 * the server and the web client name.
 */

// --- Encryption format (coffer-v1, see ARCHITECTURE.md) -------------------------------------------

/** Plaintext bytes per encrypted chunk: 95 MiB. Multipart part n is exactly encrypted chunk n-1. */
export const CHUNK_SIZE = 99_614_720;
/** Random IV prepended to every encrypted chunk. */
export const AES_GCM_IV_BYTES = 12;
/** AES-GCM authentication tag appended to every encrypted chunk. */
export const AES_GCM_TAG_BYTES = 16;
/** Bytes each encrypted chunk adds to its plaintext (IV + tag). */
export const CHUNK_OVERHEAD_BYTES = AES_GCM_IV_BYTES + AES_GCM_TAG_BYTES;
/** Per-file AES-256-GCM key length. */
export const FILE_KEY_BYTES = 32;
export const ENCRYPTION_ALGORITHM = 'AES-GCM';
export const ENCRYPTION_FORMAT = 'coffer-v1';
/** RSA-OAEP user key pair: modulus length and hash. */
export const RSA_MODULUS_BITS = 2048;
export const RSA_HASH = 'SHA-256';
/** Iterations of records without a `kdf` field (the spec's original value); they must still unlock. */
export const PBKDF2_LEGACY_ITERATIONS = 100_000;
/** Iterations for newly wrapped private keys (OWASP recommendation). */
export const PBKDF2_ITERATIONS = 600_000;
export const PBKDF2_HASH = 'SHA-256';
export const SALT_BYTES = 16;

// --- Uploads ---------------------------------------------------------------------------------------

/** Files up to this size (100 MB) upload directly; larger files go through the multipart queue. */
export const DIRECT_UPLOAD_THRESHOLD = 104_857_600;
/** S3's limit on the number of parts of one multipart upload. */
export const MAX_PARTS = 10_000;
/** Largest plaintext a multipart upload can carry: MAX_PARTS full chunks (about 928 GiB). */
export const MAX_FILE_SIZE = MAX_PARTS * CHUNK_SIZE;
export const MAX_FILES_PER_DROP = 10;
/** Used when the subscription does not say otherwise (maxConcurrentUploads). */
export const DEFAULT_MAX_CONCURRENT_UPLOADS = 1;
/** Default `limit` of GET /users/uploads. */
export const RECENT_UPLOADS_LIMIT = 20;
/** Largest `limit` GET /users/uploads accepts. */
export const UPLOADS_LIMIT_MAX = 100;
/** Sent as contentType when the browser reports none (File.type === ''). */
export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

// --- Text limits -----------------------------------------------------------------------------------

export const FEEDBACK_MAX_LENGTH = 2000;
export const MASTER_KEY_MIN_LENGTH = 8;
/** File and contact names. */
export const NAME_MAX_LENGTH = 255;
/** RFC 5321 path limit. */
export const EMAIL_MAX_LENGTH = 254;

// --- Timing and layout -----------------------------------------------------------------------------

/** Pause between successive shares when sharing with several contacts. */
export const SHARE_DELAY_MS = 1000;

/** Most files one share action (`POST /users/shares`) may share with one person. */
export const SHARE_BATCH_MAX_FILES = 100;

// --- Encrypted drive (issue 31, docs/key-hierarchy.md) ----------------------------------------------

/** What `name` carries for a file whose name is encrypted (its metadata is in `encryptedMetadata`). */
export const ENCRYPTED_FILE_NAME = 'encrypted';
/** Longest `encryptedMetadata` (base64 characters): iv, sealed `{name, contentType}` JSON and tag. */
export const NODE_METADATA_MAX_LENGTH = 4096;
/** Longest wrapped key of a node or a drive key (base64 characters). */
export const NODE_WRAPPED_KEY_MAX_LENGTH = 1024;
/** Longest signed node record (JSON text). */
export const NODE_RECORD_MAX_LENGTH = 4096;
/** Deepest folder: a folder at the top is at depth 1. */
export const FOLDER_DEPTH_MAX = 64;
/** Most folders one user may have. */
export const FOLDERS_PER_USER_MAX = 10_000;
/** Most files one `POST /users/files/nodes` call may place. */
export const NODE_BATCH_MAX_FILES = 500;
export const SNACKBAR_AUTOHIDE_MS = 8000;
/** Progress is reported in steps of at least this many percent. */
export const PROGRESS_STEP_PERCENT = 0.5;
/** Private key fetch: attempts, waiting KEY_RETRY_BASE_MS × attempt number between them. */
export const KEY_RETRY_ATTEMPTS = 3;
export const KEY_RETRY_BASE_MS = 100;
export const POST_UNLOCK_WAIT_MS = 100;
/** Waits while aborting transfers because the user navigates away. */
export const NAV_ABORT_WAITS_MS = [200, 300] as const;
/** Time-out for loading the app's lazy-loaded parts. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const LAYOUT_BREAKPOINT_PX = 991;

// --- Session storage -------------------------------------------------------------------------------

/**
 * Session-storage key names. `encryptionDerivedKey` holds only a random handle to a
 * non-extractable CryptoKey in IndexedDB, never key material (ARCHITECTURE.md).
 */
export const sessionStorageKeys = {
  redirectAfterUnlock: 'redirectAfterUnlock',
  needsNewEncryption: 'needsNewEncryption',
  encryptionInitialized: 'encryptionInitialized',
  encryptionDerivedKey: 'encryptionDerivedKey',
} as const;
export type SessionStorageKey = (typeof sessionStorageKeys)[keyof typeof sessionStorageKeys];

// --- Tiers -----------------------------------------------------------------------------------------

export const tierNames = ['Free', 'Personal'] as const;
export type TierName = (typeof tierNames)[number];
export const FREE_TIER: TierName = 'Free';
export const tierLabels = {
  Free: 'Free Tier',
  Personal: 'Personal Tier',
} as const satisfies Record<TierName, string>;

export type AccountTier = 'FREE' | 'PAID';
/** FREE when the tier is 'Free' and also while stats are loading (tier unknown); otherwise PAID. */
export function accountTierOf(tier: string | null | undefined): AccountTier {
  return tier === undefined || tier === null || tier === FREE_TIER ? 'FREE' : 'PAID';
}

// --- Landing page ----------------------------------------------------------------------------------

export const landingReasons = ['file-share', 'email-notification', 'invite-email', 'other'] as const;
export type LandingReason = (typeof landingReasons)[number];
export function isLandingReason(value: unknown): value is LandingReason {
  return typeof value === 'string' && (landingReasons as readonly string[]).includes(value);
}

// --- Lists and statuses ----------------------------------------------------------------------------

export const sortOrders = ['newest', 'oldest'] as const;
export type SortOrder = (typeof sortOrders)[number];
export const DEFAULT_SORT_ORDER: SortOrder = 'newest';
export const sortOrderLabels = {
  newest: 'Newest first',
  oldest: 'Oldest first',
} as const satisfies Record<SortOrder, string>;

export const snackbarColors = ['success', 'danger', 'warning'] as const;
export type SnackbarColor = (typeof snackbarColors)[number];

/** Client-side upload pipeline (spec section 4): queued → processing → complete | failed | aborted. */
export const uploadPipelineStatuses = ['queued', 'processing', 'complete', 'failed', 'aborted'] as const;
export type UploadPipelineStatus = (typeof uploadPipelineStatuses)[number];

/**
 * Server-side status of an upload record (GET /users/uploads). `pending` from the multipart
 * create until complete/abort; direct uploads are recorded as `complete` (or `failed`).
 * Queued/processing exist only in the browser, before the server knows of the upload.
 */
export const uploadRecordStatuses = ['pending', 'complete', 'failed', 'aborted'] as const;
export type UploadRecordStatus = (typeof uploadRecordStatuses)[number];
