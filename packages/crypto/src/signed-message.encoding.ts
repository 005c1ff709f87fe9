import { assertNonNegativeInteger, concatBytes, utf8Bytes } from './bytes.util.js';
import { InvalidArgumentError } from './crypto.errors.js';

/**
 * A field of a signed message: text (encoded as UTF-8, exactly as given), a non-negative integer
 * (8 bytes, unsigned big-endian) or raw bytes. Each record type fixes its fields' order and kinds.
 */
export type SignedField = string | number | Uint8Array;

/** Domain-separation labels: one per record type, versioned. */
export const SIGNED_LABELS = {
  keyBinding: 'coffer-v1/key-binding',
  fileManifest: 'coffer-v1/file-manifest',
  fileManifestV2: 'coffer-v2/file-manifest',
  shareGrant: 'coffer-v1/share-grant',
  pinSet: 'coffer-v1/pin-set',
  node: 'coffer-v2/node',
  folderGrant: 'coffer-v2/folder-grant',
  driveKey: 'coffer-v2/drive-key',
  link: 'coffer-v2/link',
} as const;

export type SignedLabel = (typeof SIGNED_LABELS)[keyof typeof SIGNED_LABELS];

/**
 * The exact bytes a signature covers:
 *
 * ```
 * u8 len(label) || label (ASCII) || u32 count || for each field: u32 len(bytes) || bytes
 * ```
 *
 * (all integers big-endian). The label separates record types, so a signature on one type never
 * verifies as another; the count and the length prefixes make the encoding injective, so no two
 * different field lists produce the same bytes (no delimiter or escaping games).
 */
export function encodeSignedMessage(
  label: SignedLabel,
  fields: readonly SignedField[],
): Uint8Array<ArrayBuffer> {
  const labelBytes = utf8Bytes(label);
  if (labelBytes.length > 255) throw new InvalidArgumentError('label too long');
  const parts: Uint8Array[] = [Uint8Array.of(labelBytes.length), labelBytes, uint32(fields.length)];
  for (const field of fields) {
    const bytes = fieldBytes(field);
    parts.push(uint32(bytes.length), bytes);
  }
  return concatBytes(parts);
}

function fieldBytes(field: SignedField): Uint8Array {
  if (typeof field === 'string') return utf8Bytes(field);
  if (typeof field === 'number') return uint64(field);
  return field;
}

function uint32(value: number): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value > 0xffff_ffff) {
    throw new InvalidArgumentError('field too long');
  }
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value, false);
  return out;
}

function uint64(value: number): Uint8Array {
  assertNonNegativeInteger(value, 'signed integer field');
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(value), false);
  return out;
}
