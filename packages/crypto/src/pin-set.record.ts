import { base64ToBytes, bytesToBase64 } from './base64.codec.js';
import { bytesToHex, concatBytes, toBufferSource, utf8Bytes } from './bytes.util.js';
import { InvalidArgumentError, PinSetInvalidError, PinSetRollbackError } from './crypto.errors.js';
import { IV_LENGTH } from './format.constants.js';
import { importPublicKeyB64 } from './key-pair.rsa.js';
import { encodeSignedMessage, SIGNED_LABELS } from './signed-message.encoding.js';
import { defineSignedRecord, type SignedStatement } from './signed-record.kind.js';
import {
  canonicalEmail,
  FieldReader,
  isPlainObject,
  msFromIso,
  parseObject,
  sha256,
  sha256HexOfB64,
} from './signed-record.util.js';
import { importSigningPublicKeyB64, verifyBytes } from './signing-key.pair.js';

/**
 * How far a contact's key is trusted: first seen and pinned (`tofu`), compared in person
 * (`verified`), or changed after pinning and accepted by the user (`key-changed-accepted`).
 */
export type PinState = 'tofu' | 'verified' | 'key-changed-accepted';

export const PIN_STATES: readonly PinState[] = ['tofu', 'verified', 'key-changed-accepted'];

/** One pinned contact. */
export interface ContactPin {
  /** Canonical (lower-case) email. */
  email: string;
  /** Lowercase hex SHA-256 of the contact's RSA SPKI: the bytes of their safety number. */
  publicKeySha256Hex: string;
  /** Lowercase hex SHA-256 of the contact's signing SPKI; null if they had none when pinned. */
  signingKeySha256Hex: string | null;
  state: PinState;
  /** ISO 8601 UTC of the last change to this pin. */
  pinnedAt: string;
}

/** The user's pins. `version` grows by one with every change; a client remembers the highest seen. */
export interface PinSet {
  version: number;
  /** Sorted by email, one per email. */
  pins: ContactPin[];
}

/** A pin set with no pins, before the first change: version 0 (never stored). */
export function emptyPinSet(): PinSet {
  return { version: 0, pins: [] };
}

/** The user's own keys that seal a pin set. */
export interface PinSetSealKeys {
  /** The user's own RSA public key (base64 SPKI), verified at unlock: the pin key is wrapped to it. */
  publicKeyB64: string;
  /** The user's own signing private key: signs the blob. */
  signingPrivateKey: CryptoKey;
}

/** The user's own keys that open a pin set. */
export interface PinSetOpenKeys {
  /** The user's own RSA private key: unwraps the pin key. */
  privateKey: CryptoKey;
  /** The user's own signing public key, verified at unlock ({@link assertOwnKeys}). */
  signingPublicKeyB64: string;
  /**
   * The highest version this client has opened or written before (e.g. from local storage). A
   * served pin set older than this is a rollback. Default 0 (a new device cannot tell).
   */
  knownVersion?: number;
}

/** The stored form of a pin set (`pinSetJson`), members in this order. */
interface PinSetBlob {
  v: 1;
  type: 'pin-set';
  version: number;
  /** The pin key, wrapped to the user's own RSA key. */
  wrappedKeyB64: string;
  ivB64: string;
  /** AES-256-GCM ciphertext of {@link pinSetPlaintext}, tag included. */
  dataB64: string;
  signatureB64: string;
}

const PIN_SET_BLOB = defineSignedRecord<PinSetBlob>({
  type: 'pin-set',
  label: SIGNED_LABELS.pinSet,
  name: 'pin set',
  members: { version: 'integer', wrappedKeyB64: 'base64', ivB64: 'base64', dataB64: 'base64' },
  check: (blob) => base64ToBytes(blob.ivB64).length === IV_LENGTH,
});

/**
 * The AES-GCM additional data of a pin set's ciphertext: the encoding of label `coffer-v1/pin-set`
 * with the one field `version` (u64).
 */
export function pinSetAad(version: number): Uint8Array<ArrayBuffer> {
  return encodeSignedMessage(SIGNED_LABELS.pinSet, [version]);
}

/**
 * The signed bytes of a pin set blob: label `coffer-v1/pin-set`, then version (u64), the wrapped pin
 * key, the IV and the ciphertext (bytes each).
 */
