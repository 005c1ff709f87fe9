import { paths } from '../../lib/navigation/paths';
import { SIGN_IN_ACTION_PARAM } from '../../lib/navigation/navigation-rules';

/**
 * Where 'Log in' and 'Create account' lead: /unlock with an action. Its loader sends a visitor to
 * the identity provider's sign-in or sign-up page (`prompt=create`), carrying the remembered path;
 * the provider sends the browser back to /unlock, which completes the sign-in. A visitor who is
 * already signed in simply goes on to unlock.
 */
export const signInPath = `${paths.unlock}?${SIGN_IN_ACTION_PARAM}=sign-in`;
export const signUpPath = `${paths.unlock}?${SIGN_IN_ACTION_PARAM}=sign-up`;
