import { assertBytes } from '../bytes.util.js';
import { IntegrityError, InvalidArgumentError } from '../crypto.errors.js';
import { TAG_LENGTH } from '../format.constants.js';
import { blockToField, fieldToBlock } from './gf128.field.js';
import { deriveChunkSecrets, gcmEncrypt, type ChunkSecrets } from './gcm-secrets.derive.js';
import { GhashChain } from './ghash.chain.js';
import { incrementCounter, ivForPreCounter, lengthBlock } from './ghash.math.js';
import { SlicePlan } from './slice.plan.js';

const EMPTY = new Uint8Array(0);

/** Options of {@link createChunkOpener}. */
export interface ChunkOpenerOptions {
  /**
   * True when the decrypt pass reads bytes that cannot differ from those verified: a `Blob`, or a
   * file this page wrote itself. Otherwise (the default, e.g. a second HTTP Range request) every
   * slice's GMAC from the verify pass is kept, and the decrypt pass computes it again and releases
   * a slice's plaintext only when the two match. A source that changed between the passes is thus
   * caught with the GCM tag's own forgery bound (GHASH under the secret H; the per-slice values
   * never leave the opener), for one more GMAC call per slice.
   */
  immutableSource?: boolean;
}

/**
 * Decrypts one AES-256-GCM message in two passes. See {@link createChunkOpener}.
 *
 * The rule: plaintext exists only after the whole chunk's tag verified. GCM is malleable until
 * then (whoever controls the stored bytes can flip chosen plaintext bits), so {@link decryptSlice}
 * refuses to run before {@link verifyChunk} returned true.
 */
export interface ChunkOpener {
  /**
   * The verify pass: GMAC over the ciphertext slices (WebCrypto AES-GCM calls with each slice as
   * additional data, so nothing is decrypted) and a comparison with `tagBytes`. True when the
   * chunk is authentic for this key, IV and AAD. Runs once.
   */
  verifyChunk(
    ciphertextSlices: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
    tagBytes: Uint8Array,
  ): Promise<boolean>;
  /**
   * The verify pass one slice at a time, for a chunk that arrives in pieces (a download verifies
   * each slice as it is received, before the chunk is read back to decrypt it). Slices follow the
   * slice rules; call one at a time, then {@link verifyTag} once. Not with {@link verifyChunk}.
   */
  verifySlice(ciphertextSlice: Uint8Array): Promise<void>;
  /**
   * Ends the verify pass of {@link verifySlice}: true when the slices given make the chunk
   * authentic for this key, IV and AAD under `tagBytes`. False too for a chunk not given whole.
   */
  verifyTag(tagBytes: Uint8Array): boolean;
  /**
   * The decrypt pass, only after the chunk verified: the same slices again, in the same order, each
   * returned as its plaintext (a view: use its `byteOffset` and `length`). With `immutableSource`,
   * any slices that follow the slice rules (the bytes cannot have changed, so they need not be cut
   * where the verify pass cut them: a download verifies as it receives and decrypts as it reads back).
   * @throws {IntegrityError} a slice differs from the one verified (unless `immutableSource`).
   * @throws {InvalidArgumentError} called before a successful verification, or slices out of order.
   */
  decryptSlice(ciphertextSlice: Uint8Array): Promise<Uint8Array<ArrayBuffer>>;
}

/**
 * An opener for a chunk of `cipherLength` ciphertext bytes (without its tag), sealed with `key`,
 * `ivBytes` and `aadBytes`. Slices follow the sealer's rules (in order, every one but the last a
 * positive multiple of 16 bytes); the decrypt pass must use the slices the verify pass used.
 *
 * Verify first, decrypt after, and never release plaintext of a chunk whose tag did not verify:
 * the caller keeps the ciphertext readable twice (a Blob, a file in the origin private file
 * system, or a Range re-fetch) and hands plaintext on only from {@link ChunkOpener.decryptSlice}.
 * Use it only where {@link selfTestStreamingGcm} returned true; elsewhere call `decryptChunk`.
 */
