import Provider, { errors, interactionPolicy } from 'oidc-provider';
import type {
  Account,
  AccountClaims,
  AdapterFactory,
  ClientMetadata,
  Configuration,
  FindAccount,
  KoaContextWithOIDC,
  ResourceServer,
} from 'oidc-provider';
import type { IdpAccount, IdpAccountsRepo } from './idp.accounts.repo.js';
import type { IdpKeys } from './idp.keys.js';
import { isAppLogout, renderAppLogoutPage } from './idp.logout.js';
import { renderLogoutPage, renderMessagePage } from './idp.pages.js';
import type { PageContext } from './idp.pages.js';
import { GOOGLE_IDP } from './google.federation.js';

/** The `idp` claim of local (password) accounts. */
export const LOCAL_IDP = 'local';
/** `amr` of a sign-in with the account's password (RFC 8176). */
export const AMR_PASSWORD = 'pwd';
/** `amr` of a sign-in through Google; tokens of such a sign-in carry `idp: google.com`. */
export const AMR_GOOGLE = 'fed';

const MINUTE = 60;
const DAY = 24 * 60 * MINUTE;
/** Short, since the API trusts them without a lookup; the web app refreshes them silently. */
const ACCESS_TOKEN_TTL = 15 * MINUTE;
/** How long a sign-in lasts without a password: the session, the grant and the refresh token chain. */
const SIGN_IN_TTL = 14 * DAY;

export interface IdpProviderOptions {
  /** `${publicUrl}/idp`. */
  issuer: string;
  pages: PageContext;
  /** The web app's public client. */
  clientId: string;
  /** The API's resource indicator and the `aud` of access tokens. */
  audience: string;
  keys: IdpKeys;
  adapter: AdapterFactory;
  accounts: IdpAccountsRepo;
}

/** The claims the app reads (name, email, email_verified, emails, country, idp), for ID and access tokens. */
export function claimsOf(account: IdpAccount, idp: string): Omit<AccountClaims, 'sub'> {
  return {
    name: account.name,
    email: account.email,
    email_verified: account.emailVerified,
    emails: [account.email],
    ...(account.country === null ? {} : { country: account.country }),
    idp,
  };
}

/** How the person signed in, from the code or refresh token a token is issued for. */
function idpOf(token: unknown): string {
  if (typeof token !== 'object' || token === null) return LOCAL_IDP;
  const { amr, extra } = token as { amr?: unknown; extra?: unknown };
  if (Array.isArray(amr)) return amr.includes(AMR_GOOGLE) ? GOOGLE_IDP : LOCAL_IDP;
  // An access token (userinfo): its own claims say.
  const idp = typeof extra === 'object' && extra !== null ? (extra as { idp?: unknown }).idp : undefined;
  return typeof idp === 'string' ? idp : LOCAL_IDP;
}

interface CofferAccount extends Account {
  tokenClaims: Omit<AccountClaims, 'sub'>;
}

function isCofferAccount(account: Account | undefined): account is CofferAccount {
  return account !== undefined && typeof account.tokenClaims === 'object' && account.tokenClaims !== null;
}

/**
 * The interaction policy: oidc-provider's login and consent prompts, and first a `create` prompt
 * (OpenID Connect Prompt Create 1.0), so `prompt=create` opens the sign-up page.
 */
function policy(): interactionPolicy.DefaultPolicy {
  const prompts = interactionPolicy.base();
  prompts.add(new interactionPolicy.Prompt({ name: 'create', requestable: true }), 0);
  return prompts;
}

function pageHtml(ctx: KoaContextWithOIDC, html: string): void {
  ctx.type = 'html';
  ctx.set('cache-control', 'no-store');
  ctx.body = html;
}

/** Errors a person may meet when a link is stale or a request is malformed; nothing internal. */
function errorMessage(error: string, description: string | undefined): string {
  if (error === 'server_error') return 'Something went wrong on our side. Please try again in a moment.';
  if (description?.includes('expired') === true) {
    return 'This sign-in link has expired. Go back to Coffer and sign in again.';
  }
  const text = description ?? 'The request could not be completed';
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;
}

