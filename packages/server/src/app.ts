import helmet from '@fastify/helmet';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { registerErrorHandling } from './http/error-handler.js';
import { registerWebApp } from './infra/web/web-app.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { SERVER_VERSION } from './version.js';

/** Adapters a test may replace; everything not given is built from the config. */
export type AppOverrides = Partial<{
  logger: boolean;
}>;

/** Builds headers for a single-page app that loads only its own code and talks only to its own API. */
function contentSecurityPolicy(config: Config): Record<string, string[]> {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    // Mantine sets style attributes at run time.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    connectSrc: ["'self'"],
    workerSrc: ["'self'", 'blob:'],
    frameAncestors: ["'none'"],
    formAction: ["'self'", config.publicUrl],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
  };
}

/**
 * The one composition root: builds every adapter from `config` (or takes it from `overrides`) and
 * wires the HTTP routes. Nothing else in the server reads the environment or picks a backend.
 */
export async function createApp(config: Config, overrides: AppOverrides = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: overrides.logger === false ? false : { level: config.logLevel, redact: ['req.headers.authorization'] },
    // Request bodies other than uploads are small JSON documents.
    bodyLimit: 1024 * 1024,
    trustProxy: true,
  })
    .setValidatorCompiler(TypeBoxValidatorCompiler)
    .withTypeProvider<TypeBoxTypeProvider>();

  registerErrorHandling(app);
  await app.register(helmet, {
    contentSecurityPolicy: { directives: contentSecurityPolicy(config) },
    crossOriginEmbedderPolicy: false,
  });

  await app.register(
    (api, _opts, done) => {
      healthRoutes(api, { version: SERVER_VERSION });
      done();
    },
    { prefix: '/api' },
  );

  await registerWebApp(app, config.webDistDir);
  return app;
}