export function pinSetMessage(
  version: number,
  wrappedKeyBytes: Uint8Array,
  ivBytes: Uint8Array,
  dataBytes: Uint8Array,
): Uint8Array<ArrayBuffer> {
  return PIN_SET_BLOB.message({
    version,
    wrappedKeyB64: bytesToBase64(wrappedKeyBytes),
    ivB64: bytesToBase64(ivBytes),
    dataB64: bytesToBase64(dataBytes),
  });
}

/**
 * Seals a pin set for the server to store: `{"v","type","version","wrappedKeyB64","ivB64","dataB64",
 * "signatureB64"}`. The pins are encrypted with a fresh random AES-256-GCM key wrapped to the user's
 * own RSA key (the server cannot read them), and the whole blob is signed with the user's signing
 * key (the server cannot forge or alter it: it could wrap a key to the public key, but not sign).
 * The version is inside both the AAD and the signature, so an old blob cannot pass as a new one.
 */
export async function sealPinSet(pinSet: PinSet, keys: PinSetSealKeys): Promise<string> {
  return sealPinSetWith(pinSet, keys, {
    pinKeyBytes: crypto.getRandomValues(new Uint8Array(32)),
    ivBytes: crypto.getRandomValues(new Uint8Array(IV_LENGTH)),
  });
}

/**
 * {@link sealPinSet} with a given pin key and IV. Not part of the public API: only for test
 * vectors (a pin key and IV must never be reused).
 */
export async function sealPinSetWith(
  pinSet: PinSet,
  keys: PinSetSealKeys,
  fixed: { pinKeyBytes: Uint8Array; ivBytes: Uint8Array },
): Promise<string> {
  assertPinSet(pinSet);
  if (fixed.pinKeyBytes.length !== 32 || fixed.ivBytes.length !== IV_LENGTH) {
    throw new InvalidArgumentError('a pin key is 32 bytes and its IV 12');
  }
  const pinKey = await crypto.subtle.importKey('raw', toBufferSource(fixed.pinKeyBytes), 'AES-GCM', true, [
    'encrypt',
  ]);
  const ownPublicKey = await importPublicKeyB64(keys.publicKeyB64);
  const wrappedKeyBytes = new Uint8Array(
    await crypto.subtle.wrapKey('raw', pinKey, ownPublicKey, { name: 'RSA-OAEP' }),
  );
  const ivBytes = new Uint8Array(fixed.ivBytes);
  const dataBytes = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv: ivBytes, additionalData: pinSetAad(pinSet.version) },
      pinKey,
      pinSetPlaintext(pinSet),
    ),
  );
  const statement: SignedStatement<PinSetBlob> = {
    version: pinSet.version,
    wrappedKeyB64: bytesToBase64(wrappedKeyBytes),
    ivB64: bytesToBase64(ivBytes),
    dataB64: bytesToBase64(dataBytes),
  };
  return PIN_SET_BLOB.sign(statement, keys.signingPrivateKey);
}

/**
 * The plaintext of a pin set: UTF-8 JSON `{"version":N,"pins":[...]}`, pins sorted by email, each
 * `{"email","publicKeySha256Hex","signingKeySha256Hex","state","pinnedAt"}` in that order.
 */
export function pinSetPlaintext(pinSet: PinSet): Uint8Array<ArrayBuffer> {
  const pins = sortedPins(pinSet.pins).map((pin) => ({
    email: pin.email,
    publicKeySha256Hex: pin.publicKeySha256Hex,
    signingKeySha256Hex: pin.signingKeySha256Hex,
    state: pin.state,
    pinnedAt: pin.pinnedAt,
  }));
  return utf8Bytes(JSON.stringify({ version: pinSet.version, pins }));
}

/**
 * Opens a pin set served by the server: verifies its signature with the user's own signing key,
 * refuses a version older than `knownVersion`, then decrypts it.
 * @throws {PinSetInvalidError} malformed, not signed by this user, or not decryptable by them.
 * @throws {PinSetRollbackError} authentic but older than `knownVersion`.
 */
