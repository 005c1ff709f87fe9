import {
  assertOwnKeys,
  KdfDowngradeError,
  KeyMismatchError,
  KeyRollbackError,
  PinSetInvalidError,
  PinSetRollbackError,
} from '@coffer/crypto';
import type { KeyRecord } from '@coffer/contracts';

/** The private keys just opened with the password (`unlockUserKeys`). */
export interface UnlockedKeys {
  privateKey: CryptoKey;
  signingPrivateKey?: CryptoKey;
}

/**
 * The unlock check for the active key record as the server served it: its public key, signing key
 * and key binding must be those of the keys just decrypted, for this email and key id. Run it at
 * every unlock and restore, before using the keys.
 * @throws {KeyMismatchError} they are not (the message says which part).
 */
export async function assertOwnKeyRecord(
  record: KeyRecord,
  email: string,
  keys: UnlockedKeys,
): Promise<void> {
  const hasSigning = record.signingPublicKey !== undefined || record.encryptedSigningKey !== undefined;
  if (hasSigning && (keys.signingPrivateKey === undefined || record.signingPublicKey === undefined)) {
    throw new KeyMismatchError('your key record has an incomplete signing key');
  }
  // A server that strips the signing key would make the app start over with a new one, turning
  // every pin of this user into "key changed" and their old signatures unverifiable.
  if (!hasSigning && keys.signingPrivateKey !== undefined) {
    throw new KeyMismatchError('your signing key is missing from your key record');
  }
  await assertOwnKeys({
    keyId: record.keyId,
    email,
    publicKeyB64: record.publicKey,
    privateKey: keys.privateKey,
    signing:
      record.signingPublicKey === undefined || keys.signingPrivateKey === undefined
        ? undefined
        : {
            signingPublicKeyB64: record.signingPublicKey,
            signingPrivateKey: keys.signingPrivateKey,
            keyBindingJson: record.keyBinding,
          },
  });
}

/** Words for the errors a compromised server provokes; null for any other error. */
export function trustErrorMessage(error: unknown): string | null {
  if (error instanceof KeyMismatchError) {
    return 'The server returned keys that do not belong to you. Coffer stopped so that nothing is encrypted to a key you do not hold.';
  }
  if (error instanceof KdfDowngradeError) {
    return 'Your key record asks for weaker password protection than Coffer allows. Coffer refused to use it.';
  }
  if (error instanceof KeyRollbackError) {
    return 'The server returned an older copy of your keys, from before a change of your master unlock key. Coffer refused to use it.';
  }
  if (error instanceof PinSetRollbackError) {
    return 'The server returned an older copy of your verified contacts. Coffer refused to use it.';
  }
  if (error instanceof PinSetInvalidError) {
    return 'Your verified contacts were changed by someone other than you. Coffer refused to use them.';
  }
  return null;
}
