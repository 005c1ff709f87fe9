import { base64ToBytes, bytesToBase64 } from './base64.codec.js';
import { hexToBytes } from './bytes.util.js';
import { encodeSignedMessage, type SignedField, type SignedLabel } from './signed-message.encoding.js';
import { canonicalEmail, FieldReader, parseObject } from './signed-record.util.js';
import { signBytes } from './signing-key.pair.js';

/**
 * How a member of a signed record is checked when parsed and encoded in the signed bytes:
 * - `text`: any string; UTF-8.
 * - `email`: a canonical email ({@link canonicalEmail}, applied when signing); UTF-8.
 * - `integer`: a non-negative safe integer; u64.
 * - `sha256Hex`: 64 lowercase hex digits; the 32 bytes.
 * - `optionalSha256Hex`: the same, or '' for none; 32 bytes, or 0.
 * - `iso`: an ISO 8601 UTC timestamp in `Date#toISOString` form; u64 milliseconds since 1970.
 * - `base64`: standard base64; the bytes it encodes.
 */
export type SignedMemberKind =
  'text' | 'email' | 'integer' | 'sha256Hex' | 'optionalSha256Hex' | 'iso' | 'base64';

/** The members every signed record has around what it states. */
export interface SignedEnvelope {
  /** The record's format version: 1, or a later one a type declares (`version`). */
  v: number;
  type: string;
  signatureB64: string;
}

/** What a record states: everything but the envelope. */
export type SignedStatement<T extends SignedEnvelope> = Omit<T, keyof SignedEnvelope>;

/** A kind for each stated member; numbers are integers, strings anything else. */
export type SignedMembers<T extends SignedEnvelope> = {
  readonly [K in keyof SignedStatement<T>]-?: SignedStatement<T>[K] extends number
    ? 'integer'
    : Exclude<SignedMemberKind, 'integer'>;
};

/** What a record type declares: the rest (parse, signed bytes, signing) follows from it. */
export interface SignedRecordDefinition<T extends SignedEnvelope> {
  /** The `type` member. */
  type: T['type'];
  /**
   * The `v` member (default 1). A new version of a type is its own declaration with its own label, so
   * a signature on one version never verifies as another (the signed bytes do not carry `v`).
   */
  version?: T['v'];
  /** Domain separation: the record type's own label. */
  label: SignedLabel;
  /** As reasons name it: "file manifest", "share grant", "key binding". */
  name: string;
  /**
   * The stated members IN WIRE ORDER: the JSON text has `v`, `type`, these, `signatureB64`, and
   * the signed bytes are the label and these, each encoded as its kind says.
   */
  members: SignedMembers<T>;
  /** Rules beyond each member's kind (e.g. a positive chunk size); a parsed record must pass them. */
  check?: (record: T) => boolean;
}

/** A signed record type: everything the records of {@link defineSignedRecord} share. */
export interface SignedRecordKind<T extends SignedEnvelope> {
  name: string;
  /** Strict parse of the record's JSON text (exactly its members, each of its kind); null when it is not one. */
  parse: (json: string) => T | null;
  /** The bytes the signature covers. */
  message: (record: SignedStatement<T>) => Uint8Array<ArrayBuffer>;
  /** Signs a statement (emails canonicalized); returns the record's JSON text, members in wire order. */
  sign: (statement: SignedStatement<T>, signingPrivateKey: CryptoKey) => Promise<string>;
}

/**
 * Declares a signed record type: a new record is its interface, a label in `SIGNED_LABELS` and
 *
 * ```ts
 * const FOLDER_KEY = defineSignedRecord<FolderKey>({
 *   type: 'folder-key', label: SIGNED_LABELS.folderKey, name: 'folder key',
 *   members: { folderId: 'text', wrappedKeyB64: 'base64', signedAt: 'iso' },
 * });
 * ```
 *
 * Checking a record against what the server serves beside it stays with each type:
 * `verifySignedRecord(json, FOLDER_KEY, keyB64, keyName)`, then `comparedFields({ … })`.
 */
export function defineSignedRecord<T extends SignedEnvelope>(
  definition: SignedRecordDefinition<T>,
): SignedRecordKind<T> {
  const { type, label, check } = definition;
  const version = definition.version ?? 1;
  // The mapped type only constrains the declaration; at run time it is a list of kinds by name.
  const members = Object.entries(definition.members as Record<string, SignedMemberKind>);
  const memberNames = ['v', 'type', ...members.map(([name]) => name), 'signatureB64'];

  const message = (record: SignedStatement<T>): Uint8Array<ArrayBuffer> => {
    const values = record as Record<string, unknown>;
    return encodeSignedMessage(
      label,
      members.map(([name, kind]) => signedField(kind, values[name])),
    );
  };

  const parse = (json: string): T | null => {
    const object = parseObject(json);
    if (object === null) return null;
    const read = new FieldReader(object);
    read.onlyMembers(memberNames);
    const record: Record<string, unknown> = { v: version, type };
    for (const [name, kind] of members) record[name] = readMember(read, name, kind);
    record.signatureB64 = read.text('signatureB64');
    read.base64('signatureB64');
    if (!read.ok || object.v !== version || object.type !== type) return null;
    // Every member was read as its kind, and the kinds follow T's members: this is a T.
    const parsed = record as T;
    return check === undefined || check(parsed) ? parsed : null;
  };

  const sign = async (statement: SignedStatement<T>, signingPrivateKey: CryptoKey): Promise<string> => {
    const values = statement as Record<string, unknown>;
    const unsigned: Record<string, unknown> = { v: version, type };
    for (const [name, kind] of members) {
      const value = values[name];
      unsigned[name] = kind === 'email' && typeof value === 'string' ? canonicalEmail(value) : value;
    }
    const signature = await signBytes(signingPrivateKey, message(unsigned as SignedStatement<T>));
    return JSON.stringify({ ...unsigned, signatureB64: bytesToBase64(signature) });
  };

  return { name: definition.name, parse, message, sign };
}

function readMember(read: FieldReader, name: string, kind: SignedMemberKind): string | number {
  switch (kind) {
    case 'text':
      return read.text(name);
    case 'email':
      return read.email(name);
    case 'integer':
      return read.integer(name);
    case 'sha256Hex':
      return read.sha256Hex(name);
    case 'optionalSha256Hex':
      return read.sha256Hex(name, true);
    case 'iso':
      read.iso(name);
      return read.text(name);
    case 'base64':
      read.base64(name);
      return read.text(name);
  }
}

// The declaration ties each kind to a member's type (integers are numbers, the rest strings).
function signedField(kind: SignedMemberKind, value: unknown): SignedField {
  switch (kind) {
    case 'text':
    case 'email':
      return value as string;
    case 'integer':
      return value as number;
    case 'sha256Hex':
    case 'optionalSha256Hex':
      return hexToBytes(value as string);
    case 'iso':
      return Date.parse(value as string);
    case 'base64':
      return base64ToBytes(value as string);
  }
}