export async function openPinSet(pinSetJson: string, keys: PinSetOpenKeys): Promise<PinSet> {
  if (parseObject(pinSetJson) === null) throw new PinSetInvalidError('the pin set is not a JSON object');
  const blob = PIN_SET_BLOB.parse(pinSetJson);
  if (blob === null) throw new PinSetInvalidError('the pin set is malformed');
  const signingPublicKey = await importSigningPublicKeyB64(keys.signingPublicKeyB64).catch(
    (cause: unknown) => {
      throw new PinSetInvalidError('your signing public key is not valid', { cause });
    },
  );
  if (!(await verifyBytes(signingPublicKey, base64ToBytes(blob.signatureB64), PIN_SET_BLOB.message(blob)))) {
    throw new PinSetInvalidError('the pin set is not signed by your signing key: it was altered or forged');
  }
  const { version } = blob;
  const knownVersion = keys.knownVersion ?? 0;
  if (version < knownVersion) throw new PinSetRollbackError(version, knownVersion);
  let plaintext: ArrayBuffer;
  try {
    const pinKey = await crypto.subtle.unwrapKey(
      'raw',
      base64ToBytes(blob.wrappedKeyB64),
      keys.privateKey,
      { name: 'RSA-OAEP' },
      'AES-GCM',
      false,
      ['decrypt'],
    );
    plaintext = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: base64ToBytes(blob.ivB64), additionalData: pinSetAad(version) },
      pinKey,
      base64ToBytes(blob.dataB64),
    );
  } catch (cause) {
    throw new PinSetInvalidError('the pin set cannot be decrypted with your private key', { cause });
  }
  const pinSet = parsePins(new TextDecoder().decode(plaintext));
  if (pinSet?.version !== version) throw new PinSetInvalidError('the pin set content is malformed');
  return pinSet;
}

function parsePins(json: string): PinSet | null {
  const object = parseObject(json);
  if (object === null || !Array.isArray(object.pins)) return null;
  const read = new FieldReader(object);
  const version = read.integer('version');
  const pins: ContactPin[] = [];
  for (const item of object.pins as unknown[]) {
    if (!isPlainObject(item)) return null;
    const pinRead = new FieldReader(item);
    pinRead.onlyMembers(['email', 'publicKeySha256Hex', 'signingKeySha256Hex', 'state', 'pinnedAt']);
    const pin: ContactPin = {
      email: pinRead.text('email'),
      publicKeySha256Hex: pinRead.sha256Hex('publicKeySha256Hex'),
      signingKeySha256Hex:
        item.signingKeySha256Hex === null ? null : pinRead.sha256Hex('signingKeySha256Hex'),
      state: pinRead.text('state') as PinState,
      pinnedAt: pinRead.text('pinnedAt'),
    };
    pinRead.iso('pinnedAt');
    if (!pinRead.ok || !PIN_STATES.includes(pin.state)) return null;
    pins.push(pin);
  }
  const pinSet: PinSet = { version, pins };
  try {
    assertPinSet(pinSet);
  } catch {
    return null;
  }
  return read.ok ? pinSet : null;
}

function assertPinSet(pinSet: PinSet): void {
  if (!Number.isSafeInteger(pinSet.version) || pinSet.version < 0) {
    throw new InvalidArgumentError('pin set version must be a non-negative integer');
  }
  const emails = new Set<string>();
  for (const pin of pinSet.pins) {
    if (pin.email !== canonicalEmail(pin.email) || emails.has(pin.email)) {
      throw new InvalidArgumentError(`pin emails must be canonical and unique: ${pin.email}`);
    }
    if (msFromIso(pin.pinnedAt) === null) throw new InvalidArgumentError('pinnedAt must be an ISO timestamp');
    emails.add(pin.email);
  }
}

function sortedPins(pins: readonly ContactPin[]): ContactPin[] {
  return [...pins].sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
}

/** Prefix of the bytes hashed by {@link pinHighWaterId}. */
const HIGH_WATER_LABEL = 'coffer-v1/pin-high-water';

/**
 * The name under which a device remembers the highest pin set version it has seen for a user
 * (`knownVersion`): lowercase hex SHA-256 of ASCII `coffer-v1/pin-high-water` || the user's signing
 * SPKI bytes. It names one user's signing key without naming their email, so a device can keep it
 * after logout (when local storage, which holds the email, is emptied); a new signing key (after a
 * reset) starts again from 0.
 * @throws {InvalidArgumentError} the key is not base64.
 */
