import { generateUserKeyPair } from '@coffer/crypto';

let pair: Promise<CryptoKeyPair> | null = null;
let other: Promise<CryptoKeyPair> | null = null;

/** One RSA key pair per test file (generating them is slow). */
export function ownerKeyPair(): Promise<CryptoKeyPair> {
  pair ??= generateUserKeyPair();
  return pair;
}

/** A second user's key pair, for shared downloads. */
export function recipientKeyPair(): Promise<CryptoKeyPair> {
  other ??= generateUserKeyPair();
  return other;
}
