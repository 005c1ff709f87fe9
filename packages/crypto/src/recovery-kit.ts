import { entropyToMnemonic, mnemonicToEntropy } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { base64ToBytes, bytesToBase64 } from './base64.codec.js';
import { bytesToHex, concatBytes, toBufferSource, utf8Bytes } from './bytes.util.js';
import { InvalidArgumentError, RecoveryKitMismatchError, RecoveryWordsError } from './crypto.errors.js';
import { IV_LENGTH } from './format.constants.js';

/** Bytes of a recovery secret: 256 bits, shown as 24 BIP-39 words. */
export const RECOVERY_SECRET_LENGTH = 32;

const KIT_ID_LABEL = 'coffer-v1/recovery-kit/id';
const WRAP_KEY_INFO = 'coffer-v1/recovery-kit/wrap';
const WRAP_AAD_PREFIX = 'coffer-v1/recovery/';

/** What a recovery wrap protects: the RSA private key, or the signing private key of an algorithm. */
export type RecoveryWrapPurpose = 'private-key' | `signing-key/${string}`;

/** Where a recovery wrap belongs: checked on opening, and bound into its AAD. */
export interface RecoveryWrapContext {
  kitId: string;
  keyId: string;
  purpose: RecoveryWrapPurpose;
}

/** A recovery kit as the person is shown it once: the words, and the id the server keeps. */
export interface NewRecoveryKit {
  secretBytes: Uint8Array<ArrayBuffer>;
  /** 24 lowercase English BIP-39 words. */
  words: string[];
  kitId: string;
}

/** Draws a new 256-bit recovery secret. */
export async function createRecoveryKit(): Promise<NewRecoveryKit> {
  const secretBytes = crypto.getRandomValues(new Uint8Array(RECOVERY_SECRET_LENGTH));
  return {
    secretBytes,
    words: entropyToMnemonic(secretBytes, wordlist).split(' '),
    kitId: await recoveryKitId(secretBytes),
  };
}

/**
 * Reads the words as typed: case, extra spaces, line breaks and separating commas or numbers
 * ("1. abandon 2. ability") do not matter; a wrong word or a word out of order fails the BIP-39
 * checksum with {@link RecoveryWordsError}.
 */
export function recoveryWordsToSecret(typed: string): Uint8Array<ArrayBuffer> {
  const words = typed
    .toLowerCase()
    .split(/[^a-z]+/u)
    .filter((word) => word.length > 0);
  if (words.length !== 24) throw new RecoveryWordsError(`a recovery kit has 24 words, not ${words.length}`);
  const unknown = words.find((word) => !wordlist.includes(word));
  if (unknown !== undefined) throw new RecoveryWordsError('a word is not in the recovery word list');
  try {
    return toBufferSource(mnemonicToEntropy(words.join(' '), wordlist));
  } catch (cause) {
    throw new RecoveryWordsError('the words do not add up (one is mistyped or out of order)', { cause });
  }
}

/**
 * The kit's public id: hex of the first 16 bytes of SHA-256(label || secret). The server keeps it
 * beside the wraps so a kit that has been replaced is told apart from a mistyped one; it reveals
 * nothing of a 256-bit secret.
 */
export async function recoveryKitId(secretBytes: Uint8Array): Promise<string> {
  assertSecret(secretBytes);
  const digest = await crypto.subtle.digest('SHA-256', concatBytes([utf8Bytes(KIT_ID_LABEL), secretBytes]));
  return bytesToHex(new Uint8Array(digest, 0, 16));
}

