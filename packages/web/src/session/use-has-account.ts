import { useAuthSnapshot } from './session-context';

/** Whether a signed-in account exists in this browser (oidc-client-ts user in local storage). */
export function useHasAccount(): boolean {
  return useAuthSnapshot().status === 'signed-in';
}
