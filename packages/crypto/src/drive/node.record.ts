import { InvalidArgumentError } from '../crypto.errors.js';
import { fileManifestSha256Hex, parseFileManifest } from '../file-manifest.record.js';
import { SIGNED_LABELS } from '../signed-message.encoding.js';
import { defineSignedRecord, type SignedStatement } from '../signed-record.kind.js';
import { canonicalEmail, sha256HexOfB64, type SignatureCheck } from '../signed-record.util.js';
import { comparedFields, verifySignedRecord } from '../signed-record.verify.js';
import { isNodeId, isParentNodeId, NODE_KINDS, type NodeKind } from './node-place.js';

/**
 * A node record: what the owner signs about every file and folder in their drive, so that a
 * server that moves, renames, swaps or injects nodes is caught. Travels as the JSON text
 * `nodeRecord` with the node, members in this order.
 */
export interface NodeRecord {
  v: 1;
  type: 'node';
  /** Canonical (lower-case) email of the drive's owner. */
  ownerEmail: string;
  nodeId: string;
  /** The parent folder's node id, or `drive` at the top. */
  parentNodeId: string;
  kind: NodeKind;
  /** Lowercase hex SHA-256 of the node's `wrappedKey` bytes (its key wrapped under the parent). */
  wrappedKeySha256Hex: string;
  /** Lowercase hex SHA-256 of the node's `encryptedMetadata` bytes. */
  metadataSha256Hex: string;
  /** Files: SHA-256 of the file manifest's signed bytes, '' for a file without one; folders: ''. */
  manifestSha256Hex: string;
  /** ISO 8601 UTC (`Date#toISOString`). */
  signedAt: string;
  signatureB64: string;
}

/** What the owner knows when signing; also what a reader compares a record with (as served). */
export interface NodeRecordFields {
  ownerEmail: string;
  nodeId: string;
  parentNodeId: string;
  kind: NodeKind;
  /** The node's `wrappedKey` (base64). */
  wrappedKeyB64: string;
  /** The node's `encryptedMetadata` (base64). */
  encryptedMetadataB64: string;
  /** A file's `manifestJson`, if it has one; never for a folder. */
  manifestJson?: string | undefined;
}

const NODE_RECORD = defineSignedRecord<NodeRecord>({
  type: 'node',
  label: SIGNED_LABELS.node,
  name: 'node record',
  members: {
    ownerEmail: 'email',
    nodeId: 'text',
    parentNodeId: 'text',
    kind: 'text',
    wrappedKeySha256Hex: 'sha256Hex',
    metadataSha256Hex: 'sha256Hex',
    manifestSha256Hex: 'optionalSha256Hex',
    signedAt: 'iso',
  },
  check: (record) =>
    NODE_KINDS.includes(record.kind) &&
    isNodeId(record.nodeId) &&
    isParentNodeId(record.parentNodeId) &&
    record.nodeId !== record.parentNodeId &&
    (record.kind === 'file' || record.manifestSha256Hex === ''),
});

/**
 * The signed bytes: label `coffer-v2/node`, then ownerEmail, nodeId, parentNodeId, kind (UTF-8),
 * the wrapped key's and the metadata's SHA-256 (32 bytes each), the manifest's SHA-256 (32 bytes,
 * or 0 bytes for none) and signedAt (u64 ms).
 */
export const nodeRecordMessage = NODE_RECORD.message;

/** Parses a node record's JSON text strictly; null when it is not one. */
export const parseNodeRecord = NODE_RECORD.parse;

/** Signs a node record with the owner's signing key (create, rename, move, migrate). Returns its JSON text. */
export async function signNodeRecord(
  fields: NodeRecordFields,
  signingPrivateKey: CryptoKey,
  signedAt: Date = new Date(),
): Promise<string> {
  const wrappedKeySha256Hex = await sha256HexOfB64(fields.wrappedKeyB64);
  const metadataSha256Hex = await sha256HexOfB64(fields.encryptedMetadataB64);
  if (wrappedKeySha256Hex === null || metadataSha256Hex === null) {
    throw new InvalidArgumentError('the wrapped key and the metadata must be base64');
  }
  if (fields.kind === 'folder' && fields.manifestJson !== undefined) {
    throw new InvalidArgumentError('a folder has no manifest');
  }
  const statement: SignedStatement<NodeRecord> = {
    ownerEmail: fields.ownerEmail,
    nodeId: fields.nodeId,
    parentNodeId: fields.parentNodeId,
    kind: fields.kind,
    wrappedKeySha256Hex,
    metadataSha256Hex,
    manifestSha256Hex: await manifestHash(fields.manifestJson),
    signedAt: signedAt.toISOString(),
  };
  const json = await NODE_RECORD.sign(statement, signingPrivateKey);
  // Refuse to hand out a record every reader would refuse (a bad id or kind).
  if (parseNodeRecord(json) === null)
    throw new InvalidArgumentError('not a valid node: check its ids and kind');
  return json;
}

/**
 * Verifies a served node record with the owner's signing public key, then compares it with the
 * node as served: owner, node id, parent, kind, wrapped key, metadata and manifest. `unsigned`
 * for a node without a record: never `valid`, so an injected node is never opened as genuine.
 */
export async function verifyNodeRecord(
  nodeRecordJson: string | undefined,
  served: NodeRecordFields,
  ownerSigningPublicKeyB64: string,
): Promise<SignatureCheck> {
  const verified = await verifySignedRecord(
    nodeRecordJson,
    NODE_RECORD,
    ownerSigningPublicKeyB64,
    "the owner's signing key",
  );
  if (!verified.ok) return verified.check;
  const record = verified.record;
  return comparedFields({
    ownerEmail: record.ownerEmail === canonicalEmail(served.ownerEmail),
    nodeId: record.nodeId === served.nodeId,
    parentNodeId: record.parentNodeId === served.parentNodeId,
    kind: record.kind === served.kind,
    wrappedKeySha256Hex: record.wrappedKeySha256Hex === (await sha256HexOfB64(served.wrappedKeyB64)),
    metadataSha256Hex: record.metadataSha256Hex === (await sha256HexOfB64(served.encryptedMetadataB64)),
    manifestSha256Hex:
      record.manifestSha256Hex === (await manifestHash(served.manifestJson).catch(() => null)),
  });
}

/** '' without a manifest, else the hash of its signed bytes. */
async function manifestHash(manifestJson: string | undefined): Promise<string> {
  if (manifestJson === undefined) return '';
  const manifest = parseFileManifest(manifestJson);
  if (manifest === null) throw new InvalidArgumentError('the file manifest is malformed');
  return fileManifestSha256Hex(manifest);
}
