/**
 * Building blocks of the API schemas. Patterns are written for both validators the
 * server may use (TypeBox's compiler and Ajv, which compiles patterns with the `u` flag).
 */
import { Type, type Static, type TObjectOptions, type TProperties } from 'typebox';
import {
  EMAIL_MAX_LENGTH,
  MAX_FILE_SIZE,
  MAX_PARTS,
  NAME_MAX_LENGTH,
  RECENT_UPLOADS_LIMIT,
  UPLOADS_LIMIT_MAX,
} from '../constants.js';
import { EMAIL_PATTERN } from '../password-rules.js';

/** Standard base64 with padding (RFC 4648 §4), as every binary value in JSON is. */
export const BASE64_PATTERN = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';
/** Server-assigned ids (files, keys, feedback): UUIDs or similar URL-safe tokens. */
export const ID_PATTERN = '^[A-Za-z0-9_-]{1,64}$';
/**
 * A file name: no path separators, no control characters, not '.' or '..'. Anything else
 * (spaces, dots, Unicode) is kept as the user named the file.
 */
export const FILE_NAME_PATTERN = '^(?!\\.{1,2}$)[^/\\\\\\u0000-\\u001F\\u007F]+$';
/** A MIME type, optionally with parameters: `type/subtype[;param=value]`. */
export const CONTENT_TYPE_PATTERN =
  '^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(?:;[ -~]*)?$';
/** A multipart upload id (ours or the blob store's): URL-safe characters, not starting with a dot. */
export const UPLOAD_ID_PATTERN = '^[A-Za-z0-9_~=+-][A-Za-z0-9._~=+-]*$';
/** A server-built blob key: slash-separated segments of [A-Za-z0-9._-], no '.' or '..' segment. */
export const OBJECT_KEY_PATTERN = '^(?!(?:.*/)?\\.{1,2}(?:/|$))[A-Za-z0-9._-]+(?:/[A-Za-z0-9._-]+)*$';
/** An HTTP ETag as a blob store returns it, quoted or not, possibly weak: printable ASCII only. */
export const ETAG_PATTERN = '^(?:W/)?"?[!#-~]+"?$';
/** A CSS hex colour. */
export const COLOR_PATTERN = '^#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$';
/** Absolute http(s) URL without whitespace. */
export const HTTP_URL_PATTERN = '^https?://[^\\s]+$';
/** A JSON object serialised as a string, without raw control characters. */
export const JSON_OBJECT_TEXT_PATTERN = '^\\{[^\\u0000-\\u001F]*\\}$';
/** At least one non-whitespace character. */
export const NON_BLANK_PATTERN = '\\S';

export const IdSchema = Type.String({
  pattern: ID_PATTERN,
  maxLength: 64,
  description: 'Server-assigned id.',
});

export const EmailSchema = Type.String({
  pattern: EMAIL_PATTERN,
  minLength: 3,
  maxLength: EMAIL_MAX_LENGTH,
  description: 'Email address (simple pattern: local@domain.tld).',
});

export const FileNameSchema = Type.String({
  pattern: FILE_NAME_PATTERN,
  minLength: 1,
  maxLength: NAME_MAX_LENGTH,
  description: 'File name without any path.',
});

export const ContactNameSchema = Type.String({
  pattern: NON_BLANK_PATTERN,
  minLength: 1,
  maxLength: NAME_MAX_LENGTH,
  description: 'Display name of a contact (not blank).',
});

export const ContentTypeSchema = Type.String({
  pattern: CONTENT_TYPE_PATTERN,
  minLength: 3,
  maxLength: 255,
  description: "MIME type; 'application/octet-stream' when the browser reports none.",
});

/** A non-empty standard-base64 string of at most `maxLength` characters. */
export const base64String = (description: string, maxLength: number) =>
  Type.String({ pattern: BASE64_PATTERN, minLength: 4, maxLength, description });

/** An RSA-OAEP-wrapped file key (256 bytes for RSA-2048; room for RSA-4096). */
export const EncryptedFileKeySchema = base64String('base64(RSA-OAEP(publicKey, fileKey)).', 1024);

/** Plaintext size in bytes, up to MAX_PARTS full chunks. */
export const FileSizeSchema = Type.Integer({
  minimum: 0,
  maximum: MAX_FILE_SIZE,
  description: 'Plaintext size in bytes.',
});

