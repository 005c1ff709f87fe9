import { concatBytes, toBufferSource } from './bytes.util.js';

/**
 * Bytes per piece of a chunk identity ({@link sha256PieceList}, {@link gmacPieceList}). Small enough
 * that the copy WebCrypto makes of each piece comes from memory the allocator recycles (a copy of
 * 1 MiB or more is mapped afresh, and on a machine that pays ~17 µs per fresh 4 KiB page the copy
 * of a whole 95 MiB chunk costs ~0.4 s).
 */
export const HASH_PIECE_BYTES = 256 * 1024;

/** Bytes of one GMAC tag ({@link gmacPieceList}): the whole AES-GCM tag. */
export const PIECE_MAC_BYTES = 16;

/**
 * How a resumable upload identifies a chunk's plaintext piece by piece:
 * - `sha256-pieces`: SHA-256 over the SHA-256 of each piece (records written in sessions 21–26).
 * - `gmac-pieces`: GMAC (AES-GCM over no plaintext, the piece as additional data) of each piece
 *   under a random per-upload key, then SHA-256 over the list of tags. A fifth of SHA-256's CPU over
 *   the pieces (session 27, Chromium: 13–17 ms against 63–79 ms per 95 MiB), and the identity is
 *   useless without the upload's key: it confirms no guess of the file's content to whoever reads it
 *   without using that key.
 */
export type PieceIdentity =
  | { readonly scheme: 'sha256-pieces' }
  | {
      readonly scheme: 'gmac-pieces';
      /** An AES-GCM key for `encrypt` ({@link generateChunkIdentityKey}), one per upload. */
      readonly key: CryptoKey;
      /** The chunk's index in its file: every (chunk, piece) pair gets a nonce of its own. */
      readonly chunkIndex: number;
    };

/** Collects a chunk's identity one piece (at most {@link HASH_PIECE_BYTES}) at a time, in order. */
export interface PieceIdentityBuilder {
  /**
   * Adds the next piece; its bytes are copied before this returns (WebCrypto copies its input).
   * Resolves when the piece's tag is in; `finish` waits for every piece anyway.
   */
  readonly addPiece: (piece: Uint8Array) => Promise<void>;
  /** The identity of the pieces added (none added: the identity of one empty piece). */
  readonly finish: () => Promise<Uint8Array<ArrayBuffer>>;
}

/** A fresh, non-extractable key for `gmac-pieces`: it never leaves the browser's key store. */
export function generateChunkIdentityKey(): Promise<CryptoKey> {
  return crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt']);
}

/**
 * The GMAC nonce of piece `piece` of chunk `chunkIndex`: chunk index, piece index and a zero word,
 * 32 bits each, big-endian. Unique per message under one key, except for the same piece of a resumed
 * upload read again, whose bytes are the same ones or (a different file) refused; a piece's tag never
 * leaves the builder (only the digest of all of them does).
 */
function pieceNonce(chunkIndex: number, piece: number): Uint8Array<ArrayBuffer> {
  const nonce = new Uint8Array(12);
  const view = new DataView(nonce.buffer);
  view.setUint32(0, chunkIndex);
  view.setUint32(4, piece);
  return nonce;
}

async function gmac(
  key: CryptoKey,
  nonce: Uint8Array<ArrayBuffer>,
  data: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  const tag = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv: nonce, additionalData: toBufferSource(data), tagLength: 128 },
    key,
    new Uint8Array(0),
  );
  return new Uint8Array(tag);
}

/** A builder for `identity` (see {@link PieceIdentity}). */
export function pieceIdentityBuilder(identity: PieceIdentity): PieceIdentityBuilder {
  const tags: Uint8Array[] = [];
  const tagOf =
    identity.scheme === 'sha256-pieces'
      ? async (piece: Uint8Array) =>
          new Uint8Array(await crypto.subtle.digest('SHA-256', toBufferSource(piece)))
      : (piece: Uint8Array) => gmac(identity.key, pieceNonce(identity.chunkIndex, tags.length), piece);
  /** Every piece's tag so far, in place; rejects with the first failure. */
  let pending: Promise<unknown> = Promise.resolve();
  const builder: PieceIdentityBuilder = {
    addPiece: (piece) => {
      if (piece.length > HASH_PIECE_BYTES) throw new RangeError('A piece holds at most HASH_PIECE_BYTES');
      // The call (and its nonce, from the pieces added before) and the slot are taken now, in order.
      const slot = tags.length;
      const tagging = tagOf(piece).then((tag) => {
        tags[slot] = tag;
      });
      tags.push(new Uint8Array(0));
      // Every call is awaited here, so a failure of any is handled even when an earlier one failed too.
      pending = Promise.all([pending, tagging]);
      // Awaited by finish; a builder given up after a failure must not leave it unhandled.
      pending.catch(() => undefined);
      return tagging;
    },
    finish: async () => {
      await pending;
      if (tags.length === 0) await builder.addPiece(new Uint8Array(0));
      // SHA-256, not a GMAC under the same key: the pieces' GHASH differences would add up to one
      // polynomial in the hash subkey, which a chosen difference can make zero for every key.
      return new Uint8Array(await crypto.subtle.digest('SHA-256', concatBytes(tags)));
    },
  };
  return builder;
}

/** The identity of `bytes`, split into pieces of {@link HASH_PIECE_BYTES} here. */
export async function pieceIdentityOf(
  identity: PieceIdentity,
  bytes: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  const builder = pieceIdentityBuilder(identity);
  // One at a time: WebCrypto's copies of the pieces then reuse the same few allocations.
  for (let start = 0; start < bytes.length; start += HASH_PIECE_BYTES) {
    await builder.addPiece(bytes.subarray(start, start + HASH_PIECE_BYTES));
  }
  return builder.finish();
}

/**
 * A SHA-256 identity of `bytes` that never has WebCrypto copy more than {@link HASH_PIECE_BYTES}
 * at once: SHA-256 over the concatenated SHA-256 digests of each 256 KiB piece (the last one
 * shorter). Two inputs with the same result either are equal or give a SHA-256 collision (in the
 * outer digest, or in the digests of one piece), so it tells two chunks apart as well as SHA-256
 * of the whole chunk does. Not interchangeable with plain SHA-256: its results differ.
 */
export function sha256PieceList(bytes: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  return pieceIdentityOf({ scheme: 'sha256-pieces' }, bytes);
}

/**
 * A keyed identity of chunk `chunkIndex`'s plaintext `bytes`: the GMAC of each 256 KiB piece under
 * `key` with a nonce of its own (chunk index, piece index), then SHA-256 of the concatenated tags
 * (32 bytes). Two different chunks of one length share it only if SHA-256 collides or a piece that
 * differs keeps its tag; GHASH is almost XOR-universal under the key's hash subkey (two different
 * pieces of at most L blocks have equal tags under one nonce with probability at most (L + 1) /
 * 2^128), so for pieces of 2^14 blocks and up to 380 pieces (a 95 MiB chunk) the chance is below
 * 2^-105 whatever their content, as long as the key is random and its holder did not choose them.
 * (A GMAC over the tags under the same key would not do: see `pieceIdentityBuilder`.)
 */
export function gmacPieceList(
  key: CryptoKey,
  chunkIndex: number,
  bytes: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  return pieceIdentityOf({ scheme: 'gmac-pieces', key, chunkIndex }, bytes);
}
