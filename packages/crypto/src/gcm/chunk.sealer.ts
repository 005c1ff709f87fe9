import { assertBytes } from '../bytes.util.js';
import { InvalidArgumentError } from '../crypto.errors.js';
import { blockToField, fieldToBlock, type FieldElement } from './gf128.field.js';
import { deriveChunkSecrets, gcmEncrypt, type ChunkSecrets } from './gcm-secrets.derive.js';
import { GhashChain } from './ghash.chain.js';
import { incrementCounter, ivForPreCounter, lengthBlock } from './ghash.math.js';
import { SlicePlan } from './slice.plan.js';
import { TAG_LENGTH } from '../format.constants.js';

/** Encrypts one AES-256-GCM message slice by slice. See {@link createChunkSealer}. */
export interface ChunkSealer {
  /** Plaintext bytes the sealer still expects. */
  readonly remaining: number;
  /**
   * Encrypts the next slice and returns its ciphertext; the slice that reaches the end of the
   * chunk returns its ciphertext followed by the 16-byte tag. Call one slice at a time, in order.
   * WebCrypto has copied the input when this returns its promise: the caller may reuse or release
   * the slice's buffer at once. The result is a view: use its `byteOffset` and `length`, not its
   * whole `buffer`.
   */
  sealSlice(plainSlice: Uint8Array): Promise<Uint8Array<ArrayBuffer>>;
}

/**
 * A sealer whose outputs, concatenated, are byte for byte `crypto.subtle.encrypt({name: 'AES-GCM',
 * iv, additionalData: aad}, key, plaintext)` (ciphertext ‖ tag) for the whole `plainLength`-byte
 * plaintext, while no call ever holds more than one slice.
 *
 * Slice rules: slices come in order; every slice but the last is a positive multiple of 16 bytes
 * (1–4 MiB is the sweet spot: fewer calls than that cost time, larger ones memory); an empty
 * chunk is one empty slice, whose result is the tag alone.
 *
 * How: each slice is a separate WebCrypto AES-GCM call with a 16-byte IV′ chosen so that GCM's
 * own J0′ is the counter block just before the slice's first block (see `docs/encryption.md`,
 * "Streaming computation of a chunk"); its tag gives the slice's GHASH, and the sealer chains
 * those into the chunk's tag. `key` is the same non-extractable AES-GCM file key; only counter
 * blocks the one-shot encryption uses are ever encrypted.
 *
 * Use it only where {@link selfTestStreamingGcm} returned true; elsewhere call `sealChunk` once.
 * @throws {InvalidArgumentError} not a 256-bit AES-GCM key, an empty IV, a bad length or slice.
 */
export async function createChunkSealer(
  key: CryptoKey,
  ivBytes: Uint8Array,
  aadBytes: Uint8Array,
  plainLength: number,
): Promise<ChunkSealer> {
  assertBytes(ivBytes, 'iv');
  assertBytes(aadBytes, 'aad');
  const plan = new SlicePlan(plainLength);
  const secrets = await deriveChunkSecrets(key, ivBytes);
  return new StreamingSealer(key, secrets, new Uint8Array(aadBytes), plan);
}

class StreamingSealer implements ChunkSealer {
  readonly #chain: GhashChain;
  /** E_K(J0′) of the next slice: the keystream block just before its first counter block. */
  #nextMask: FieldElement;
  #busy = false;
  #failed = false;

  constructor(
    private readonly key: CryptoKey,
    private readonly secrets: ChunkSecrets,
    private readonly aad: Uint8Array,
    private readonly plan: SlicePlan,
  ) {
    this.#chain = new GhashChain(secrets.h, aad);
    this.#nextMask = secrets.tagMask;
  }

  get remaining(): number {
    return this.plan.total - this.plan.offset;
  }

  async sealSlice(plainSlice: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
    assertBytes(plainSlice, 'plaintext slice');
    if (this.#busy) throw new InvalidArgumentError('seal one slice at a time');
    if (this.#failed) throw new InvalidArgumentError('a slice failed to seal: seal the chunk again');
    const { byteOffset, isLast } = this.plan.take(plainSlice.length);
    const { h, hInverseSquared, j0 } = this.secrets;
    const iv = fieldToBlock(ivForPreCounter(h, hInverseSquared, incrementCounter(j0, byteOffset / 16)));
    // Kept before the call, so the caller may release the slice as soon as the promise exists.
    const lastPlainBlock = isLast ? undefined : plainSlice.slice(plainSlice.length - 16);
    this.#busy = true;
    try {
      const output = await gcmEncrypt(this.key, iv, plainSlice);
      return this.#absorb(output, plainSlice.length, isLast, lastPlainBlock);
    } catch (error) {
      // The plan has moved past this slice: retrying it would misplace every later counter.
      this.#failed = true;
      throw error;
    } finally {
      this.#busy = false;
    }
  }

  #absorb(
    output: Uint8Array<ArrayBuffer>,
    length: number,
    isLast: boolean,
    lastPlainBlock: Uint8Array | undefined,
  ): Uint8Array<ArrayBuffer> {
    const sliceTag = blockToField(output, length);
    this.#chain.append(
      this.#chain.sliceHashFromTag(sliceTag, this.#nextMask, lengthBlock(0, length)),
      length,
    );
    const tagBytes = output.subarray(length, length + TAG_LENGTH);
    if (isLast) {
      const s = this.#chain.finish(this.aad.length, this.plan.total);
      tagBytes.set(fieldToBlock(this.secrets.tagMask ^ s));
      return output;
    }
    // The next slice's J0′ is this slice's last counter block; its keystream is C ⊕ P there.
    this.#nextMask = blockToField(output, length - 16) ^ blockToField(lastPlainBlock ?? new Uint8Array(16));
    // A slice's own tag is E_K(J0′) ⊕ a hash of known bytes: with a known plaintext block it
    // reveals a polynomial in H. Never hand it out, even in the unused tail of the buffer.
    tagBytes.fill(0);
    return output.subarray(0, length);
  }
}
