import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { AdapterFactory, KoaContextWithOIDC } from 'oidc-provider';
import type Provider from 'oidc-provider';
import type { DB } from '../db/schema.js';
import { loadOrCreateServerSecret } from '../db/server-secrets.js';
import type { Mailer } from '../mail/mailer.js';
import type { RateLimiter, RateLimitRule } from '../rate-limit/rate-limiter.js';
import type { IdpAccountsRepo } from './idp.accounts.repo.js';
import { idpAssetRoutes } from './idp.assets.js';
import { createIdpFactorsRepo } from './idp.factors.repo.js';
import type { InteractionPages, InteractionPaths } from './idp.interaction-pages.js';
import type { PageContext } from './idp.pages.js';
import { secondFactorRoutes } from './idp.second-factor.routes.js';
import type { SecondFactorStep } from './idp.second-factor.routes.js';
import { createSecretBox } from './idp.secret-box.js';
import { securityPaths, securityRoutes } from './idp.security.routes.js';
import { createIdpSecurity } from './idp.security.service.js';
import type { IdpSecurity } from './idp.security.service.js';
import { createIdpSignInsRepo } from './idp.sign-ins.repo.js';

/** Identifies a browser across sign-ins (for "new device" mail); random, httpOnly, only under /idp. */
const DEVICE_COOKIE = 'coffer_idp_device';
const DEVICE_COOKIE_MAX_AGE_MS = 400 * 24 * 60 * 60 * 1000;
/** A browser unseen for this long counts as new again. */
const FORGET_SIGN_INS_AFTER_MS = 180 * 24 * 60 * 60 * 1000;

export interface IdpSecurityOptions {
  db: Kysely<DB>;
  provider: Provider;
  /** `/idp` */
  basePath: string;
  issuer: string;
  publicUrl: string;
  pages: PageContext;
  accounts: IdpAccountsRepo;
  mailer: Mailer;
  limiter: RateLimiter;
  ipRule: RateLimitRule;
  adapter: AdapterFactory;
  decoyVerify: (password: string) => Promise<void>;
  logger: FastifyBaseLogger;
  now: () => Date;
}

export interface IdpSecurityParts {
  security: IdpSecurity;
  /** Where the passkey scripts are served. */
  assets: string;
  /** Registers the security page, the second-step routes and the scripts; returns the second step. */
  register: (
    scope: FastifyInstance,
    interaction: { paths: InteractionPaths; respond: InteractionPages },
  ) => SecondFactorStep;
  /** The account's "sign out everywhere" time, for the API's token check. */
  cutoffOf: (accountId: string) => Promise<Date | undefined>;
  /** Makes the API refuse the account's access tokens issued until now (a password reset). */
  endAccessTokens: (accountId: string) => Promise<void>;
  cleanup: (now: Date) => Promise<void>;
}

function deviceHashOf(ctx: KoaContextWithOIDC): string {
  let device = ctx.cookies.get(DEVICE_COOKIE, { signed: false });
  if (device === undefined || !/^[A-Za-z0-9_-]{20,64}$/.test(device)) {
    device = randomBytes(24).toString('base64url');
    ctx.cookies.set(DEVICE_COOKIE, device, {
      signed: false,
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: ctx.secure,
      maxAge: DEVICE_COOKIE_MAX_AGE_MS,
    });
  }
  return createHash('sha256').update(device).digest('hex');
}

/** Builds the embedded provider's sign-in security (see idp.security.service.ts) and hooks it to the provider. */
export async function setUpIdpSecurity(options: IdpSecurityOptions): Promise<IdpSecurityParts> {
  const { db, provider, logger, now } = options;
  const factors = createIdpFactorsRepo(db);
  const signIns = createIdpSignInsRepo(db);
  const box = createSecretBox(await loadOrCreateServerSecret(db, 'idp-totp', now()));
  const csrfKey = await loadOrCreateServerSecret(db, 'idp-account-csrf', now());
  const urls = securityPaths(options.basePath);
  const publicUrl = new URL(options.publicUrl);
  const security = createIdpSecurity({
    accounts: options.accounts,
    factors,
    signIns,
    box,
    mailer: options.mailer,
    logger,
    webauthn: { rpId: publicUrl.hostname, origin: publicUrl.origin },
    securityUrl: `${options.publicUrl}${urls.page}`,
    now,
  });

  // Every completed authorization (a sign-in, a silent renewal) records the session and its browser.
  provider.on('authorization.success', (ctx: KoaContextWithOIDC) => {
    const session = ctx.oidc.session;
    const accountId = session?.accountId;
    if (session === undefined || accountId === undefined) return;
    const deviceHash = deviceHashOf(ctx);
    security
      .sawSession({ sessionUid: session.uid, accountId, deviceHash, userAgent: ctx.get('user-agent') })
      .catch((error: unknown) => {
        logger.warn({ err: error }, 'could not record an identity provider sign-in');
      });
  });
  // A token refresh is the session in use: its "last seen".
  provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
    const token = ctx.oidc.entities.RefreshToken ?? ctx.oidc.entities.AuthorizationCode;
    const sessionUid = token?.sessionUid;
    if (typeof sessionUid !== 'string') return;
    signIns.touch(sessionUid, now()).catch((error: unknown) => {
      logger.warn({ err: error }, 'could not record a session refresh');
    });
  });

  return {
    security,
    assets: urls.assets,
    register: (scope, interaction) => {
      idpAssetRoutes(scope, options.basePath);
      securityRoutes(scope, {
        basePath: options.basePath,
        provider,
        pages: options.pages,
        accounts: options.accounts,
        security,
        limiter: options.limiter,
        ipRule: options.ipRule,
        csrfKey,
        decoyVerify: options.decoyVerify,
        now,
      });
      return secondFactorRoutes(scope, {
        paths: interaction.paths,
        respond: interaction.respond,
        pages: options.pages,
        security,
        pending: options.adapter('SecondFactor'),
        limiter: options.limiter,
        ipRule: options.ipRule,
        assets: urls.assets,
      });
    },
    cutoffOf: (accountId) => signIns.cutoffOf(accountId),
    endAccessTokens: (accountId) => signIns.setCutoff(accountId, options.now()),
    cleanup: async (at) => {
      await factors.deleteExpiredChallenges(at);
      await signIns.deleteStale(new Date(at.getTime() - FORGET_SIGN_INS_AFTER_MS));
    },
  };
}