/** Counters and byte totals. */
export const CountSchema = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

export const PartNumberSchema = Type.Integer({
  minimum: 1,
  maximum: MAX_PARTS,
  description: 'Multipart part number, from 1.',
});

export const UploadIdSchema = Type.String({ pattern: UPLOAD_ID_PATTERN, minLength: 1, maxLength: 1024 });
export const ObjectKeySchema = Type.String({ pattern: OBJECT_KEY_PATTERN, minLength: 1, maxLength: 1024 });
export const EtagSchema = Type.String({ pattern: ETAG_PATTERN, minLength: 1, maxLength: 256 });

/** ISO 8601 timestamps in answers. */
export const DateTimeSchema = Type.String({ format: 'date-time', description: 'ISO 8601 date-time.' });

export const HttpUrlSchema = Type.String({ pattern: HTTP_URL_PATTERN, minLength: 8, maxLength: 2048 });

/** An object schema that refuses properties it does not list (every request and answer is one). */
export const closedObject = <P extends TProperties>(properties: P, options: TObjectOptions = {}) =>
  Type.Object(properties, { additionalProperties: false, ...options });

/**
 * A closed object schema named `title`: the name `apiSchemas`, the route table and the OpenAPI
 * document know it by. `description` is left out of the schema when not given.
 */
export const apiObject = <P extends TProperties>(title: string, properties: P, description?: string) =>
  closedObject(properties, description === undefined ? { title } : { title, description });

/**
 * The answer of every call whose answer the spec leaves "not shown" (deletes, shares,
 * invitations, feedback, aborts): `{ok: true}`. Calls whose answer the client needs
 * (created key, contact, completed upload) return that resource instead.
 */
export const OkResponseSchema = apiObject(
  'OkResponse',
  { ok: Type.Literal(true) },
  'Success without further data.',
);
export type OkResponse = Static<typeof OkResponseSchema>;

export const HealthResponseSchema = apiObject(
  'HealthResponse',
  { status: Type.Literal('ok'), version: Type.String({ maxLength: 64 }) },
  'Liveness answer of GET /health.',
);
export type HealthResponse = Static<typeof HealthResponseSchema>;

// --- Path and query parameters ---------------------------------------------------------------------

export const IdParamsSchema = apiObject('IdParams', { id: IdSchema }, 'A file or feedback id in the path.');
export type IdParams = Static<typeof IdParamsSchema>;

export const EmailParamsSchema = apiObject(
  'EmailParams',
  { email: EmailSchema },
  "A contact's email (URL-encoded).",
);
export type EmailParams = Static<typeof EmailParamsSchema>;

export const LimitQuerySchema = apiObject(
  'LimitQuery',
  {
    // Optional so that validators which do not apply defaults accept a bare request too.
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: UPLOADS_LIMIT_MAX,
        default: RECENT_UPLOADS_LIMIT,
        description: 'Most entries to return (default 20).',
      }),
    ),
  },
  'List size limit, default 20.',
);
export type LimitQuery = Static<typeof LimitQuerySchema>;

/**
 * A JSON object serialised as a string (no raw control characters): how signed records and
 * wrapped keys travel, so that the server stores exactly the bytes the client wrote.
 */
export const jsonObjectText = (description: string, maxLength: number) =>
  Type.String({ pattern: JSON_OBJECT_TEXT_PATTERN, minLength: 2, maxLength, description });

/** Most entries one page of a paged list may hold. */
export const PAGE_LIMIT_MAX = 1000;
/** An opaque cursor from a previous page's `nextCursor`. */
export const CursorSchema = Type.String({ pattern: '^[A-Za-z0-9_-]{1,400}$', maxLength: 400 });

/**
 * Optional paging of a list. Without `limit` the whole list comes at once (as the spec's call does);
 * with it, at most `limit` entries and, when more follow, a `nextCursor` to pass as `cursor`.
 */
export const PageQuerySchema = apiObject(
  'PageQuery',
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: PAGE_LIMIT_MAX, description: 'Entries per page (paged call).' }),
    ),
    cursor: Type.Optional(CursorSchema),
  },
  'Optional paging: limit and cursor.',
);
export type PageQuery = Static<typeof PageQuerySchema>;
