import { Type, type Static } from 'typebox';
import { tierNames } from '../constants.js';
import { CountSchema, DateTimeSchema } from './common.js';

const countObject = () => Type.Object({ count: CountSchema }, { additionalProperties: false });

export const SubscriptionLimitsSchema = Type.Object(
  {
    storageLimit: Type.Number({ minimum: 0, description: 'Storage quota in GB (1024³ bytes).' }),
    monthlyUploadLimit: CountSchema,
    monthlyDownloadLimit: CountSchema,
    maxContacts: CountSchema,
    maxShares: CountSchema,
    maxConcurrentUploads: Type.Integer({ minimum: 1, maximum: 100 }),
    currentPeriodEnd: Type.Union([DateTimeSchema, Type.Null()], {
      description: 'End of the paid billing period; null on the free tier.',
    }),
  },
  { additionalProperties: false, title: 'SubscriptionLimits' },
);
export type SubscriptionLimits = Static<typeof SubscriptionLimitsSchema>;

export const StatsResponseSchema = Type.Object(
  {
    subscription: Type.Object(
      { tier: Type.Enum(tierNames), limits: SubscriptionLimitsSchema },
      { additionalProperties: false },
    ),
    storage: Type.Object(
      { used: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Bytes stored.' }) },
      { additionalProperties: false },
    ),
    transfers: Type.Object(
      {
        uploads: Type.Object(
          { count: Type.Integer({ minimum: 0, description: 'Uploads this period.' }) },
          { additionalProperties: false },
        ),
        downloads: Type.Object(
          { count: Type.Integer({ minimum: 0, description: 'Downloads this period.' }) },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
    contacts: countObject(),
    sharing: countObject(),
  },
  {
    additionalProperties: false,
    title: 'StatsResponse',
    description: 'Usage against the limits of the subscription tier (GET /users/stats).',
  },
);
export type StatsResponse = Static<typeof StatsResponseSchema>;
