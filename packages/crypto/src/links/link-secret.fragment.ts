import { base64ToBytes, bytesToBase64 } from '../base64.codec.js';
import { LinkFragmentError } from '../crypto.errors.js';

/** A link secret `S` is 32 random bytes; it lives only in the URL fragment. */
export const LINK_SECRET_LENGTH = 32;

/** Link and request ids: 16 random bytes as base64url, 22 characters. */
export const LINK_ID_LENGTH = 22;

const BASE64URL = /^[A-Za-z0-9_-]*$/;
const LINK_ID = /^[A-Za-z0-9_-]{22}$/;
const HEX_64 = /^[0-9a-f]{64}$/;

/** A new link secret: 32 random bytes. */
export function createLinkSecret(): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(LINK_SECRET_LENGTH));
}

/** A new link or request id: 16 random bytes, base64url (22 characters). */
export function createLinkId(): string {
  return bytesToBase64Url(crypto.getRandomValues(new Uint8Array(16)));
}

/** True for a link or request id as {@link createLinkId} makes them. */
export function isLinkId(value: string): boolean {
  if (!LINK_ID.test(value)) return false;
  // 22 characters carry 132 bits: the last one must leave the 4 spare bits at zero (canonical).
  try {
    return bytesToBase64Url(base64UrlToBytes(value)) === value;
  } catch {
    return false;
  }
}

/** base64url (RFC 4648 §5) without padding. */
export function bytesToBase64Url(bytes: Uint8Array): string {
  return bytesToBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Strict base64url without padding: only the URL-safe alphabet, canonical (the spare bits of the
 * last character zero), so one byte string has exactly one text form.
 * @throws {LinkFragmentError}
 */
export function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  if (!BASE64URL.test(text) || text.length % 4 === 1) throw new LinkFragmentError('not base64url');
  const standard = text.replace(/-/g, '+').replace(/_/g, '/');
  try {
    return base64ToBytes(standard + '='.repeat((4 - (standard.length % 4)) % 4));
  } catch (cause) {
    throw new LinkFragmentError('not canonical base64url', { cause });
  }
}

/**
 * What a share link's fragment carries: the secret, and (links made since the pin, issue 30) the
 * SHA-256 of the owner's signing key (SPKI), which the recipient's page holds the served key to.
 */
export interface LinkFragment {
  secretBytes: Uint8Array<ArrayBuffer>;
  /** 64 lower-case hex digits; null for a link made before the pin (`#<S>` only). */
  ownerSigningKeySha256Hex: string | null;
}

/**
 * A share link's fragment (without `#`): `<S base64url>.<owner signing key SHA-256 hex>`, or the
 * secret alone (43 characters) without a signing key hash (links from before the pin; tests).
 */
export function encodeLinkFragment(secretBytes: Uint8Array, ownerSigningKeySha256Hex?: string): string {
  assertSecretLength(secretBytes.length);
  if (ownerSigningKeySha256Hex === undefined) return bytesToBase64Url(secretBytes);
  return encodeSecretAndHash(secretBytes, ownerSigningKeySha256Hex);
}

/**
 * Reads a share link's fragment (a leading `#` is allowed): a secret alone, or a secret, a dot and
 * the owner's signing key hash.
 * @throws {LinkFragmentError} anything but exactly that, in canonical base64url and lower-case hex.
 */
export function parseLinkFragment(fragment: string): LinkFragment {
  const text = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  if (!text.includes('.')) {
    const secretBytes = base64UrlToBytes(text);
    assertSecretLength(secretBytes.length);
    return { secretBytes, ownerSigningKeySha256Hex: null };
  }
  const { secretBytes, sha256Hex } = parseSecretAndHash(text);
  return { secretBytes, ownerSigningKeySha256Hex: sha256Hex };
}

/** What a file request's fragment carries: the secret and the owner's RSA key fingerprint. */
export interface RequestFragment {
  secretBytes: Uint8Array<ArrayBuffer>;
  /** SHA-256 of the owner's RSA SPKI, 64 lower-case hex digits. */
  ownerKeySha256Hex: string;
}

/** A file request's fragment (without `#`): `<S base64url>.<owner key SHA-256 hex>`. */
export function encodeRequestFragment(secretBytes: Uint8Array, ownerKeySha256Hex: string): string {
  assertSecretLength(secretBytes.length);
  return encodeSecretAndHash(secretBytes, ownerKeySha256Hex);
}

/**
 * Reads a file request's fragment (a leading `#` is allowed).
 * @throws {LinkFragmentError} not exactly a secret, a dot and 64 lower-case hex digits.
 */
export function parseRequestFragment(fragment: string): RequestFragment {
  const { secretBytes, sha256Hex } = parseSecretAndHash(
    fragment.startsWith('#') ? fragment.slice(1) : fragment,
  );
  return { secretBytes, ownerKeySha256Hex: sha256Hex };
}

/** `<S base64url>.<64 hex>`: a request's fragment, and a share link's with its signing key pin. */
function encodeSecretAndHash(secretBytes: Uint8Array, sha256Hex: string): string {
  if (!HEX_64.test(sha256Hex)) throw new LinkFragmentError('the key hash must be 64 lower-case hex digits');
  return `${bytesToBase64Url(secretBytes)}.${sha256Hex}`;
}

function parseSecretAndHash(text: string): { secretBytes: Uint8Array<ArrayBuffer>; sha256Hex: string } {
  const parts = text.split('.');
  if (parts.length !== 2) throw new LinkFragmentError('the fragment is a secret and a key fingerprint');
  const [secretText = '', sha256Hex = ''] = parts;
  if (!HEX_64.test(sha256Hex)) throw new LinkFragmentError('the key fingerprint is not 64 hex digits');
  const secretBytes = base64UrlToBytes(secretText);
  assertSecretLength(secretBytes.length);
  return { secretBytes, sha256Hex };
}

function assertSecretLength(length: number): void {
  if (length !== LINK_SECRET_LENGTH)
    throw new LinkFragmentError(`a link secret is ${LINK_SECRET_LENGTH} bytes`);
}