export async function createChunkOpener(
  key: CryptoKey,
  ivBytes: Uint8Array,
  aadBytes: Uint8Array,
  cipherLength: number,
  options: ChunkOpenerOptions = {},
): Promise<ChunkOpener> {
  assertBytes(ivBytes, 'iv');
  assertBytes(aadBytes, 'aad');
  const plan = new SlicePlan(cipherLength);
  const secrets = await deriveChunkSecrets(key, ivBytes);
  return new TwoPassOpener(key, secrets, new Uint8Array(ivBytes), new Uint8Array(aadBytes), plan, options);
}

/**
 * The decrypt pass alone, for a chunk whose whole tag verified in another thread of this origin
 * over bytes that only this origin's code can change (the download's chunk file, which the crypto
 * worker wrote and verified as it arrived, read back in the download service worker: docs/transfers.md,
 * "Two threads"). Its slices follow the slice rules; they need not be cut where the verify pass cut them.
 *
 * Never for bytes read from anywhere else (the network, a second Range request): those must go
 * through {@link createChunkOpener}'s verify pass first.
 */
export async function createVerifiedChunkOpener(
  key: CryptoKey,
  ivBytes: Uint8Array,
  aadBytes: Uint8Array,
  cipherLength: number,
): Promise<Pick<ChunkOpener, 'decryptSlice'>> {
  assertBytes(ivBytes, 'iv');
  assertBytes(aadBytes, 'aad');
  const plan = new SlicePlan(cipherLength);
  const secrets = await deriveChunkSecrets(key, ivBytes);
  const opener = new TwoPassOpener(key, secrets, new Uint8Array(ivBytes), new Uint8Array(aadBytes), plan, {
    immutableSource: true,
  });
  opener.verifiedElsewhere();
  return opener;
}

type OpenerState = 'new' | 'verifying' | 'verified' | 'rejected' | 'decrypting';

class TwoPassOpener implements ChunkOpener {
  #state: OpenerState = 'new';
  /** Slice lengths seen while verifying, and their GMAC tags unless the source is immutable. */
  readonly #verified: { length: number; gmac: Uint8Array | undefined }[] = [];
  readonly #decryptPlan: SlicePlan;
  #decryptIndex = 0;
  #decryptBusy = false;
  #verifyBusy = false;
  #chain: GhashChain | null = null;

  constructor(
    private readonly key: CryptoKey,
    private readonly secrets: ChunkSecrets,
    private readonly iv: Uint8Array,
    private readonly aad: Uint8Array,
    private readonly plan: SlicePlan,
    private readonly options: ChunkOpenerOptions,
  ) {
    this.#decryptPlan = new SlicePlan(plan.total);
  }

