import { Type, type Static } from 'typebox';
import { tierNames } from '../constants.js';
import { apiObject, closedObject, CountSchema, DateTimeSchema } from './common.js';

const countObject = () => closedObject({ count: CountSchema });
const periodCount = (description: string) =>
  closedObject({ count: Type.Integer({ minimum: 0, description }) });

export const SubscriptionLimitsSchema = apiObject('SubscriptionLimits', {
  storageLimit: Type.Number({ minimum: 0, description: 'Storage quota in GB (1024³ bytes).' }),
  monthlyUploadLimit: CountSchema,
  monthlyDownloadLimit: CountSchema,
  maxContacts: CountSchema,
  maxShares: CountSchema,
  maxConcurrentUploads: Type.Integer({ minimum: 1, maximum: 100 }),
  currentPeriodEnd: Type.Union([DateTimeSchema, Type.Null()], {
    description: 'End of the paid billing period; null on the free tier.',
  }),
});
export type SubscriptionLimits = Static<typeof SubscriptionLimitsSchema>;

export const StatsResponseSchema = apiObject(
  'StatsResponse',
  {
    subscription: closedObject({ tier: Type.Enum(tierNames), limits: SubscriptionLimitsSchema }),
    storage: closedObject({
      used: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Bytes stored.' }),
    }),
    transfers: closedObject({
      uploads: periodCount('Uploads this period.'),
      downloads: periodCount('Downloads this period.'),
    }),
    contacts: countObject(),
    sharing: countObject(),
  },
  'Usage against the limits of the subscription tier (GET /users/stats).',
);
export type StatsResponse = Static<typeof StatsResponseSchema>;
