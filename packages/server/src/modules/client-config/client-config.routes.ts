import { Type } from 'typebox';
import type { Config } from '../../config.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';

export const ClientConfigSchema = Type.Object(
  {
    oidc: Type.Object({
      authority: Type.String({ description: 'OpenID Connect issuer the web app signs in with.' }),
      clientId: Type.String(),
      scopes: Type.String(),
      /** Resource indicator (RFC 8707) for the API, so the provider issues JWT access tokens for it. */
      resource: Type.Union([Type.String(), Type.Null()]),
    }),
    /** Product analytics (PostHog); null when off. Never send file names, emails or keys to it. */
    analytics: Type.Union([
      Type.Object({
        key: Type.String({ description: 'PostHog project API key (write-only by design).' }),
        host: Type.String({ description: 'PostHog instance the browser sends events to.' }),
      }),
      Type.Null(),
    ]),
    /** Where a person manages factors and sessions: the embedded provider's page; null with an external issuer. */
    identity: Type.Object({ accountSecurityUrl: Type.Union([Type.String(), Type.Null()]) }),
    payments: Type.Object({
      provider: Type.Union([Type.Literal('demo'), Type.Literal('stripe')]),
      /** The price the Upgrade button buys (POST /payments/checkout accepts only this one). */
      priceId: Type.String(),
    }),
  },
  { title: 'ClientConfig', description: 'Public run-time settings of the web app (no secrets).' },
);

/** The web app is built once; the settings that differ per deployment come from here at start-up. */
export function clientConfigRoutes(app: FastifyTypeBox, config: Config): void {
  const body = {
    oidc: {
      authority: config.auth.issuer ?? `${config.publicUrl}/idp`,
      clientId: config.auth.clientId,
      scopes: config.auth.scopes,
      resource: config.auth.issuer === undefined ? config.auth.audience : null,
    },
    analytics: config.analytics,
    identity: {
      accountSecurityUrl: config.auth.issuer === undefined ? `${config.publicUrl}/idp/account` : null,
    },
    payments: { provider: config.payments.provider, priceId: config.payments.priceId },
  };
  app.get(
    '/config',
    {
      schema: {
        tags: ['app'],
        summary: 'Public settings of the web app',
        security: [],
        response: { 200: ClientConfigSchema },
      },
    },
    (_request, reply) => {
      reply.header('Cache-Control', 'no-cache');
      return body;
    },
  );
}