export function createIdpProvider(options: IdpProviderOptions): Provider {
  const { appUrl } = options.pages;
  const client: ClientMetadata = {
    client_id: options.clientId,
    client_name: 'Coffer',
    application_type: 'web',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: [`${appUrl}/unlock`, `${appUrl}/silent-renew.html`],
    post_logout_redirect_uris: [`${appUrl}/landing`, `${appUrl}/login`],
  };

  const resourceServer: ResourceServer = {
    // No scope of its own: the web app asks for `openid profile email offline_access`, and the API
    // checks who the caller is, not scopes.
    scope: '',
    audience: options.audience,
    accessTokenFormat: 'jwt',
    accessTokenTTL: ACCESS_TOKEN_TTL,
    jwt: { sign: { alg: 'RS256' } },
  };

  const findAccount: FindAccount = async (_ctx, sub, token) => {
    const account = await options.accounts.findById(sub);
    if (account === undefined) return undefined;
    const tokenClaims = claimsOf(account, idpOf(token));
    const found: CofferAccount = {
      accountId: account.id,
      tokenClaims,
      claims: () => ({ sub: account.id, ...tokenClaims }),
    };
    return found;
  };

  const configuration: Configuration = {
    adapter: options.adapter,
    clients: [client],
    jwks: { keys: options.keys.signing },
    cookies: {
      keys: options.keys.cookie,
      names: {
        session: 'coffer_idp_session',
        interaction: 'coffer_idp_interaction',
        resume: 'coffer_idp_resume',
      },
    },
    claims: {
      openid: ['sub'],
      profile: ['name', 'country', 'idp'],
      email: ['email', 'email_verified', 'emails'],
    },
    scopes: ['openid', 'offline_access', 'profile', 'email'],
    // Authorization code flow only (with PKCE): no implicit or hybrid responses.
    responseTypes: ['code'],
    // OpenID Connect Prompt Create 1.0 §4: tell clients that `prompt=create` (straight to sign-up) works.
    discovery: { prompt_values_supported: ['none', 'login', 'consent', 'create'] },
    // The access token is for the API, so the ID token carries the profile for the web app.
    conformIdTokenClaims: false,
    findAccount,
    async extraTokenClaims(ctx, token) {
      // Client-credentials tokens (not enabled) have no account.
      const accountId = 'accountId' in token ? token.accountId : undefined;
      if (accountId === undefined) return undefined;
      const account = ctx.oidc.entities.Account;
      if (isCofferAccount(account) && account.accountId === accountId) return account.tokenClaims;
      const found = await findAccount(ctx, accountId, ctx.oidc.entities.RefreshToken);
      return isCofferAccount(found) ? found.tokenClaims : undefined;
    },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // Every token is for the API unless the client names it differently (which then fails below).
        defaultResource: (_ctx, _client, oneOf) =>
          oneOf === undefined
            ? options.audience
            : oneOf.includes(options.audience)
              ? options.audience
              : oneOf,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== options.audience) throw new errors.InvalidTarget();
          return resourceServer;
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => {
          // The web app's own Logout is the person's intent: no second question (see isAppLogout).
          const page = isAppLogout(ctx, options.clientId)
            ? renderAppLogoutPage(options.pages, form, `${new URL(options.issuer).pathname}/assets`)
            : renderLogoutPage(options.pages, form);
          pageHtml(ctx, page);
        },
        postLogoutSuccessSource: (ctx) => {
          pageHtml(
            ctx,
            renderMessagePage(options.pages, {
              title: 'You are signed out',
              message: 'See you soon.',
              kind: 'info',
            }),
          );
        },
      },
    },
    interactions: {
      policy: policy(),
      url: (_ctx, interaction) => `${new URL(options.issuer).pathname}/interaction/${interaction.uid}`,
    },
    // A public client cannot keep a secret, so PKCE is required for it (and for any other).
    pkce: { required: () => true },
    // The web app refreshes without a redirect, even when it did not ask for offline_access.
    issueRefreshToken: (_ctx, rpClient, code) =>
      rpClient.grantTypeAllowed('refresh_token') &&
      (rpClient.clientId === options.clientId || code.scopes.has('offline_access')),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL,
      AuthorizationCode: MINUTE,
      IdToken: ACCESS_TOKEN_TTL,
      Interaction: 60 * MINUTE,
      Session: SIGN_IN_TTL,
      Grant: SIGN_IN_TTL,
      // A rotated token inherits what is left of its predecessor, so a stolen chain ends with the sign-in.
      RefreshToken: (ctx, token) => {
        const rotated = ctx.oidc.entities.RotatedRefreshToken;
        if (rotated !== undefined && !token.isSenderConstrained()) return rotated.remainingTTL;
        return SIGN_IN_TTL;
      },
    },
    clientBasedCORS: (_ctx, origin, rpClient) =>
      rpClient.redirectUris?.some((uri) => URL.parse(uri)?.origin === origin) === true,
    renderError: (ctx, out) => {
      pageHtml(
        ctx,
        renderMessagePage(options.pages, {
          title: 'Sign-in could not continue',
          message: errorMessage(out.error, out.error_description),
          kind: 'error',
        }),
      );
    },
  };

  const provider = new Provider(options.issuer, configuration);
  // The app runs behind the same proxies Fastify trusts (`trustProxy`): honour X-Forwarded-Proto/Host.
  provider.proxy = true;
  return provider;
}
