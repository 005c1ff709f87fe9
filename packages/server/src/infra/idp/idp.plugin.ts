import type { IncomingMessage, ServerResponse } from 'node:http';
import middie from '@fastify/middie';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { ConfigError } from '../../config.js';
import type { TokenVerifier } from '../auth/token-verifier.js';
import type { Database } from '../db/database.js';
import type { Mailer } from '../mail/mailer.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import { createAccountMail } from './idp.account-mail.js';
import type { AccountMail } from './idp.account-mail.js';
import { accountLinkRoutes } from './idp.account.routes.js';
import { createIdpEmailTokensRepo } from './idp.email-tokens.repo.js';
import { ipRule } from './idp.limits.js';
import { createGoogleFederation } from './google.federation.js';
import { createIdpAccountsRepo } from './idp.accounts.repo.js';
import { createIdpAdapterFactory, deleteExpiredIdpPayloads } from './idp.adapter.js';
import { googleRoutes } from './google.routes.js';
import { createInteractionPages, interactionPaths } from './idp.interaction-pages.js';
import { interactionRoutes } from './idp.interactions.routes.js';
import { loadOrCreateIdpKeys } from './idp.keys.js';
import { createIdpProvider } from './idp.provider.js';
import { createEmbeddedTokenVerifier } from './idp.token-verifier.js';
import { setUpIdpSecurity } from './idp.security.setup.js';
import { withSessionCutoff } from '../auth/token-cutoff.js';
import { createDecoyVerifier, DEFAULT_PASSWORD_HASH_PARAMS } from './password-hash.js';

export interface EmbeddedIdpOptions {
  config: Config;
  database: Database;
  mailer: Mailer;
  limiter: RateLimiter;
  now: () => Date;
}

export interface EmbeddedIdp {
  /** Verifies the embedded provider's access tokens in-process (no HTTP round trip to itself). */
  tokenVerifier: TokenVerifier | null;
  /** The issuer (`PUBLIC_URL/idp`), as in its tokens' `iss`. */
  issuer: string;
  /** Confirmation and reset mail, for the API's "send the confirmation again". */
  accountMail: AccountMail;
}

/** Where the provider lives under PUBLIC_URL; the issuer is `${publicUrl}${IDP_PATH}`. */
export const IDP_PATH = '/idp';

/** Paths under {@link IDP_PATH} served by Fastify routes (our pages) rather than oidc-provider. */
const OWN_PATHS = /^\/(interaction|federation|assets)\/|^\/(email\/verify|password\/reset|account)(\?|$|\/)/;

/** How long a local account may wait for its address to be confirmed before it is deleted. */
export const UNCONFIRMED_ACCOUNT_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * oidc-provider builds its discovery document and every endpoint URL from the request's Host and
 * X-Forwarded-* headers. Those are the caller's to choose, and a shared cache could keep a poisoned
 * answer; so every request reaches the provider as if sent to PUBLIC_URL, whatever it said.
 */
function pinToPublicUrl(req: IncomingMessage, publicUrl: URL): void {
  const proto = publicUrl.protocol.replace(/:$/, '');
  req.headers.host = publicUrl.host;
  req.headers['x-forwarded-host'] = publicUrl.host;
  req.headers['x-forwarded-proto'] = proto;
  delete req.headers.forwarded;
}

const CLEANUP_INTERVAL_MS = 10 * 60 * 1000;

/**
 * oidc-provider answers on the raw response, past Fastify's hooks (helmet among them), so its pages
 * (logout confirmation, errors, the form_post fallback) get the same policy here. oidc-provider adds
 * the hash of its one inline script (form_post) to this header itself.
 */
function providerSecurityHeaders(publicUrl: string): Record<string, string> {
  return {
    'content-security-policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      `form-action 'self' ${publicUrl}`,
      "frame-ancestors 'none'",
      "object-src 'none'",
      "base-uri 'self'",
    ].join(';'),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}

/**
 * Mounts the embedded OpenID Connect provider at `/idp` (issuer `PUBLIC_URL/idp`): oidc-provider for the
 * protocol endpoints, and our own sign-in, sign-up and Google pages under `/idp/interaction` and
 * `/idp/federation`. State and keys live in the app's database. Returns a verifier for its tokens.
 */