/** HKDF-SHA256(secret, no salt, info "coffer-v1/recovery-kit/wrap") → a non-extractable AES-256-GCM key. */
export async function deriveRecoveryWrapKey(secretBytes: Uint8Array): Promise<CryptoKey> {
  assertSecret(secretBytes);
  const ikm = await crypto.subtle.importKey('raw', toBufferSource(secretBytes), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: utf8Bytes(WRAP_KEY_INFO) },
    ikm,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/**
 * Wraps PKCS#8 bytes under the recovery key: the JSON string `{"v":1,"kitId","iv","data"}`, with
 * AAD = ASCII `coffer-v1/recovery/<purpose>/<keyId>` so a wrap cannot be served for another key
 * record or as the other private key.
 */
export async function sealRecoveryWrap(
  pkcs8Bytes: Uint8Array,
  wrapKey: CryptoKey,
  context: RecoveryWrapContext,
  ivBytes: Uint8Array = crypto.getRandomValues(new Uint8Array(IV_LENGTH)),
): Promise<string> {
  if (ivBytes.length !== IV_LENGTH) throw new InvalidArgumentError(`iv must be ${IV_LENGTH} bytes`);
  const data = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv: toBufferSource(ivBytes), additionalData: wrapAad(context) },
    wrapKey,
    toBufferSource(pkcs8Bytes),
  );
  return JSON.stringify({
    v: 1,
    kitId: context.kitId,
    iv: bytesToBase64(ivBytes),
    data: bytesToBase64(new Uint8Array(data)),
  });
}

/**
 * Opens a wrap made by {@link sealRecoveryWrap}. A wrap of another kit is
 * {@link RecoveryKitMismatchError} (the kit was replaced, or these are another account's words);
 * a failed tag (altered wrap, or one moved to another key) is {@link RecoveryKitMismatchError} too.
 */
export async function openRecoveryWrap(
  wrapJson: string,
  wrapKey: CryptoKey,
  context: RecoveryWrapContext,
): Promise<Uint8Array<ArrayBuffer>> {
  const wrap = parseRecoveryWrap(wrapJson);
  if (wrap.kitId !== context.kitId) {
    throw new RecoveryKitMismatchError('these words belong to a recovery kit that is no longer valid');
  }
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: wrap.ivBytes, additionalData: wrapAad(context) },
      wrapKey,
      wrap.dataBytes,
    );
    return new Uint8Array(plain);
  } catch (cause) {
    throw new RecoveryKitMismatchError('the recovery kit does not open this key', { cause });
  }
}

interface ParsedRecoveryWrap {
  kitId: string;
  ivBytes: Uint8Array<ArrayBuffer>;
  dataBytes: Uint8Array<ArrayBuffer>;
}

function parseRecoveryWrap(wrapJson: string): ParsedRecoveryWrap {
  let value: unknown;
  try {
    value = JSON.parse(wrapJson);
  } catch (cause) {
    throw new RecoveryKitMismatchError('the recovery wrap is not JSON', { cause });
  }
  const wrap = value as Partial<Record<'v' | 'kitId' | 'iv' | 'data', unknown>> | null;
  if (
    wrap === null ||
    typeof wrap !== 'object' ||
    wrap.v !== 1 ||
    typeof wrap.kitId !== 'string' ||
    typeof wrap.iv !== 'string' ||
    typeof wrap.data !== 'string'
  ) {
    throw new RecoveryKitMismatchError('the recovery wrap is malformed');
  }
  try {
    return { kitId: wrap.kitId, ivBytes: base64ToBytes(wrap.iv), dataBytes: base64ToBytes(wrap.data) };
  } catch (cause) {
    throw new RecoveryKitMismatchError('the recovery wrap is malformed', { cause });
  }
}

function wrapAad(context: RecoveryWrapContext): Uint8Array<ArrayBuffer> {
  if (context.keyId.length === 0) throw new InvalidArgumentError('keyId must not be empty');
  return utf8Bytes(`${WRAP_AAD_PREFIX}${context.purpose}/${context.keyId}`);
}

function assertSecret(secretBytes: Uint8Array): void {
  if (secretBytes.length !== RECOVERY_SECRET_LENGTH) {
    throw new InvalidArgumentError(`a recovery secret is ${RECOVERY_SECRET_LENGTH} bytes`);
  }
}
