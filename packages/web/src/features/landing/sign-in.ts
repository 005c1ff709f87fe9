import { paths } from '../../app/router/paths';

/**
 * Where 'Log in' and 'Create account' lead.
 * Extension point: the auth issue replaces these links with the identity provider's sign-in and
 * sign-up redirect (oidc-client-ts `signinRedirect`), whose return target is /unlock.
 */
export const signInPath = paths.unlock;
export const signUpPath = paths.unlock;