export async function registerEmbeddedIdp(
  app: FastifyInstance,
  options: EmbeddedIdpOptions,
): Promise<EmbeddedIdp> {
  const { config } = options;
  const { db } = options.database;
  const issuer = `${config.publicUrl}${IDP_PATH}`;
  const audience = config.auth.audience;
  if (URL.parse(audience) === null) {
    throw new ConfigError(
      `OIDC_AUDIENCE must be an absolute URL for the embedded provider, got "${audience}"`,
    );
  }
  const { now } = options;
  const pages = { appUrl: config.publicUrl };
  const passwordHash = { ...DEFAULT_PASSWORD_HASH_PARAMS, logN: config.idpPasswordCost };

  const keys = await loadOrCreateIdpKeys(db);
  const accounts = createIdpAccountsRepo(db);
  const adapter = createIdpAdapterFactory(db, now);
  const provider = createIdpProvider({
    issuer,
    pages,
    clientId: config.auth.clientId,
    audience,
    keys,
    adapter,
    accounts,
  });
  provider.on('server_error', (_ctx, error) => {
    app.log.error({ err: error }, 'identity provider error');
  });

  const headers = providerSecurityHeaders(config.publicUrl);
  const publicUrl = new URL(config.publicUrl);
  const callback = provider.callback();
  await app.register(middie);
  app.use(IDP_PATH, (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => {
    if (OWN_PATHS.test(req.url ?? '')) {
      next();
      return;
    }
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    pinToPublicUrl(req, publicUrl);
    void callback(req, res);
  });

  const google =
    config.google === undefined
      ? null
      : createGoogleFederation({ ...config.google, redirectUri: `${issuer}/federation/google/callback` });
  const paths = interactionPaths(IDP_PATH);
  const limits = ipRule(config.idpAttemptsPerIp);
  const decoyVerify = createDecoyVerifier(passwordHash);
  const security = await setUpIdpSecurity({
    db,
    provider,
    basePath: IDP_PATH,
    issuer,
    publicUrl: config.publicUrl,
    pages,
    accounts,
    mailer: options.mailer,
    limiter: options.limiter,
    ipRule: limits,
    adapter,
    decoyVerify,
    logger: app.log,
    now,
  });
  const respond = createInteractionPages({
    provider,
    paths,
    pages,
    googleEnabled: google !== null,
    passkeyAssets: security.assets,
  });
  const tokens = createIdpEmailTokensRepo(db);
  const accountMail = createAccountMail({
    accounts,
    tokens,
    mailer: options.mailer,
    limiter: options.limiter,
    issuer,
    appUrl: config.publicUrl,
    logger: app.log,
    now,
  });
  await app.register((scope, _opts, done) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16 * 1024 },
      (_request, body, parsed) => {
        parsed(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    const secondStep = security.register(scope, { paths, respond });
    interactionRoutes(scope, {
      secondStep: secondStep.start,
      provider,
      paths,
      respond,
      pages,
      clientId: config.auth.clientId,
      accounts,
      passwordHash,
      decoyVerify,
      limiter: options.limiter,
      ipRule: limits,
      accountMail,
      googleEnabled: google !== null,
      now,
    });
    accountLinkRoutes(scope, {
      basePath: IDP_PATH,
      pages,
      accounts,
      tokens,
      limiter: options.limiter,
      ipRule: limits,
      passwordHash,
      decoyVerify,
      endAccessTokens: security.endAccessTokens,
      now,
    });
    if (google !== null) {
      googleRoutes(scope, { provider, paths, respond, google, accounts, trips: adapter('GoogleTrip'), now });
    }
    done();
  });

  const cleanup = async () => {
    try {
      await deleteExpiredIdpPayloads(db, now());
      await tokens.deleteStale(now());
      await accounts.deleteUnconfirmedBefore(new Date(now().getTime() - UNCONFIRMED_ACCOUNT_TTL_MS));
      await options.limiter.deleteExpired();
      await security.cleanup(now());
    } catch (error) {
      app.log.warn({ err: error }, 'could not delete expired identity provider records');
    }
  };
  await cleanup();
  const timer = setInterval(() => void cleanup(), CLEANUP_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', () => {
    clearInterval(timer);
  });

  return {
    issuer,
    accountMail,
    // "Sign out everywhere" ends the account's access tokens issued until then, on every instance.
    tokenVerifier: withSessionCutoff(
      createEmbeddedTokenVerifier({ issuer, audience, signing: keys.signing, logger: app.log }),
      security.cutoffOf,
    ),
  };
}