  /** See {@link createVerifiedChunkOpener}: the chunk's tag verified in another thread. */
  verifiedElsewhere(): void {
    if (this.#state !== 'new') throw new InvalidArgumentError('a chunk is verified once');
    this.#state = 'verified';
  }

  async verifyChunk(
    ciphertextSlices: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
    tagBytes: Uint8Array,
  ): Promise<boolean> {
    assertBytes(tagBytes, 'tag');
    if (this.#state !== 'new') throw new InvalidArgumentError('a chunk is verified once');
    try {
      for await (const slice of ciphertextSlices) await this.verifySlice(slice);
      if (this.plan.offset !== this.plan.total) {
        throw new InvalidArgumentError(`the slices hold ${this.plan.offset} of ${this.plan.total} bytes`);
      }
    } catch (error) {
      this.#state = 'rejected';
      throw error;
    }
    return this.verifyTag(tagBytes);
  }

  async verifySlice(ciphertextSlice: Uint8Array): Promise<void> {
    assertBytes(ciphertextSlice, 'ciphertext slice');
    if (this.#state === 'new') {
      this.#state = 'verifying';
      this.#chain = new GhashChain(this.secrets.h, this.aad);
    }
    const chain = this.#chain;
    if (this.#state !== 'verifying' || chain === null) {
      throw new InvalidArgumentError('a chunk is verified once');
    }
    if (this.#verifyBusy) throw new InvalidArgumentError('verify one slice at a time');
    this.#verifyBusy = true;
    try {
      this.plan.take(ciphertextSlice.length);
      // GMAC: the slice as additional data, nothing encrypted. The tag is E_K(J0) ⊕ GHASH(C_k ‖ [len]_64 ‖ 0^64).
      const gmac = await this.#gmac(ciphertextSlice);
      const kept = this.options.immutableSource === true ? undefined : gmac;
      this.#verified.push({ length: ciphertextSlice.length, gmac: kept });
      const lengths = lengthBlock(ciphertextSlice.length, 0);
      chain.append(
        chain.sliceHashFromTag(blockToField(gmac), this.secrets.tagMask, lengths),
        ciphertextSlice.length,
      );
    } catch (error) {
      this.#state = 'rejected';
      throw error;
    } finally {
      this.#verifyBusy = false;
    }
  }

  verifyTag(tagBytes: Uint8Array): boolean {
    assertBytes(tagBytes, 'tag');
    if (this.#state === 'new' && this.plan.total === 0) {
      this.#state = 'verifying';
      this.#chain = new GhashChain(this.secrets.h, this.aad);
    }
    const chain = this.#chain;
    if (this.#state !== 'verifying' || chain === null || this.#verifyBusy) {
      throw new InvalidArgumentError('a chunk is verified once, after its slices');
    }
    // A chunk not given whole is not authentic (its slices may stop short of the declared length).
    const whole = this.plan.offset === this.plan.total;
    const expected = fieldToBlock(this.secrets.tagMask ^ chain.finish(this.aad.length, this.plan.offset));
    const authentic = whole && tagBytes.length === TAG_LENGTH && sameBytes(expected, tagBytes);
    this.#state = authentic ? 'verified' : 'rejected';
    return authentic;
  }

  #gmac(slice: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
    return gcmEncrypt(this.key, this.iv, EMPTY, slice);
  }

  async decryptSlice(ciphertextSlice: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
    assertBytes(ciphertextSlice, 'ciphertext slice');
    if (this.#state !== 'verified' && this.#state !== 'decrypting') {
      throw new InvalidArgumentError('decrypt only after verifyChunk returned true');
    }
    if (this.#decryptBusy) throw new InvalidArgumentError('decrypt one slice at a time');
    this.#state = 'decrypting';
    const index = this.#decryptIndex;
    const seen = this.#verified[index];
    const expectedLength = seen?.length ?? 0;
    const immutable = this.options.immutableSource === true;
    if (!immutable && ciphertextSlice.length !== expectedLength) {
      throw new InvalidArgumentError(
        `decrypt the slices that were verified: slice ${index} had ${expectedLength} bytes`,
      );
    }
    const { byteOffset } = this.#decryptPlan.take(ciphertextSlice.length);
    this.#decryptIndex++;
    const { h, hInverseSquared, j0 } = this.secrets;
    const iv = fieldToBlock(ivForPreCounter(h, hInverseSquared, incrementCounter(j0, byteOffset / 16)));
    this.#decryptBusy = true;
    try {
      // Counter mode is its own inverse: "encrypting" the ciphertext from its first counter block
      // gives the plaintext. Both calls run at once; the plaintext is returned only once the
      // slice's GMAC matched the verified one.
      const verifiedGmac = seen?.gmac;
      const [output, gmac] = await Promise.all([
        gcmEncrypt(this.key, iv, ciphertextSlice),
        verifiedGmac === undefined ? undefined : this.#gmac(ciphertextSlice),
      ]);
      const sameAsVerified =
        verifiedGmac === undefined || (gmac !== undefined && sameBytes(gmac, verifiedGmac));
      // The tag of that call hashes plaintext under a known mask: wipe it (see the sealer).
      output.fill(0, ciphertextSlice.length);
      if (!sameAsVerified) {
        output.fill(0);
        throw new IntegrityError();
      }
      return output.subarray(0, ciphertextSlice.length);
    } catch (error) {
      // No retry of a slice: the decrypt plan has moved past it.
      this.#state = 'rejected';
      throw error;
    } finally {
      this.#decryptBusy = false;
    }
  }
}

/** Compares without an early exit, so the time taken does not say where two tags differ. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
}
