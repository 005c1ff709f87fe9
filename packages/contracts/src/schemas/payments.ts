import { Type, type Static } from 'typebox';
import { HttpUrlSchema } from './common.js';

/**
 * Return URLs must point at the app's own origin; the schema only checks the shape, the
 * server checks the origin so the payment provider cannot be used as an open redirect.
 */
export const PortalRequestSchema = Type.Object(
  { returnUrl: HttpUrlSchema },
  {
    additionalProperties: false,
    title: 'PortalRequest',
    description: 'Open the billing portal; returnUrl is the profile page.',
  },
);
export type PortalRequest = Static<typeof PortalRequestSchema>;

export const CheckoutRequestSchema = Type.Object(
  {
    priceId: Type.String({ pattern: '^[A-Za-z0-9_-]+$', minLength: 1, maxLength: 255 }),
    successUrl: HttpUrlSchema,
    cancelUrl: HttpUrlSchema,
  },
  { additionalProperties: false, title: 'CheckoutRequest', description: 'Start an upgrade checkout.' },
);
export type CheckoutRequest = Static<typeof CheckoutRequestSchema>;

export const RedirectUrlResponseSchema = Type.Object(
  { url: HttpUrlSchema },
  {
    additionalProperties: false,
    title: 'RedirectUrlResponse',
    description: 'Where the browser goes next (portal or checkout page).',
  },
);
export type RedirectUrlResponse = Static<typeof RedirectUrlResponseSchema>;
