import type { ApiClient } from '../../lib/api/http';
import { useApiClient } from '../../lib/api/context';
import type { UnlockedKeys } from '../../lib/encryption/unlocked-keys';
import type { TrustSession } from '../../lib/trust/trust-session';
import { useCurrentUser } from '../../session/current-user';
import { useAppSession, useEncryptionState } from '../../session/session-context';

/** What opening something shared with me needs: the API, my pins, my email and my unlocked keys. */
export interface Recipient {
  readonly api: ApiClient;
  readonly trust: TrustSession;
  /** Null while signed out. */
  readonly email: string | null;
  /** Null while encryption is locked. */
  readonly keys: UnlockedKeys | null;
  /** Both my email and my keys are there: a received share can be checked and opened. */
  readonly ready: boolean;
}

/** Me as the recipient of shares (a shared file's check, the folders shared with me). */
export function useRecipient(): Recipient {
  const api = useApiClient();
  const { trust } = useAppSession();
  const encryption = useEncryptionState();
  const email = useCurrentUser()?.email ?? null;
  const keys = encryption.status === 'unlocked' ? encryption.keys : null;
  return { api, trust, email, keys, ready: keys !== null && email !== null };
}
