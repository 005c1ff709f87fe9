import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import Fastify, { LogController } from 'fastify';
import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { registerErrorHandling } from './http/error-handler.js';
import { registerJsonCompression } from './http/json-compression.js';
import { refuseNul } from './http/nul-guard.js';
import { registerRequestTimeouts } from './http/request-timeouts.js';
import type { FastifyTypeBox } from './http/fastify-typebox.js';
import { registerOpenApi } from './http/openapi.js';
import { registerAuth } from './infra/auth/auth.plugin.js';
import type { TokenVerifier } from './infra/auth/token-verifier.js';
import { createJoseTokenVerifier } from './infra/auth/token-verifier.js';
import type { Database } from './infra/db/database.js';
import { registerEmbeddedIdp } from './infra/idp/idp.plugin.js';
import { answerMalformedRequest } from './http/client-error.js';
import { createDatabase, truncateJournal } from './infra/db/database.js';
import { migrateToLatest } from './infra/db/migrate.js';
import { createMailer } from './infra/mail/create-mailer.js';
import type { Mailer } from './infra/mail/mailer.js';
import type { BlobStore } from './infra/storage/blob-store.js';
import { createBlobStore } from './infra/storage/blob-store.factory.js';
import { registerWebApp } from './infra/web/web-app.js';
import { clientConfigRoutes } from './modules/client-config/client-config.routes.js';
import { contactsRoutes } from './modules/contacts/contacts.routes.js';
import { createContactsRepo } from './modules/contacts/contacts.repo.js';
import { createContactsService } from './modules/contacts/contacts.service.js';
import { createFeedbackRepo } from './modules/feedback/feedback.repo.js';
import { feedbackRoutes } from './modules/feedback/feedback.routes.js';
import { createFeedbackService } from './modules/feedback/feedback.service.js';
import { createDownloadsService } from './modules/files/downloads.service.js';
import { createFilesRepo } from './modules/files/files.repo.js';
import { filesRoutes } from './modules/files/files.routes.js';
import { createFilesService } from './modules/files/files.service.js';
import { createFolderSharesRepo } from './modules/folders/folder-shares.repo.js';
import { createFolderSharesService } from './modules/folders/folder-shares.service.js';
import { createFoldersRepo } from './modules/folders/folders.repo.js';
import { foldersRoutes } from './modules/folders/folders.routes.js';
import { createFoldersService } from './modules/folders/folders.service.js';
import { createLinksRepo } from './modules/links/links.repo.js';
import { linksPublicRoutes } from './modules/links/links.public.routes.js';
import { linksRoutes } from './modules/links/links.routes.js';
import { createLinksService } from './modules/links/links.service.js';
import { createRequestUploadsService } from './modules/requests/request-uploads.service.js';
import { requestsPublicRoutes } from './modules/requests/requests.public.routes.js';
import { createRequestsRepo } from './modules/requests/requests.repo.js';
import { requestsRoutes } from './modules/requests/requests.routes.js';
import { createRequestsService } from './modules/requests/requests.service.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { invitationsRoutes } from './modules/invitations/invitations.routes.js';
import { createInvitationsService } from './modules/invitations/invitations.service.js';
import { createKeysRepo } from './modules/keys/keys.repo.js';
import { keysRoutes } from './modules/keys/keys.routes.js';
import { createKeysService } from './modules/keys/keys.service.js';
import { createRecoveryKitsRepo } from './modules/keys/recovery.repo.js';
import { recoveryRoutes } from './modules/keys/recovery.routes.js';
import { createRecoveryService } from './modules/keys/recovery.service.js';
import { createSharesRepo } from './modules/shares/shares.repo.js';
import { sharesRoutes } from './modules/shares/shares.routes.js';
import { createSharesService } from './modules/shares/shares.service.js';
import { createUploadPolicy } from './modules/uploads/upload-policy.js';
import { createUploadSweeper } from './modules/uploads/upload-sweeper.js';
import type { PaymentProvider } from './infra/payments/payment-provider.js';
import { createPaymentProvider } from './infra/payments/payment-provider.factory.js';
import {
  createPayments,
  registerPayments,
  registerPaymentsPublic,
} from './modules/payments/payments.plugin.js';
import { createUploadsRepo } from './modules/uploads/uploads.repo.js';
import { uploadsRoutes } from './modules/uploads/uploads.routes.js';
import { createUploadsService } from './modules/uploads/uploads.service.js';
import { limitsFor } from './modules/users/plans.js';
import { createUsersRepo } from './modules/users/users.repo.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { createUsersService } from './modules/users/users.service.js';
import { createPinsRepo } from './modules/pins/pins.repo.js';
import { pinsRoutes } from './modules/pins/pins.routes.js';
import { registerAppMetrics } from './infra/metrics/app-metrics.js';
import { createRateLimiter } from './infra/rate-limit/rate-limiter.js';
import { SERVER_VERSION } from './version.js';
import { requestLogFields } from './http/request-log.js';

