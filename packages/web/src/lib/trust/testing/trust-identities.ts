import { createKeyBinding, createUserKeys, MIN_PBKDF2_ITERATIONS } from '@coffer/crypto';

/** A user with both key pairs and a key binding, as the server would serve them (tests only). */
export interface TrustIdentity {
  email: string;
  keyId: string;
  publicKeyB64: string;
  privateKey: CryptoKey;
  signingPublicKeyB64: string;
  signingPrivateKey: CryptoKey;
  keyBindingJson: string;
}

export async function makeTrustIdentity(
  email: string,
  keyId = `key-${email.split('@')[0] ?? 'x'}`,
): Promise<TrustIdentity> {
  const keys = await createUserKeys('Test-Master-Key-1', { iterations: MIN_PBKDF2_ITERATIONS });
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
  };
}

/** The public key lookup's answer for an identity. */
export function servedKeyOf(identity: TrustIdentity): {
  publicKey: string;
  keyId: string;
  signingPublicKey: string;
  keyBinding: string;
} {
  return {
    publicKey: identity.publicKeyB64,
    keyId: identity.keyId,
    signingPublicKey: identity.signingPublicKeyB64,
    keyBinding: identity.keyBindingJson,
  };
}
