import { Type, type Static } from 'typebox';
import { apiObject, HttpUrlSchema } from './common.js';

/**
 * Return URLs must point at the app's own origin; the schema only checks the shape, the
 * server checks the origin so the payment provider cannot be used as an open redirect.
 */
export const PortalRequestSchema = apiObject(
  'PortalRequest',
  { returnUrl: HttpUrlSchema },
  'Open the billing portal; returnUrl is the profile page.',
);
export type PortalRequest = Static<typeof PortalRequestSchema>;

export const CheckoutRequestSchema = apiObject(
  'CheckoutRequest',
  {
    priceId: Type.String({ pattern: '^[A-Za-z0-9_-]+$', minLength: 1, maxLength: 255 }),
    successUrl: HttpUrlSchema,
    cancelUrl: HttpUrlSchema,
  },
  'Start an upgrade checkout.',
);
export type CheckoutRequest = Static<typeof CheckoutRequestSchema>;

export const RedirectUrlResponseSchema = apiObject(
  'RedirectUrlResponse',
  { url: HttpUrlSchema },
  'Where the browser goes next (portal or checkout page).',
);
export type RedirectUrlResponse = Static<typeof RedirectUrlResponseSchema>;
