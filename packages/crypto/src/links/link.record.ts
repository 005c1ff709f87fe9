import { InvalidArgumentError } from '../crypto.errors.js';
import { isNodeId } from '../drive/node-place.js';
import { SIGNED_LABELS } from '../signed-message.encoding.js';
import { defineSignedRecord, type SignedStatement } from '../signed-record.kind.js';
import { canonicalEmail, msFromIso, sha256HexOfB64, type SignatureCheck } from '../signed-record.util.js';
import { comparedFields, verifySignedRecord } from '../signed-record.verify.js';
import { isLinkId } from './link-secret.fragment.js';

/**
 * A link record: what the owner signs when making (or changing) a share link, so that a server
 * that serves another file under the link, or other settings, is caught. Travels as the JSON text
 * `linkRecord`, members in this order.
 */
export interface LinkRecord {
  v: 1;
  type: 'link';
  linkId: string;
  /** Canonical (lower-case) email of the owner. */
  ownerEmail: string;
  /** The granted files: `<fileId>:<SHA-256 hex of its wrappedKey bytes>`, joined by `,`, in the link's order. */
  items: string;
  /** ISO 8601 UTC, or '' for a link that never expires. */
  expiresAt: string;
  /** 0 for no limit. */
  maxDownloads: number;
  /** ISO 8601 UTC (`Date#toISOString`). */
  signedAt: string;
  signatureB64: string;
}

/** What the owner signs and what a recipient compares with what the server serves. */
export interface LinkRecordFields {
  linkId: string;
  ownerEmail: string;
  items: readonly { fileId: string; wrappedKeyB64: string }[];
  /** ISO 8601 UTC, or null for never. */
  expiresAt: string | null;
  /** null for no limit. */
  maxDownloads: number | null;
}

const ITEM = /^([0-9a-f-]{36}):([0-9a-f]{64})$/;

/** The record's items as `fileId → wrapped key hash`, or null when the member is malformed. */
function parseItems(items: string): Map<string, string> | null {
  const parsed = new Map<string, string>();
  for (const entry of items.split(',')) {
    const match = ITEM.exec(entry);
    if (match === null || !isNodeId(match[1] ?? '') || parsed.has(match[1] ?? '')) return null;
    parsed.set(match[1] ?? '', match[2] ?? '');
  }
  return parsed;
}

const LINK_RECORD = defineSignedRecord<LinkRecord>({
  type: 'link',
  label: SIGNED_LABELS.link,
  name: 'link record',
  members: {
    linkId: 'text',
    ownerEmail: 'email',
    items: 'text',
    expiresAt: 'text',
    maxDownloads: 'integer',
    signedAt: 'iso',
  },
  check: (record) =>
    isLinkId(record.linkId) &&
    parseItems(record.items) !== null &&
    (record.expiresAt === '' || msFromIso(record.expiresAt) !== null),
});

/**
 * The signed bytes: label `coffer-v2/link`, then linkId, ownerEmail, items, expiresAt (UTF-8),
 * maxDownloads (u64) and signedAt (u64 ms).
 */
export const linkRecordMessage = LINK_RECORD.message;

/** Parses a link record's JSON text strictly; null when it is not one. */
export const parseLinkRecord = LINK_RECORD.parse;

/** Signs a link record with the owner's signing key (new link, new expiry or limit). Returns its JSON text. */
export async function signLinkRecord(
  fields: LinkRecordFields,
  signingPrivateKey: CryptoKey,
  signedAt: Date = new Date(),
): Promise<string> {
  const statement: SignedStatement<LinkRecord> = {
    linkId: fields.linkId,
    ownerEmail: fields.ownerEmail,
    items: await itemsMember(fields.items),
    expiresAt: fields.expiresAt ?? '',
    maxDownloads: fields.maxDownloads ?? 0,
    signedAt: signedAt.toISOString(),
  };
  const json = await LINK_RECORD.sign(statement, signingPrivateKey);
  if (parseLinkRecord(json) === null) {
    throw new InvalidArgumentError('not a valid link: check its id, files, expiry and limit');
  }
  return json;
}

/**
 * Signs a link's record again with a new expiry and limit, keeping everything else of the old one
 * (link id, owner, and its items: file ids with their wrapped-key hashes, which the owner's list
 * does not carry as keys). The old record must verify with the owner's own signing public key first,
 * and name this link, so a server cannot slip other items into what the owner signs. Returns the new JSON text.
 */
export async function resignLinkRecord(
  oldRecordJson: string,
  changes: Pick<LinkRecordFields, 'linkId' | 'expiresAt' | 'maxDownloads'>,
  ownerSigningPublicKeyB64: string,
  signingPrivateKey: CryptoKey,
  signedAt: Date = new Date(),
): Promise<string> {
  const verified = await verifySignedRecord(
    oldRecordJson,
    LINK_RECORD,
    ownerSigningPublicKeyB64,
    'my signing key',
  );
  if (!verified.ok || verified.record.linkId !== changes.linkId) {
    throw new InvalidArgumentError('the link record to change is not one I signed for this link');
  }
  const statement: SignedStatement<LinkRecord> = {
    linkId: verified.record.linkId,
    ownerEmail: verified.record.ownerEmail,
    items: verified.record.items,
    expiresAt: changes.expiresAt ?? '',
    maxDownloads: changes.maxDownloads ?? 0,
    signedAt: signedAt.toISOString(),
  };
  const json = await LINK_RECORD.sign(statement, signingPrivateKey);
  if (parseLinkRecord(json) === null) {
    throw new InvalidArgumentError('not a valid link: check its expiry and limit');
  }
  return json;
}

/**
 * Verifies a served link record with the owner's signing public key, then compares it with what
 * the server serves: link id, owner, expiry, limit, and each served item (its file id must be in
 * the record with the same wrapped key). Items may be fewer than signed (a file the owner deleted
 * since), never other or more. `unsigned` without a record: never `valid`.
 */
export async function verifyLinkRecord(
  linkRecordJson: string | undefined,
  served: LinkRecordFields,
  ownerSigningPublicKeyB64: string,
): Promise<SignatureCheck> {
  const verified = await verifySignedRecord(
    linkRecordJson,
    LINK_RECORD,
    ownerSigningPublicKeyB64,
    "the owner's signing key",
  );
  if (!verified.ok) return verified.check;
  const record = verified.record;
  const granted = parseItems(record.items) ?? new Map<string, string>();
  let itemsMatch = served.items.length > 0;
  for (const item of served.items) {
    const hash = await sha256HexOfB64(item.wrappedKeyB64);
    if (hash === null || granted.get(item.fileId) !== hash) itemsMatch = false;
  }
  return comparedFields({
    linkId: record.linkId === served.linkId,
    ownerEmail: record.ownerEmail === canonicalEmail(served.ownerEmail),
    items: itemsMatch,
    expiresAt: record.expiresAt === (served.expiresAt ?? ''),
    maxDownloads: record.maxDownloads === (served.maxDownloads ?? 0),
  });
}

async function itemsMember(items: LinkRecordFields['items']): Promise<string> {
  if (items.length === 0) throw new InvalidArgumentError('a link grants at least one file');
  const entries: string[] = [];
  for (const item of items) {
    const hash = await sha256HexOfB64(item.wrappedKeyB64);
    if (hash === null) throw new InvalidArgumentError('a wrapped key must be base64');
    entries.push(`${item.fileId}:${hash}`);
  }
  return entries.join(',');
}