/** Adapters a test may replace; everything not given is built from the config. */
export interface AppOverrides {
  logger?: boolean;
  /** Where log lines go (tests read them); stdout when absent. */
  logStream?: { write(line: string): void };
  /** An open, migrated database; the app will not close it. */
  database?: Database;
  tokenVerifier?: TokenVerifier;
  mailer?: Mailer;
  now?: () => Date;
  /** Where file content lives; built from `config.storage` when absent. */
  blobStore?: BlobStore;
  /** Card payments; built from `config.payments` (Stripe or the built-in demo) when absent. */
  paymentProvider?: PaymentProvider;
}

/**
 * Builds headers for a single-page app that loads only its own code and talks only to its own API.
 * `upgrade-insecure-requests` (one of helmet's defaults) only when the app is served over HTTPS:
 * on a plain-HTTP address other than localhost (a LAN install) the browser would otherwise rewrite
 * every script and API request to an https:// URL nobody answers, and the page would stay blank.
 */
function contentSecurityPolicy(config: Config): Record<string, string[] | null> {
  const connect = ["'self'"];
  if (config.auth.issuer !== undefined) connect.push(new URL(config.auth.issuer).origin);
  if (config.analytics !== null) connect.push(new URL(config.analytics.host).origin);
  return {
    defaultSrc: ["'self'"],
    // Argon2id (hash-wasm) compiles WebAssembly: 'wasm-unsafe-eval' allows that and nothing else
    // (no eval of JavaScript).
    scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
    // Mantine sets style attributes at run time.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    connectSrc: connect,
    workerSrc: ["'self'", 'blob:'],
    frameAncestors: ["'none'"],
    formAction: ["'self'", config.publicUrl],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    upgradeInsecureRequests: new URL(config.publicUrl).protocol === 'https:' ? [] : null,
  };
}

/** A proxy's request id when it looks like one (letters, digits, `-._:`, at most 64), else a new one. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
function requestIdOf(request: { headers: Record<string, string | string[] | undefined> }): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** TRUST_PROXY as a hop count: the first `hops` peers from this server may forward the client's address. */
function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

/**
 * The one composition root: builds every adapter from `config` (or takes it from `overrides`) and
 * wires the HTTP routes. Nothing else in the server reads the environment or picks a backend.
 */
