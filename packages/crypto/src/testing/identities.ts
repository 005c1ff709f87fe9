import { createKeyBinding } from '../key-binding.record.js';
import { MIN_PBKDF2_ITERATIONS } from '../format.constants.js';
import type { SigningAlgorithm } from '../signing-key.pair.js';
import { createUserKeys } from '../user-keys.setup.js';

// Test users with both key pairs and a key binding, as the server would hold them. Not exported
// from the package.

export const TEST_PASSWORD = 'Correct-Horse-9!';

export interface TestIdentity {
  email: string;
  keyId: string;
  publicKeyB64: string;
  privateKey: CryptoKey;
  signingPublicKeyB64: string;
  signingPrivateKey: CryptoKey;
  keyBindingJson: string;
  encryptedPrivateKeyJson: string;
  encryptedSigningKeyJson: string;
}

export async function makeIdentity(
  email: string,
  keyId = `key-${email}`,
  signingAlgorithm?: SigningAlgorithm,
): Promise<TestIdentity> {
  const keys = await createUserKeys(TEST_PASSWORD, { iterations: MIN_PBKDF2_ITERATIONS, signingAlgorithm });
  const keyBindingJson = await createKeyBinding(
    { email, keyId, publicKeyB64: keys.publicKeyB64, signingPublicKeyB64: keys.signingPublicKeyB64 },
    keys.signingPrivateKey,
  );
  return {
    email,
    keyId,
    publicKeyB64: keys.publicKeyB64,
    privateKey: keys.privateKey,
    signingPublicKeyB64: keys.signingPublicKeyB64,
    signingPrivateKey: keys.signingPrivateKey,
    keyBindingJson,
    encryptedPrivateKeyJson: keys.encryptedPrivateKeyJson,
    encryptedSigningKeyJson: keys.encryptedSigningKeyJson,
  };
}
