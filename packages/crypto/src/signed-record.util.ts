import { base64ToBytes } from './base64.codec.js';
import { bytesToHex, toBufferSource } from './bytes.util.js';

/** How a signed record checked out. Field names in `mismatch` are the record's JSON members. */
export type SignatureCheck =
  | { status: 'valid' }
  /** No record at all: data from before signing keys existed (or stripped by the server). */
  | { status: 'unsigned' }
  /** The record is malformed, or its signature does not verify with the signer's key. */
  | { status: 'invalid-signature'; reason: string }
  /** Genuinely signed, but what the server serves beside it differs in these fields. */
  | { status: 'mismatch'; fields: string[] };

/** The canonical form of an email address in signed records and pins: lower case, as given otherwise. */
export function canonicalEmail(email: string): string {
  return email.toLowerCase();
}

/** SHA-256 of bytes. */
export async function sha256(bytes: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', toBufferSource(bytes)));
}

/** Lowercase hex SHA-256 of the bytes a base64 string encodes, or null if it is not base64. */
export async function sha256HexOfB64(base64: string): Promise<string | null> {
  let bytes: Uint8Array;
  try {
    bytes = base64ToBytes(base64);
  } catch {
    return null;
  }
  return bytesToHex(await sha256(bytes));
}

/** Milliseconds of a canonical ISO 8601 UTC timestamp (`Date#toISOString` form), or null. */
export function msFromIso(iso: string): number | null {
  const ms = Date.parse(iso);
  if (!Number.isSafeInteger(ms) || ms < 0 || new Date(ms).toISOString() !== iso) return null;
  return ms;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses JSON text to an object, or null. */
export function parseObject(json: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(json);
    return isPlainObject(value) ? value : null;
  } catch {
    return null;
  }
}

const HEX_64 = /^[0-9a-f]{64}$/;

/** Typed reads of a record's members; `ok` turns false on the first wrong one. */
export class FieldReader {
  ok = true;

  constructor(private readonly object: Record<string, unknown>) {}

  text(name: string): string {
    const value = this.object[name];
    if (typeof value === 'string') return value;
    this.ok = false;
    return '';
  }

  /** A canonical email ({@link canonicalEmail}): signed records never hold another form. */
  email(name: string): string {
    const value = this.text(name);
    if (value !== canonicalEmail(value)) this.ok = false;
    return value;
  }

  integer(name: string): number {
    const value = this.object[name];
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
    this.ok = false;
    return 0;
  }

  sha256Hex(name: string, optional = false): string {
    const value = this.object[name];
    if (optional && value === '') return '';
    if (typeof value === 'string' && HEX_64.test(value)) return value;
    this.ok = false;
    return '';
  }

  base64(name: string): Uint8Array {
    try {
      return base64ToBytes(this.text(name));
    } catch {
      this.ok = false;
      return new Uint8Array(0);
    }
  }

  iso(name: string): number {
    const ms = msFromIso(this.text(name));
    if (ms !== null) return ms;
    this.ok = false;
    return 0;
  }

  /** Exactly these members, no others: a record with extra members is not one we signed. */
  onlyMembers(names: readonly string[]): void {
    const keys = Object.keys(this.object);
    if (keys.length !== names.length || !keys.every((key) => names.includes(key))) this.ok = false;
  }
}
