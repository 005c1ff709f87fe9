import { toBufferSource } from '../bytes.util.js';
import { InvalidArgumentError } from '../crypto.errors.js';
import { assertFileKey } from '../file-key.wrap.js';
import { blockToField, gfInverse, gfMultiply, type FieldElement } from './gf128.field.js';
import { lengthBlock, preCounterBlock } from './ghash.math.js';

/** What a streaming sealer or opener knows about one (key, IV) pair. Never leaves this room. */
export interface ChunkSecrets {
  /** The hash key H = E_K(0^128). */
  h: FieldElement;
  /** H^(−2), to turn a wanted pre-counter block into the 16-byte IV′ that yields it. */
  hInverseSquared: FieldElement;
  /** J0 of the chunk's IV. */
  j0: FieldElement;
  /** E_K(J0): the mask GCM puts over the hash to make the tag. */
  tagMask: FieldElement;
}

/** The largest GCM plaintext: 2^32 − 2 counter blocks of 16 bytes (SP 800-38D, section 5.2.1.1). */
export const MAX_GCM_PLAIN_LENGTH = 2 ** 36 - 32;

const EMPTY = new Uint8Array(0);
/** L = [128]_64 ‖ [0]_64: the length block of a hash over one block of AAD and no ciphertext. */
const ONE_AAD_BLOCK_LENGTHS = lengthBlock(16, 0);
let oneAadBlockLengthsInverse: FieldElement | undefined;

/** H and H^(−2) per key: the same for every IV, and the inversion is the costly step (~20 ms). */
interface HashKey {
  h: FieldElement;
  hInverseSquared: FieldElement;
}
const hashKeys = new WeakMap<CryptoKey, Promise<HashKey>>();

/** One AES-GCM encryption through WebCrypto, the only primitive this room uses. */
export async function gcmEncrypt(
  key: CryptoKey,
  ivBytes: Uint8Array,
  plainBytes: Uint8Array,
  aadBytes?: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  const params: AesGcmParams = { name: 'AES-GCM', iv: toBufferSource(ivBytes) };
  if (aadBytes !== undefined) params.additionalData = toBufferSource(aadBytes);
  return new Uint8Array(await crypto.subtle.encrypt(params, key, toBufferSource(plainBytes)));
}

/**
 * Learns E_K(J0) and, once per key, H from two GMAC calls on empty messages under the chunk's own IV, so no
 * counter block is encrypted that the genuine encryption does not encrypt too:
 * - encrypting nothing with no AAD gives the tag E_K(J0) ⊕ GHASH(0^128 length block) = E_K(J0);
 * - encrypting nothing with 16 zero bytes of AAD gives E_K(J0) ⊕ L·H, so H = (t ⊕ E_K(J0))·L^(−1).
 */
export async function deriveChunkSecrets(key: CryptoKey, ivBytes: Uint8Array): Promise<ChunkSecrets> {
  assertFileKey(key);
  // GCM allows shorter IVs, but some engines (Node's) refuse them; coffer-v1 uses 12 bytes.
  if (ivBytes.length < 12) throw new InvalidArgumentError('iv must be at least 12 bytes');
  const iv = new Uint8Array(ivBytes);
  const maskTag = gcmEncrypt(key, iv, EMPTY);
  let hashKey = hashKeys.get(key);
  if (hashKey === undefined) {
    hashKey = deriveHashKey(key, iv, maskTag);
    hashKeys.set(key, hashKey);
    // A failed derivation is not remembered: the next chunk tries again.
    hashKey.catch(() => hashKeys.delete(key));
  }
  const [tagMask, { h, hInverseSquared }] = await Promise.all([
    maskTag.then((tag) => blockToField(tag)),
    hashKey,
  ]);
  return { h, hInverseSquared, j0: preCounterBlock(h, iv), tagMask };
}

async function deriveHashKey(key: CryptoKey, iv: Uint8Array, maskTag: Promise<Uint8Array>): Promise<HashKey> {
  const [mask, oneBlockTag] = await Promise.all([maskTag, gcmEncrypt(key, iv, EMPTY, new Uint8Array(16))]);
  oneAadBlockLengthsInverse ??= gfInverse(ONE_AAD_BLOCK_LENGTHS);
  const h = gfMultiply(blockToField(oneBlockTag) ^ blockToField(mask), oneAadBlockLengthsInverse);
  if (h === 0n) throw new InvalidArgumentError('the key has a zero hash key'); // probability 2^-128
  return { h, hInverseSquared: gfInverse(gfMultiply(h, h)) };
}
