import { concatBytes } from '../bytes.util.js';
import { createChunkSealer } from './chunk.sealer.js';

/** Helpers for the streaming GCM tests (test-only; not exported by the package). */

export const importKey = (raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> =>
  crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);

export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let offset = 0; offset < length; offset += 65_536) {
    crypto.getRandomValues(bytes.subarray(offset, Math.min(length, offset + 65_536)));
  }
  return bytes;
}

/** One-shot WebCrypto AES-GCM: ciphertext ‖ tag. */
export async function oneShotSeal(
  key: CryptoKey,
  iv: Uint8Array<ArrayBuffer>,
  aad: Uint8Array<ArrayBuffer>,
  plain: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad }, key, plain),
  );
}

/** Lengths of `slice`-byte slices covering `total` bytes (one empty slice for 0). */
export function sliceLengths(total: number, slice: number): number[] {
  if (total === 0) return [0];
  const lengths: number[] = [];
  for (let offset = 0; offset < total; offset += slice) lengths.push(Math.min(slice, total - offset));
  return lengths;
}

/** Views of `bytes` cut at `lengths`. */
export function cut(bytes: Uint8Array, lengths: readonly number[]): Uint8Array[] {
  const slices: Uint8Array[] = [];
  let offset = 0;
  for (const length of lengths) {
    slices.push(bytes.subarray(offset, offset + length));
    offset += length;
  }
  return slices;
}

/** Seals `plain` with a streaming sealer, slice by slice, and concatenates the outputs. */
export async function sealInSlices(
  key: CryptoKey,
  iv: Uint8Array,
  aad: Uint8Array,
  plain: Uint8Array,
  lengths: readonly number[],
): Promise<Uint8Array<ArrayBuffer>> {
  const sealer = await createChunkSealer(key, iv, aad, plain.length);
  const outputs: Uint8Array[] = [];
  for (const slice of cut(plain, lengths)) outputs.push(await sealer.sealSlice(slice));
  return concatBytes(outputs);
}

/**
 * Where two byte arrays first differ (their common length if one is a prefix), or −1 when equal.
 * Vitest's deep equality walks large typed arrays element by element, far too slowly for MiBs.
 */
export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : length;
}
