import { useCurrentUser } from '../../session/current-user';
import { useEncryptionState } from '../../session/session-context';
import type { LinkOwnerKeys } from '../../lib/links/link-create';

/** The keys a new link or request needs, or null while locked or without a signing key. */
export function useLinkOwnerKeys(): LinkOwnerKeys | null {
  const encryption = useEncryptionState();
  const email = useCurrentUser()?.email ?? null;
  if (encryption.status !== 'unlocked' || email === null) return null;
  const { privateKey, signingPrivateKey, signingPublicKeyB64, driveKey } = encryption.keys;
  if (signingPrivateKey === undefined || signingPublicKeyB64 === undefined) return null;
  return {
    email,
    privateKey,
    signingPrivateKey,
    signingPublicKeyB64,
    ...(driveKey === undefined ? {} : { driveKey }),
  };
}
