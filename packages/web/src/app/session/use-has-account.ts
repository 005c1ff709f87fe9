/**
 * Whether a signed-in account exists in this browser.
 * Extension point: the auth issue answers this from the OIDC session (oidc-client-ts user in
 * local storage). Until then every visitor counts as signed in, so the placeholder screens show.
 */
export function useHasAccount(): boolean {
  return true;
}
