/**
 * The wire shapes of the links and file-requests API (docs/key-hierarchy.md, "API shape (issue 30,
 * first cut)"), as the web client reads them. They move to `@coffer/contracts` once its link and
 * request schemas land; until then this file is the one place that spells them.
 */

/** `{salt, kdf}` of a link with a password (what the page needs to derive the auth key). */
export interface LinkPasswordParams {
  readonly salt: string;
  readonly kdf: Record<string, unknown>;
}

/** GET /api/public/links/{linkId}. */
export interface PublicLinkInfo {
  readonly password: LinkPasswordParams | null;
}

/** One granted file of an opened link. */
export interface OpenedLinkItem {
  readonly fileId: string;
  readonly size: number;
  readonly wrappedKey: string;
  readonly encryptedMetadata: string;
  readonly manifestJson: string | null;
  readonly nodeRecord?: string | null;
}

/** POST /api/public/links/{linkId}/open (with `X-Link-Auth`). */
export interface OpenedLinkAnswer {
  readonly items: readonly OpenedLinkItem[];
  readonly ownerEmail: string;
  readonly signingPublicKey: string | null;
  readonly keyBinding: string | null;
  readonly expiresAt: string | null;
  readonly downloadsLeft: number | null;
  readonly linkRecord: string;
}

export type LinkState = 'active' | 'expired' | 'exhausted' | 'revoked' | 'closed';

/** One row of GET /users/links: a link or a file request. */
export interface OwnLinkSummary {
  readonly kind: 'link' | 'request';
  readonly id: string;
  readonly state: LinkState;
  readonly createdAt: string;
  readonly expiresAt: string | null;
  /** Links: the limit (null: unlimited) and what is used of it. */
  readonly maxDownloads?: number | null;
  readonly downloadsUsed?: number;
  readonly downloadsLeft?: number | null;
  /** Links: the granted files. */
  readonly fileIds?: readonly string[];
  /** Links: the label sealed under the drive key (null: none). */
  readonly label?: string | null;
  /** Requests: limits and what arrived. */
  readonly maxFiles?: number | null;
  readonly maxBytes?: number | null;
  readonly filesReceived?: number;
  readonly bytesReceived?: number;
  readonly signedInOnly?: boolean;
}

export interface CreateLinkItem {
  readonly fileId: string;
  readonly wrappedKey: string;
  readonly encryptedMetadata?: string;
}

/** POST /users/links. */
export interface CreateLinkBody {
  readonly linkId?: string;
  readonly items: readonly CreateLinkItem[];
  readonly expiresAt: string | null;
  readonly maxDownloads: number | null;
  readonly label: string | null;
  readonly authKeyHash: string;
  readonly password: LinkPasswordParams | null;
  readonly linkRecord: string;
}

/** PATCH /users/links/{linkId}. */
export interface UpdateLinkBody {
  readonly expiresAt?: string | null;
  readonly maxDownloads?: number | null;
  readonly label?: string | null;
}

/** POST /users/requests. */
export interface CreateRequestBody {
  readonly expiresAt: string | null;
  readonly maxFiles: number | null;
  readonly maxBytes: number | null;
  readonly message: string | null;
  readonly signedInOnly: boolean;
  readonly authKeyHash: string;
}

/** GET /api/public/requests/{id} (with `X-Link-Auth`). */
export interface PublicRequestInfo {
  readonly ownerEmail: string;
  readonly publicKey: string;
  readonly keyId: string;
  readonly message: string | null;
  readonly filesLeft: number | null;
  readonly bytesLeft: number | null;
  readonly expiresAt: string | null;
  readonly signedInOnly?: boolean;
}
