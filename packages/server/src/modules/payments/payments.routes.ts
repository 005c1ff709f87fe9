import {
  CheckoutRequestSchema,
  ErrorCode,
  PortalRequestSchema,
  RedirectUrlResponseSchema,
} from '@coffer/contracts';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { apiRoutes } from '../../http/api-route.js';
import { ApiError } from '../../http/errors.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import { WebhookSignatureError } from '../../infra/payments/payment-provider.js';
import type { PaymentsService } from './payments.service.js';

const tags = ['payments'];

/** Webhook bodies are small JSON documents; Stripe's are a few KB. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

/** Checkout and portal, for signed-in users (register inside the authenticated `/api` scope). */
export function paymentsRoutes(scope: FastifyTypeBox, deps: { payments: PaymentsService }): void {
  const { payments } = deps;
  const route = apiRoutes(scope, tags);

  route.post(
    '/payments/checkout',
    {
      summary: 'Start an upgrade checkout; the browser goes to the returned URL',
      body: CheckoutRequestSchema,
      answer: RedirectUrlResponseSchema,
    },
    async ({ user, body }) => payments.startCheckout(user.row, body),
  );

  route.post(
    '/payments/portal',
    {
      summary: 'Open the billing portal; the browser goes to the returned URL',
      body: PortalRequestSchema,
      answer: RedirectUrlResponseSchema,
    },
    async ({ user, body }) => payments.openPortal(user.row, body),
  );
}

/**
 * POST /api/payments/webhook: the payment provider's events. Public (the signature authenticates it) and
 * read as raw bytes, since the signature covers the body exactly as sent: the JSON parser of this
 * encapsulated scope keeps the Buffer instead of parsing it.
 */
export async function paymentsWebhookRoutes(
  app: FastifyInstance,
  deps: { payments: PaymentsService },
): Promise<void> {
  await app.register((scope, _opts, done) => {
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_req, body, parsed) => {
        parsed(null, body);
      },
    );
    scope.post(
      '/api/payments/webhook',
      {
        schema: {
          tags,
          summary: 'Payment provider events (Stripe webhook, signed)',
          security: [],
          response: { 200: Type.Object({ received: Type.Boolean() }, { additionalProperties: false }) },
        },
      },
      async (request) => {
        const body = request.body;
        if (!(body instanceof Uint8Array)) {
          throw new ApiError(400, ErrorCode.VALIDATION_FAILED, 'Expected a JSON body');
        }
        const header = request.headers['stripe-signature'];
        try {
          await deps.payments.receiveWebhook(body, typeof header === 'string' ? header : undefined);
        } catch (err) {
          if (err instanceof WebhookSignatureError) {
            request.log.warn({ reason: err.message }, 'payment webhook refused');
            throw new ApiError(400, ErrorCode.VALIDATION_FAILED, 'Invalid webhook signature');
          }
          throw err;
        }
        return { received: true };
      },
    );
    done();
  });
}