export async function createApp(config: Config, overrides: AppOverrides = {}): Promise<FastifyInstance> {
  const app: FastifyTypeBox = Fastify({
    logger:
      overrides.logger === false
        ? false
        : {
            level: config.logLevel,
            // Method, path and query parameter names only: no header, no query value (secrets).
            serializers: { req: requestLogFields },
            redact: ['req.headers.authorization'],
            ...(overrides.logStream === undefined ? {} : { stream: overrides.logStream }),
          },
    // Request bodies other than uploads are small JSON documents.
    bodyLimit: 1024 * 1024,
    // Every log line of a request carries its id, and the answer names it (x-request-id), so a user's
    // report and the lines of every instance behind a proxy can be tied together.
    requestIdHeader: false,
    genReqId: requestIdOf,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    // X-Forwarded-* only from the proxies TRUST_PROXY names (none by default): rate limits key on the IP.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // What Node's HTTP parser refuses is answered in the API's error shape too.
    clientErrorHandler: answerMalformedRequest,
  })
    .setValidatorCompiler(TypeBoxValidatorCompiler)
    .withTypeProvider<TypeBoxTypeProvider>();

  const now = overrides.now ?? (() => new Date());

  const database =
    overrides.database ??
    (await (async () => {
      const opened = createDatabase({
        url: config.databaseUrl,
        dataDir: config.dataDir,
        poolSize: config.databasePoolSize,
        logger: app.log,
      });
      await migrateToLatest(opened.db);
      app.addHook('onClose', () => opened.destroy());
      return opened;
    })());
  const { db } = database;

  const mailer =
    overrides.mailer ??
    (() => {
      const created = createMailer({
        smtpUrl: config.mail.smtpUrl,
        from: config.mail.from,
        outboxDir: join(config.dataDir, 'outbox'),
        logger: app.log,
      });
      app.addHook('onClose', () => created.close());
      return created;
    })();

  const blobStore = overrides.blobStore ?? createBlobStore(config.storage);
  const limiter = createRateLimiter(db, now);

  // Before the identity provider: its middleware answers in an onRequest hook, and hooks run in the
  // order they were added, so a metrics hook added after it would never see the provider's requests.
  const metrics = config.metrics === null ? undefined : registerAppMetrics(app, config.metrics, database);
  // The embedded identity provider runs only when no external issuer is configured.
  const embeddedIdp =
    config.auth.issuer === undefined
      ? await registerEmbeddedIdp(app, { config, database, mailer, limiter, now })
      : null;
  const issuer = config.auth.issuer ?? `${config.publicUrl}/idp`;
  const tokenVerifier =
    overrides.tokenVerifier ??
    embeddedIdp?.tokenVerifier ??
    createJoseTokenVerifier({
      issuer,
      audience: config.auth.audience,
      defaultIdp: config.auth.issuer === undefined ? 'local' : undefined,
      logger: app.log,
    });

  // Repositories and services.
  const usersRepo = createUsersRepo(db);
  const users = createUsersService({
    db,
    repo: usersRepo,
    adminEmails: config.adminEmails,
    emailVerifiedWhenAbsent: config.auth.emailVerifiedWhenAbsent,
    plans: config.plans,
    now,
  });
  const keysRepo = createKeysRepo(db);
  const pinsRepo = createPinsRepo(db);
  const keys = createKeysService({ repo: keysRepo, users: usersRepo, pins: pinsRepo, now });
  const recovery = createRecoveryService({ keys: keysRepo, kits: createRecoveryKitsRepo(db), now });
  const contactsRepo = createContactsRepo(db);
  const contacts = createContactsService({
    repo: contactsRepo,
    maxContactsOf: (user) => limitsFor(user, config.plans, now()).limits.maxContacts,
    now,
  });
  const invitations = createInvitationsService({
    db,
    contacts: contactsRepo,
    mailer,
    appUrl: config.publicUrl,
    logger: app.log,
    now,
  });
  const feedback = createFeedbackService({ repo: createFeedbackRepo(db), limiter, now });
  const filesRepo = createFilesRepo(db);
  const downloads = createDownloadsService({
    blobStore,
    files: filesRepo,
    plans: config.plans,
    logger: app.log,
    now,
  });
  const files = createFilesService({
    repo: filesRepo,
    blobStore,
    downloads,
    logger: app.log,
    // A migrated file's clear name must not linger in SQLite's write-ahead log (issue 31).
    afterNodesChanged: () => truncateJournal(database),
  });
  const uploadsRepo = createUploadsRepo(db);
  const uploads = createUploadsService({
    repo: uploadsRepo,
    files: filesRepo,
    policy: createUploadPolicy({
      uploads: uploadsRepo,
      keys: keysRepo,
      plans: config.plans,
      idleMinutes: config.uploadIdleMinutes,
      now,
    }),
    blobStore,
    logger: app.log,
    now,
    expiryHours: config.uploadExpiryHours,
  });
  const shares = createSharesService({
    repo: createSharesRepo(db),
    files: filesRepo,
    users: usersRepo,
    keys: keysRepo,
    downloads,
    maxSharesOf: (user) => limitsFor(user.row, config.plans, now()).limits.maxShares,
    mailer,
    appUrl: config.publicUrl,
    logger: app.log,
    now,
  });
  const foldersRepo = createFoldersRepo(db);
  const folders = createFoldersService({ repo: foldersRepo, blobStore, logger: app.log, now });
  const folderShares = createFolderSharesService({
    repo: createFolderSharesRepo(db),
    users: usersRepo,
    keys: keysRepo,
    downloads,
    maxSharesOf: (user) => limitsFor(user.row, config.plans, now()).limits.maxShares,
    ownsFolder: async (userId, nodeId) => (await foldersRepo.findFor(userId, nodeId)) !== undefined,
    now,
  });
  const links = createLinksService({ repo: createLinksRepo(db), blobStore, limiter, now, logger: app.log });
  const requestsRepo = createRequestsRepo(db);
  const requests = createRequestsService({ repo: requestsRepo, limiter, now });
  const requestUploads = createRequestUploadsService({
    repo: requestsRepo,
    uploads,
    uploadsRepo,
    users: usersRepo,
    limiter,
    now,
  });
  const payments = createPayments({
    db,
    provider: overrides.paymentProvider ?? (await createPaymentProvider(config, db, { now })),
    config,
    logger: app.log,
    now,
  });
  const uploadSweeper = createUploadSweeper({
    repo: uploadsRepo,
    blobStore,
    expiryHours: config.uploadExpiryHours,
    idleMinutes: config.uploadIdleMinutes,
    logger: app.log,
    now,
    ...(metrics === undefined ? {} : { onSweep: metrics.onSweep }),
  });
  let linkSweep: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    await blobStore.open?.();
    // At start first: what a crash left pending must not wait for the first tick.
    await uploadSweeper.sweep().catch((err: unknown) => {
      app.log.warn({ err }, 'upload sweep at start failed');
    });
    uploadSweeper.start(config.sweepIntervalMinutes * 60_000);
    // Expired link download sessions go on the same tick (links.service: sweepDownloads).
    linkSweep = setInterval(() => {
      links.sweepDownloads().catch((err: unknown) => {
        app.log.warn({ err }, 'link download sweep failed');
      });
    }, config.sweepIntervalMinutes * 60_000);
    linkSweep.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(linkSweep);
    await uploadSweeper.stop();
  });

  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  registerErrorHandling(app);
  registerJsonCompression(app);
  registerRequestTimeouts(app, {
    requestTimeoutMs: config.requestTimeoutSeconds * 1000,
    upload: {
      windowMs: config.uploadRateWindowSeconds * 1000,
      minBytes: config.uploadMinBytesPerSecond * config.uploadRateWindowSeconds,
    },
  });
  // Helmet's middleware, built once: @fastify/helmet built it again for every request (parsing the whole
  // policy each time: 4 % of an instance's CPU under the metadata load benchmark).
  const securityHeaders = helmet({
    contentSecurityPolicy: { directives: contentSecurityPolicy(config) },
    crossOriginEmbedderPolicy: false,
    // The one referrer policy of the app (index.html carries no <meta name="referrer"> to override it):
    // no page address, which may hold a file or share id, ever leaves in a Referer header.
    referrerPolicy: { policy: 'no-referrer' },
  });
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (error?: unknown) => {
      done(error instanceof Error ? error : undefined);
    });
  });
  await registerOpenApi(app, { version: SERVER_VERSION, publicUrl: config.publicUrl });

  await registerPaymentsPublic(app, { payments });

  const authenticate = registerAuth(app, {
    verifier: tokenVerifier,
    onIdentity: (identity, request) =>
      users.resolve(identity, request.routeOptions.config.recentUser === true ? 'recent' : 'current'),
  });

  await app.register(
    (api, _opts, done) => {
      healthRoutes(api, { version: SERVER_VERSION, db, blobStore });
      clientConfigRoutes(api, config);
      // Link and file request pages: no bearer token; the link proof travels in X-Link-Auth.
      linksPublicRoutes(api, { links, requests });
      requestsPublicRoutes(api, { requestUploads, authenticate });
      // Everything else under /api needs a verified bearer token, checked before the body is read.
      api.register((scope: FastifyTypeBox, _o, next) => {
        scope.addHook('onRequest', authenticate);
        scope.addHook('preHandler', refuseNul);
        usersRoutes(scope, {
          users,
          verification:
            embeddedIdp === null
              ? null
              : { issuer: embeddedIdp.issuer, accountMail: embeddedIdp.accountMail },
        });
        keysRoutes(scope, { keys });
        recoveryRoutes(scope, { recovery });
        pinsRoutes(scope, { pins: pinsRepo, now });
        contactsRoutes(scope, { contacts });
        invitationsRoutes(scope, { invitations });
        feedbackRoutes(scope, { feedback });
        filesRoutes(scope, { files });
        sharesRoutes(scope, { shares });
        foldersRoutes(scope, { folders, folderShares });
        uploadsRoutes(scope, { uploads });
        linksRoutes(scope, { links, requests });
        requestsRoutes(scope, { requests });
        registerPayments(scope, { payments });
        next();
      });
      done();
    },
    { prefix: '/api' },
  );

  await registerWebApp(app, config.webDistDir, { serveSourceMaps: config.serveSourceMaps });
  return app;
}
