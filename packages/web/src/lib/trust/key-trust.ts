import {
  comparePin,
  fingerprintFromSha256Hex,
  publicKeyFingerprint,
  verifyKeyBinding,
  type PinSet,
  type PinState,
} from '@coffer/crypto';

/**
 * Where a served key stands for this user:
 * - `new`: never seen; pin it (trust on first use) before sharing, then it is `tofu`.
 * - `tofu`, `verified`, `key-changed-accepted`: the served keys are the pinned ones (the pin's state).
 * - `key-changed`: the served keys differ from the pin; sharing is blocked until the user accepts
 *   the new safety number.
 * - `invalid-binding`: the served signing key does not vouch for the served key, email and key id
 *   (the server mixed key records); nothing can be shared or verified with it.
 * - `no-signing-key`: the user has no signing key of their own (adding it at unlock failed), so no
 *   pin can be sealed or trusted; sharing is blocked until the next unlock adds it.
 */
export type KeyTrustState = 'new' | PinState | 'key-changed' | 'invalid-binding' | 'no-signing-key';

export interface KeyTrust {
  state: KeyTrustState;
  /** True when a file key may be wrapped to the served key now (after pinning, for `new`). */
  canShare: boolean;
  /** Safety number of the served RSA key (what the user compares in person). */
  safetyNumber: string;
  /** Safety number of the pinned key, when it differs from the served one. */
  pinnedSafetyNumber?: string;
  /**
   * The served signing key, when it can be used to verify this user's signatures: bound to the
   * served key record and matching the pin (or about to be pinned). Absent otherwise.
   */
  signingPublicKeyB64?: string;
  /** Why sharing or verifying is blocked, in words for the user. */
  reason?: string;
  /**
   * The served keys match the pin, whose signing key is not pinned yet (pinned before the contact
   * had one); the served signing key is bound to the pinned key. Pin it now, in the same state.
   */
  signingKeyUnpinned?: boolean;
}

/** Why sharing is paused while the user's own signing key is missing. */
export const NO_SIGNING_KEY_REASON =
  'Coffer could not finish setting up your signing key, so it cannot remember your contacts’ keys. Sharing is paused until it can: log out, then unlock again with your master unlock key.';

/** A public key lookup's answer (`GET /users/keys/public/{email}`), signing fields optional. */
export interface ServedKey {
  publicKey: string;
  keyId: string;
  signingPublicKey?: string;
  keyBinding?: string;
}

/**
 * Assesses the keys the server serves for `email` against the user's pins. Pure (apart from
 * WebCrypto): the caller pins `new` keys and stores the pin set.
 */
export async function assessServedKey(pins: PinSet, email: string, served: ServedKey): Promise<KeyTrust> {
  const safetyNumber = await publicKeyFingerprint(served.publicKey);
  if (served.signingPublicKey !== undefined) {
    const binding = await verifyKeyBinding(served.keyBinding, {
      email,
      keyId: served.keyId,
      publicKeyB64: served.publicKey,
      signingPublicKeyB64: served.signingPublicKey,
    });
    if (binding.status !== 'valid') {
      return {
        state: 'invalid-binding',
        canShare: false,
        safetyNumber,
        reason: `The keys the server returned for ${email} do not belong together. Do not share with this contact until this is resolved.`,
      };
    }
  }
  const comparison = await comparePin(pins, email, served.publicKey, served.signingPublicKey);
  switch (comparison.status) {
    case 'new':
      return { state: 'new', canShare: true, safetyNumber, ...signingKeyOf(served) };
    case 'match':
      return {
        state: comparison.pin.state,
        canShare: true,
        safetyNumber,
        ...signingKeyOf(served),
        ...(comparison.signingKeyUnpinned ? { signingKeyUnpinned: true } : {}),
      };
    case 'changed':
      return {
        state: 'key-changed',
        canShare: false,
        safetyNumber,
        pinnedSafetyNumber: fingerprintFromSha256Hex(comparison.pin.publicKeySha256Hex),
        reason: `The key of ${email} has changed. Compare the new safety number with ${email} before you share with them again.`,
      };
  }
}

/**
 * The answer while the user has no signing key: no pins to compare with, so sharing is blocked. The
 * served signing key, checked against the key binding, is still returned so that shares received
 * from this contact can be checked as on first sight.
 */
export async function assessWithoutPins(email: string, served: ServedKey): Promise<KeyTrust> {
  const first = await assessServedKey({ version: 0, pins: [] }, email, served);
  if (first.state === 'invalid-binding') return first;
  return { ...first, state: 'no-signing-key', canShare: false, reason: NO_SIGNING_KEY_REASON };
}

function signingKeyOf(served: ServedKey): { signingPublicKeyB64?: string } {
  return served.signingPublicKey === undefined ? {} : { signingPublicKeyB64: served.signingPublicKey };
}