export async function pinHighWaterId(signingPublicKeyB64: string): Promise<string> {
  let spkiBytes: Uint8Array;
  try {
    spkiBytes = base64ToBytes(signingPublicKeyB64);
  } catch {
    throw new InvalidArgumentError('signing public key is not valid base64');
  }
  return bytesToHex(await sha256(concatBytes([utf8Bytes(HIGH_WATER_LABEL), spkiBytes])));
}

/** The pin of `email`, if any. */
export function findPin(pinSet: PinSet, email: string): ContactPin | undefined {
  const wanted = canonicalEmail(email);
  return pinSet.pins.find((pin) => pin.email === wanted);
}

/** A contact's served keys compared with their pin. */
export type PinComparison =
  /** Never pinned: pin it (trust on first use) with {@link pinContact} state `tofu`. */
  | { status: 'new' }
  /**
   * The served keys are the pinned ones. `signingKeyUnpinned`: the pin predates the contact's
   * signing key, which is served now; pin it (same state) to cover it from now on.
   */
  | { status: 'match'; pin: ContactPin; signingKeyUnpinned: boolean }
  /** The served keys differ from the pin: block sharing until the user accepts the new safety number. */
  | { status: 'changed'; pin: ContactPin; changed: ('publicKey' | 'signingKey')[] };

/**
 * Compares the keys the server serves for a contact with the pin. A pinned signing key that is no
 * longer served counts as changed (a server dropping it would otherwise make shares unverifiable).
 */
export async function comparePin(
  pinSet: PinSet,
  email: string,
  servedPublicKeyB64: string,
  servedSigningPublicKeyB64?: string,
): Promise<PinComparison> {
  const pin = findPin(pinSet, email);
  if (pin === undefined) return { status: 'new' };
  const changed: ('publicKey' | 'signingKey')[] = [];
  if ((await sha256HexOfB64(servedPublicKeyB64)) !== pin.publicKeySha256Hex) changed.push('publicKey');
  const servedSigning =
    servedSigningPublicKeyB64 === undefined ? null : await sha256HexOfB64(servedSigningPublicKeyB64);
  if (pin.signingKeySha256Hex !== null && servedSigning !== pin.signingKeySha256Hex)
    changed.push('signingKey');
  if (changed.length > 0) return { status: 'changed', pin, changed };
  return {
    status: 'match',
    pin,
    signingKeyUnpinned: pin.signingKeySha256Hex === null && servedSigning !== null,
  };
}

/**
 * A new pin set with `email` pinned to the served keys in `state` (replacing any earlier pin) and
 * the version raised by one. Use `tofu` on first sight, `verified` after comparing safety numbers,
 * `key-changed-accepted` when the user accepts a changed key. Seal and store the result.
 */
export async function pinContact(
  pinSet: PinSet,
  email: string,
  served: { publicKeyB64: string; signingPublicKeyB64?: string },
  state: PinState,
  now: Date = new Date(),
): Promise<PinSet> {
  const publicKeySha256Hex = await sha256HexOfB64(served.publicKeyB64);
  if (publicKeySha256Hex === null) throw new InvalidArgumentError('public key is not valid base64');
  let signingKeySha256Hex: string | null = null;
  if (served.signingPublicKeyB64 !== undefined) {
    signingKeySha256Hex = await sha256HexOfB64(served.signingPublicKeyB64);
    if (signingKeySha256Hex === null) throw new InvalidArgumentError('signing key is not valid base64');
  }
  const pin: ContactPin = {
    email: canonicalEmail(email),
    publicKeySha256Hex,
    signingKeySha256Hex,
    state,
    pinnedAt: now.toISOString(),
  };
  const others = pinSet.pins.filter((existing) => existing.email !== pin.email);
  return { version: pinSet.version + 1, pins: sortedPins([...others, pin]) };
}

/** A new pin set without `email`'s pin (e.g. the contact was deleted), version raised by one. */
export function unpinContact(pinSet: PinSet, email: string): PinSet {
  const wanted = canonicalEmail(email);
  return { version: pinSet.version + 1, pins: pinSet.pins.filter((pin) => pin.email !== wanted) };
}
