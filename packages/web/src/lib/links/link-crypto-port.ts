import type { SignatureCheck } from '@coffer/crypto';
import type { LinkPasswordParams, OpenedLinkAnswer } from './link-wire';

/** What the link secret and the optional password give (docs/key-hierarchy.md, "Links"). */
export interface LinkKeys {
  /** K: wraps the granted file keys (non-extractable). */
  readonly wrapKey: CryptoKey;
  /** A: proves the secret (and password) to the server; only SHA-256(A) is stored there. */
  readonly authKeyBytes: Uint8Array;
}

/** One file of an opened link, its key unwrapped and its metadata read. */
export interface OpenedLinkFile {
  readonly fileId: string;
  readonly name: string;
  readonly contentType: string;
  readonly size: number;
  readonly fileKey: CryptoKey;
  /** The owner's manifest against what is served (name, size, key). */
  readonly signature: SignatureCheck;
}

/**
 * The link cryptography the pages use (`@coffer/crypto`'s links room). A port, so the flows are
 * tested with a stand-in and the pages never call the primitives themselves.
 */
export interface LinkCryptoPort {
  createLinkSecret(): Uint8Array;
  /** `#<S>` of a share link. */
  encodeLinkFragment(secretBytes: Uint8Array): string;
  /** @throws a typed error for a malformed or altered fragment. */
  parseLinkFragment(fragment: string): Uint8Array;
  /** `#<S>.<owner key fingerprint>` of a file request. */
  encodeRequestFragment(secretBytes: Uint8Array, ownerFingerprintHex: string): string;
  parseRequestFragment(fragment: string): { secretBytes: Uint8Array; ownerFingerprintHex: string };
  /** Fresh password parameters (salt and the Argon2id KDF) for a new link. */
  newPasswordParams(): LinkPasswordParams;
  deriveLinkKeys(
    secretBytes: Uint8Array,
    password: { password: string; params: LinkPasswordParams } | null,
  ): Promise<LinkKeys>;
  /** SHA-256(A), hex: what the server stores. */
  authKeyHash(authKeyBytes: Uint8Array): Promise<string>;
  base64url(bytes: Uint8Array): string;
  /**
   * Checks the owner's signing key (its key binding), the signed link record against what is
   * served (link id, files, their wrapped keys, settings), unwraps each file key under K and reads
   * its metadata, and checks each file's manifest.
   * @throws a typed error when the link record does not verify (a tampered link or answer).
   */
  openLink(linkId: string, answer: OpenedLinkAnswer, keys: LinkKeys): Promise<readonly OpenedLinkFile[]>;
}
