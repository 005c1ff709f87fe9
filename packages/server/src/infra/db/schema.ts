/**
 * Row types of every table, as Kysely sees them. The migrations in `./migrations/` are the source of
 * truth; keep this file in step with them. Conventions (see docs/database.md): ids are text (UUIDs),
 * timestamps ISO-8601 UTC text, booleans integer 0/1, JSON text, byte counts bigint → JS number.
 */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** An ISO-8601 UTC timestamp as `Date.prototype.toISOString()` writes it; sorts as text. */
export type IsoTimestamp = string;
/** A boolean stored as an integer (both dialects). */
export type DbBool = 0 | 1;
/** A JSON document stored as text; parse it at the repo edge. */
export type JsonText = string;

export const TIERS = ['Free', 'Personal'] as const;
export type Tier = (typeof TIERS)[number];

export const TRANSFER_KINDS = ['upload', 'download'] as const;
export type TransferKind = (typeof TRANSFER_KINDS)[number];

export const UPLOAD_KINDS = ['direct', 'multipart'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

export const UPLOAD_STATUSES = ['pending', 'complete', 'aborted', 'failed'] as const;
export type UploadStatus = (typeof UPLOAD_STATUSES)[number];

export const IDP_KEY_PURPOSES = ['signing', 'cookie'] as const;
export type IdpKeyPurpose = (typeof IDP_KEY_PURPOSES)[number];

/** A person, created on first sight of a token from `issuer` with subject `subject`. */
export interface UsersTable {
  id: string;
  issuer: string;
  subject: string;
  /** Lower-cased; unique among non-null values. */
  email: string | null;
  name: string | null;
  country: string | null;
  /** Identity provider the person signed in through (the token's `idp` claim), e.g. "local", "google". */
  idp: string | null;
  tier: Generated<Tier>;
  /** Start of the current billing month; monthly transfer counts are counted from here. */
  current_period_start: IsoTimestamp;
  current_period_end: IsoTimestamp | null;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  created_at: IsoTimestamp;
  updated_at: IsoTimestamp;
}

/** A user's recovery kit (migration 0008): one row per user, replaced whole. */
export interface UserRecoveryKitsTable {
  user_id: string;
  /** The kit's public id (32 hex). */
  kit_id: string;
  /** JSON text of the wraps: `[{keyId, encryptedPrivateKey, encryptedSigningKey?}]`, opaque. */
  wraps: JsonText;
  created_at: IsoTimestamp;
}
export type UserRecoveryKitRow = Selectable<UserRecoveryKitsTable>;

/** A user's key pair; the newest by `created_at` is the active one. */
export interface UserKeysTable {
  /** The keyId the client shows and files reference as `encryptionInfo.version`. */
  id: string;
  user_id: string;
  /** base64 SPKI DER. */
  public_key: string;
  /** JSON string `{iv, salt, data, kdf?}`, opaque to the server. */
  encrypted_private_key: JsonText;
  created_at: IsoTimestamp;
  /** base64 SPKI of the signing key (migration 0004); null on records from before signing keys. */
  signing_public_key: Generated<string | null>;
  /** JSON `{iv, salt, data, kdf, alg}`, opaque to the server. */
  encrypted_signing_key: Generated<JsonText | null>;
  /** JSON text of the key binding, signed by the signing key. */
  key_binding: Generated<JsonText | null>;
  /** base64 RSA-OAEP of the user's drive key to this key pair (migration 0009); null until set. */
  wrapped_drive_key: Generated<string | null>;
  /** JSON text of the user's signed drive key record (migration 0011); set with wrapped_drive_key. */
  drive_key_record: Generated<JsonText | null>;
}

export interface ContactsTable {
  user_id: string;
  /** Lower-cased; with user_id the primary key. */
  email: string;
  name: string;
  color: string;
  image: string | null;
  invited_at: IsoTimestamp | null;
  created_at: IsoTimestamp;
}

/** One row per invitation mail sent: audit trail and rate limiting. */
export interface InvitationsTable {
  id: string;
  user_id: string;
  /** Lower-cased. */
  to_email: string;
  created_at: IsoTimestamp;
}

export interface FeedbackTable {
  id: string;
  /** Null once the author's account is deleted; the text stays for the admins. */
  user_id: string | null;
  user_email: string;
  message: string;
  created_at: IsoTimestamp;
}

/** One row per completed upload or download, for the monthly limits. */
export interface TransferEventsTable {
  id: string;
  user_id: string;
  kind: TransferKind;
  bytes: number;
  created_at: IsoTimestamp;
  /** The file a counted download was of (null for uploads, and downloads counted before 0013). */
  file_id: Generated<string | null>;
}

export interface FilesTable {
  id: string;
  owner_id: string;
  name: string;
  content_type: string;
  /** Plaintext bytes. */
  size: number;
  /** Bytes in the blob store (ciphertext: size + 28 per chunk); counts against the storage quota. */
  stored_size: number;
  is_encrypted: DbBool;
  /** JSON `{version, algorithm, iv, encryptedFileKey, format, chunkSize}`; null for unencrypted files. */
  encryption_info: JsonText | null;
  /** Key of the blob in the BlobStore; unique. */
  object_key: string;
  uploaded_at: IsoTimestamp;
  /** JSON text of the owner's signed file manifest (migration 0004); null for files from before. */
  manifest: Generated<JsonText | null>;
  /**
   * The file's node (migration 0009), all five set or none: its client-chosen id (unique per owner), its
   * folder (null at the top), its key wrapped under the folder, its sealed metadata (then `name` is
   * `encrypted`) and the owner's signed node record. A file that came through a file request has only
   * `node_id` and `encrypted_metadata` (sealed by its uploader) until its owner's browser places it.
   */
  node_id: Generated<string | null>;
  parent_node_id: Generated<string | null>;
  wrapped_key: Generated<string | null>;
  encrypted_metadata: Generated<string | null>;
  node_record: Generated<JsonText | null>;
  /** The file request it came through (migration 0010). */
  request_id: Generated<string | null>;
  /** The signed-in person who sent it through a signed-in-only file request (migration 0012). */
  uploaded_by: Generated<string | null>;
}

/** An upload in progress or finished; becomes a `files` row when complete. */
export interface UploadsTable {
  id: string;
  user_id: string;
  file_name: string;
  content_type: string;
  size: number;
  stored_size: number;
  is_encrypted: DbBool;
  encryption_info: JsonText | null;
  object_key: string;
  /** The blob store's own multipart upload id (S3 UploadId); null for direct uploads. */
  storage_upload_id: string | null;
  kind: UploadKind;
  status: UploadStatus;
  /** Number of parts announced (1 for a direct upload). */
  parts: number;
  file_id: string | null;
  created_at: IsoTimestamp;
  updated_at: IsoTimestamp;
  /** The owner's signed manifest, handed on to the file (migration 0004). */
  manifest: Generated<JsonText | null>;
  /** JSON text of the file's node (a FileNode), handed on to the file (migration 0009). */
  node: Generated<JsonText | null>;
  /** The file request it comes through (migration 0010). */
  request_id: Generated<string | null>;
  /** The signed-in person who sends it through a signed-in-only file request (migration 0012). */
  uploaded_by: Generated<string | null>;
}

/** A folder of the encrypted drive (migration 0009); the owner and the node id are its key. */
export interface FoldersTable {
  owner_id: string;
  node_id: string;
  /** Null at the top of the drive. */
  parent_node_id: string | null;
  wrapped_key: string;
  encrypted_metadata: string;
  node_record: JsonText;
  created_at: IsoTimestamp;
  updated_at: IsoTimestamp;
}

/** A folder key wrapped for one recipient, with the owner's signed folder grant (migration 0009). */
export interface FolderSharesTable {
  owner_id: string;
  node_id: string;
  recipient_id: string;
  /** Lower-cased. */
  recipient_email: string;
  encrypted_folder_key: string;
  key_version: string;
  grant_json: JsonText;
  created_at: IsoTimestamp;
}

/** A share link (migration 0010): settings, SHA-256 of its proof A, the owner's signed record. */
export interface LinksTable {
  id: string;
  owner_id: string;
  /** The key record it was made under: deleting that key deletes the link. */
  owner_key_id: string;
  /** Lowercase hex SHA-256(A). */
  auth_key_hash: string;
  /** base64 Argon2id salt; null without a password. */
  password_salt: string | null;
  /** JSON text of the Argon2id parameters; null without a password. */
  password_kdf: JsonText | null;
  expires_at: IsoTimestamp | null;
  max_downloads: number | null;
  downloads_used: Generated<number>;
  /** base64, sealed under the owner's drive key. */
  label: string | null;
  link_record: JsonText;
  created_at: IsoTimestamp;
  updated_at: IsoTimestamp;
  last_used_at: IsoTimestamp | null;
}

/** One file a link grants: its key wrapped under the link key and its metadata sealed under it. */
export interface LinkItemsTable {
  link_id: string;
  file_id: string;
  position: number;
  wrapped_key: string;
  encrypted_metadata: string;
}

/** A counted link download; its token lets the same download resume without counting again. */
export interface LinkDownloadsTable {
  /** Lowercase hex SHA-256 of the token handed to the client. */
  token_hash: string;
  link_id: string;
  file_id: string;
  expires_at: IsoTimestamp;
}

/** A file request (migration 0010): upload-only link with its limits. */
export interface FileRequestsTable {
  id: string;
  owner_id: string;
  owner_key_id: string;
  auth_key_hash: string;
  expires_at: IsoTimestamp | null;
  max_files: number;
  max_bytes: number;
  /** base64, sealed under the request key. */
  message: string | null;
  signed_in_only: Generated<DbBool>;
  closed_at: IsoTimestamp | null;
  created_at: IsoTimestamp;
  updated_at: IsoTimestamp;
  last_used_at: IsoTimestamp | null;
}

export interface UploadPartsTable {
  upload_id: string;
  /** From 1. */
  part_number: number;
  etag: string;
  size: number;
  created_at: IsoTimestamp;
}

/** A file key wrapped for one recipient. */
export interface SharesTable {
  file_id: string;
  owner_id: string;
  recipient_id: string;
  /** Lower-cased; the address the owner shared with (the recipient's email at that time). */
  recipient_email: string;
  /** base64 RSA-OAEP(recipient public key, file key). */
  encrypted_file_key: string;
  /** The recipient's keyId used for wrapping. */
  key_version: string;
  created_at: IsoTimestamp;
  /** JSON text of the owner's signed share grant (migration 0004); null for shares from before. */
  share_grant: Generated<JsonText | null>;
}

/** Each user's sealed pin set (migration 0004): opaque to the server but for its version. */
export interface UserPinSetsTable {
  user_id: string;
  pin_set: JsonText;
  version: number;
  updated_at: IsoTimestamp;
}

/** Provider webhook events already handled (idempotency). */
export interface PaymentEventsTable {
  /** The provider's event id, e.g. Stripe `evt_…`. */
  id: string;
  type: string;
  processed_at: IsoTimestamp;
}

/** Local accounts of the embedded OpenID provider. */
export interface IdpAccountsTable {
  /** The `sub` the embedded provider issues. */
  id: string;
  /** Lower-cased; unique. */
  email: string;
  password_hash: string;
  name: string;
  country: string | null;
  email_verified: Generated<DbBool>;
  created_at: IsoTimestamp;
  updated_at: IsoTimestamp;
}

/** oidc-provider adapter storage: sessions, grants, codes, tokens… keyed by (model, id). */
export interface IdpPayloadsTable {
  id: string;
  /** oidc-provider model name: "Session", "Grant", "AccessToken", "Interaction", … */
  model: string;
  payload: JsonText;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: IsoTimestamp | null;
  consumed_at: IsoTimestamp | null;
  /** The account a Session, Grant, AuthorizationCode or RefreshToken belongs to (migration 0003). */
  account_id: Generated<string | null>;
}

/** Single-use links the embedded provider mails (migration 0003). */
export interface IdpEmailTokensTable {
  /** SHA-256 (hex) of the token in the link; the token itself is never stored. */
  id: string;
  purpose: 'verify' | 'reset';
  account_id: string;
  /** The address the link was sent to (canonical). */
  email: string;
  /** A sign-up again with an unconfirmed address: the credentials that win when this link confirms it. */
  pending_password_hash: string | null;
  pending_name: string | null;
  pending_country: string | null;
  created_at: IsoTimestamp;
  expires_at: IsoTimestamp;
  used_at: IsoTimestamp | null;
}

/** Attempt counters shared by every server instance (migration 0003). */
export interface RateLimitsTable {
  /** `rule:` + SHA-256 of the limited thing (an address, an IP…), never the thing itself. */
  key: string;
  count: number;
  window_ends_at: IsoTimestamp;
  blocked_until: IsoTimestamp | null;
}

/** Keys of the embedded OpenID provider, so a restart keeps tokens and sessions valid. */
export interface IdpKeysTable {
  id: string;
  /** "signing": a private JWK (JSON) for ID/access tokens; "cookie": a secret for cookie signatures. */
  purpose: Generated<IdpKeyPurpose>;
  /** JSON text: a private JWK, or `{"kty":"oct","k":…}` for a cookie secret. */
  jwk: JsonText;
  created_at: IsoTimestamp;
}

/** Secrets a server makes on first start and every instance on the database shares (one row each). */
export interface ServerSecretsTable {
  /** What the secret is for, e.g. `billing-demo`. */
  name: string;
  /** base64url of the secret's bytes. */
  value: string;
  created_at: IsoTimestamp;
}

export interface DB {
  users: UsersTable;
  user_keys: UserKeysTable;
  contacts: ContactsTable;
  invitations: InvitationsTable;
  feedback: FeedbackTable;
  transfer_events: TransferEventsTable;
  files: FilesTable;
  uploads: UploadsTable;
  upload_parts: UploadPartsTable;
  shares: SharesTable;
  payment_events: PaymentEventsTable;
  idp_accounts: IdpAccountsTable;
  idp_payloads: IdpPayloadsTable;
  idp_keys: IdpKeysTable;
  idp_email_tokens: IdpEmailTokensTable;
  user_pin_sets: UserPinSetsTable;
  user_recovery_kits: UserRecoveryKitsTable;
  rate_limits: RateLimitsTable;
  server_secrets: ServerSecretsTable;
  folders: FoldersTable;
  folder_shares: FolderSharesTable;
  links: LinksTable;
  link_items: LinkItemsTable;
  link_downloads: LinkDownloadsTable;
  file_requests: FileRequestsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type UserKeyRow = Selectable<UserKeysTable>;
export type NewUserKeyRow = Insertable<UserKeysTable>;
export type ContactRow = Selectable<ContactsTable>;
export type NewContactRow = Insertable<ContactsTable>;
export type ContactUpdate = Updateable<ContactsTable>;
export type InvitationRow = Selectable<InvitationsTable>;
export type FeedbackRow = Selectable<FeedbackTable>;
export type NewFeedbackRow = Insertable<FeedbackTable>;
export type TransferEventRow = Selectable<TransferEventsTable>;
export type FileRow = Selectable<FilesTable>;
export type NewFileRow = Insertable<FilesTable>;
export type UploadRow = Selectable<UploadsTable>;
export type NewUploadRow = Insertable<UploadsTable>;
export type UploadUpdate = Updateable<UploadsTable>;
export type UploadPartRow = Selectable<UploadPartsTable>;
export type ShareRow = Selectable<SharesTable>;
export type NewShareRow = Insertable<SharesTable>;
export type FolderRow = Selectable<FoldersTable>;
export type NewFolderRow = Insertable<FoldersTable>;
export type FolderShareRow = Selectable<FolderSharesTable>;
export type NewFolderShareRow = Insertable<FolderSharesTable>;
export type PaymentEventRow = Selectable<PaymentEventsTable>;
export type IdpAccountRow = Selectable<IdpAccountsTable>;
export type NewIdpAccountRow = Insertable<IdpAccountsTable>;
export type IdpPayloadRow = Selectable<IdpPayloadsTable>;
export type IdpKeyRow = Selectable<IdpKeysTable>;
