/**
 * A small app for the payments tests, composed like `createApp` (error handling, real bearer-token
 * verification against a local issuer, the users, contacts and payments modules on a real database)
 * until the composition root wires the payments module; then `startTestApp` with a `paymentProvider`
 * override can replace it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../config.js';
import type { Config } from '../../config.js';
import { registerErrorHandling } from '../../http/error-handler.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import { registerAuth } from '../../infra/auth/auth.plugin.js';
import { createJoseTokenVerifier } from '../../infra/auth/token-verifier.js';
import type { PaymentProvider } from '../../infra/payments/payment-provider.js';
import { createPaymentProvider } from '../../infra/payments/payment-provider.factory.js';
import type { TestDatabase } from '../../test/db.js';
import { startTestIssuer, userClaims } from '../../test/test-issuer.js';
import type { TestIssuer } from '../../test/test-issuer.js';
import { clientConfigRoutes } from '../client-config/client-config.routes.js';
import { createContactsRepo } from '../contacts/contacts.repo.js';
import { contactsRoutes } from '../contacts/contacts.routes.js';
import { createContactsService } from '../contacts/contacts.service.js';
import { limitsFor } from '../users/plans.js';
import { createUsersRepo } from '../users/users.repo.js';
import { usersRoutes } from '../users/users.routes.js';
import { createUsersService } from '../users/users.service.js';
import type { Payments } from './payments.plugin.js';
import { createPayments, registerPayments, registerPaymentsPublic } from './payments.plugin.js';

export const TEST_PUBLIC_URL = 'http://coffer.test';

/** A clock the test moves by hand. */
export interface TestClock {
  now: () => Date;
  set(date: Date): void;
  advance(ms: number): void;
}

export function testClock(start = new Date()): TestClock {
  let current = start;
  return {
    now: () => new Date(current.getTime()),
    set(date) {
      current = date;
    },
    advance(ms) {
      current = new Date(current.getTime() + ms);
    },
  };
}

export interface PaymentsTestApp {
  app: FastifyInstance;
  config: Config;
  issuer: TestIssuer;
  payments: Payments;
  clock: TestClock;
  /** `inject` as the named test user (alice → alice@example.test), or anonymously with null. */
  as(name: string | null, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function startPaymentsTestApp(options: {
  database: TestDatabase;
  env?: Record<string, string>;
  /** Built from the config (demo unless STRIPE_SECRET_KEY is in `env`) when absent. */
  provider?: PaymentProvider;
  clock?: TestClock;
}): Promise<PaymentsTestApp> {
  const issuer = await startTestIssuer();
  const dataDir = mkdtempSync(join(tmpdir(), 'coffer-payments-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: TEST_PUBLIC_URL,
    OIDC_ISSUER: issuer.issuer,
    OIDC_AUDIENCE: issuer.audience,
    ...options.env,
  });
  const clock = options.clock ?? testClock();
  const { now } = clock;
  const { db } = options.database;

  const app: FastifyTypeBox = Fastify({ logger: false })
    .setValidatorCompiler(TypeBoxValidatorCompiler)
    .withTypeProvider<TypeBoxTypeProvider>();
  registerErrorHandling(app);

  const users = createUsersService({
    db,
    repo: createUsersRepo(db),
    adminEmails: [],
    emailVerifiedWhenAbsent: false,
    plans: config.plans,
    now,
  });
  const contacts = createContactsService({
    repo: createContactsRepo(db),
    maxContactsOf: (user) => limitsFor(user, config.plans, now()).limits.maxContacts,
    now,
  });
  const authenticate = registerAuth(app, {
    verifier: createJoseTokenVerifier({ issuer: issuer.issuer, audience: issuer.audience }),
    onIdentity: (identity) => users.resolve(identity),
  });
  const payments = createPayments({
    db,
    provider: options.provider ?? (await createPaymentProvider(config, db, { now })),
    config,
    logger: app.log,
    now,
  });

  await registerPaymentsPublic(app, { payments });
  await app.register(
    (api, _opts, done) => {
      clientConfigRoutes(api, config);
      api.register((scope: FastifyTypeBox, _o, next) => {
        scope.addHook('onRequest', authenticate);
        usersRoutes(scope, { users, verification: null });
        contactsRoutes(scope, { contacts });
        registerPayments(scope, { payments });
        next();
      });
      done();
    },
    { prefix: '/api' },
  );
  await app.ready();

  return {
    app,
    config,
    issuer,
    payments,
    clock,
    async as(name, injectOptions) {
      const headers = { ...(injectOptions.headers ?? {}) };
      if (name !== null) headers.authorization = `Bearer ${await issuer.mintToken(userClaims(name))}`;
      return app.inject({ ...injectOptions, headers });
    },
    async close() {
      await app.close();
      await issuer.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
