import { Type, type Static } from 'typebox';
import { apiObject } from './schemas/common.js';

/**
 * Error codes of the API error body: the spec's catalogue (section 8), the generic codes of
 * ARCHITECTURE.md for cases the catalogue does not cover, and a few specific ones the web app
 * words better than a generic failure (CONTACT_IS_SELF, EMAIL_NOT_VERIFIED).
 */
export const ErrorCode = {
  UPLOAD_FAILED: 'UPLOAD_FAILED',
  DOWNLOAD_FAILED: 'DOWNLOAD_FAILED',
  SHARE_FAILED: 'SHARE_FAILED',
  UNAUTHORIZED: 'UNAUTHORIZED',
  QUOTA_EXCEEDED: 'QUOTA_EXCEEDED',
  FILE_NOT_FOUND: 'FILE_NOT_FOUND',
  INVALID_OPERATION: 'INVALID_OPERATION',
  SHARE_LIMIT_REACHED: 'SHARE_LIMIT_REACHED',
  INVALID_RECIPIENT: 'INVALID_RECIPIENT',
  ALREADY_SHARED: 'ALREADY_SHARED',
  CONTACT_ALREADY_EXISTS: 'CONTACT_ALREADY_EXISTS',
  /** The caller tried to add their own email address as a contact. */
  CONTACT_IS_SELF: 'CONTACT_IS_SELF',
  KEYS_NOT_FOUND: 'KEYS_NOT_FOUND',
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  NOT_FOUND: 'NOT_FOUND',
  FORBIDDEN: 'FORBIDDEN',
  RATE_LIMITED: 'RATE_LIMITED',
  /** The caller's email address is not verified yet (keys, sharing and admin need a verified one). */
  EMAIL_NOT_VERIFIED: 'EMAIL_NOT_VERIFIED',
  /** PUT /users/keys or /users/keys/recovery named other key records than the caller holds now. */
  KEY_SET_CHANGED: 'KEY_SET_CHANGED',
  /** A link or file request that does not exist, expired, was revoked or closed, or is used up: one answer for all. */
  LINK_UNAVAILABLE: 'LINK_UNAVAILABLE',
  /** X-Link-Auth does not prove the link secret (and password) of an available link. */
  LINK_AUTH_FAILED: 'LINK_AUTH_FAILED',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const errorCodes = Object.values(ErrorCode);

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (errorCodes as readonly string[]).includes(value);
}

/**
 * The HTTP status the server answers with for each code unless a route documents
 * otherwise. The client reads the code, not the status, so this only keeps the server
 * consistent.
 */
export const errorHttpStatus = {
  UPLOAD_FAILED: 400,
  DOWNLOAD_FAILED: 400,
  SHARE_FAILED: 400,
  UNAUTHORIZED: 401,
  QUOTA_EXCEEDED: 403,
  FILE_NOT_FOUND: 404,
  INVALID_OPERATION: 400,
  SHARE_LIMIT_REACHED: 403,
  INVALID_RECIPIENT: 400,
  ALREADY_SHARED: 409,
  CONTACT_ALREADY_EXISTS: 409,
  CONTACT_IS_SELF: 400,
  KEYS_NOT_FOUND: 404,
  VALIDATION_FAILED: 400,
  NOT_FOUND: 404,
  FORBIDDEN: 403,
  RATE_LIMITED: 429,
  EMAIL_NOT_VERIFIED: 403,
  KEY_SET_CHANGED: 409,
  LINK_UNAVAILABLE: 404,
  LINK_AUTH_FAILED: 401,
} as const satisfies Record<ErrorCode, number>;

/** Server message of UPLOAD_FAILED when the monthly upload count is used up. */
export const MONTHLY_UPLOAD_LIMIT_SERVER_MESSAGE = 'Monthly upload limit reached';

export const ErrorBodySchema = apiObject(
  'ErrorBody',
  {
    code: Type.Enum(errorCodes, { description: 'Machine-readable error code.' }),
    message: Type.String({ maxLength: 2000, description: 'Human-readable explanation.' }),
  },
  'The body of every non-2xx answer.',
);
export type ErrorBody = Static<typeof ErrorBodySchema>;

/**
 * Reads `{code, message}` from an error text such as the body of a non-ok answer, or the
 * client's 'API request failed: <body>' message. Returns null when no JSON body with a
 * string code is found. Unknown codes are kept as plain strings.
 */
export function parseErrorBody(text: string): { code: string; message: string } | null {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(start, end + 1));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { code, message } = parsed as Record<string, unknown>;
  if (typeof code !== 'string') return null;
  return { code, message: typeof message === 'string' ? message : '' };
}
