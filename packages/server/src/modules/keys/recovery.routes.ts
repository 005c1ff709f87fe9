import {
  KeysResponseSchema,
  PutRecoveryKitRequestSchema,
  RecoveryKitSchema,
  RewrapAllKeysRequestSchema,
} from '@coffer/contracts';
import { apiRoutes } from '../../http/api-route.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import type { RecoveryService } from './recovery.service.js';

/** Calls on all of the caller's key records at once: the re-wrap of a key change, and the recovery kit. */
export function recoveryRoutes(app: FastifyTypeBox, deps: { recovery: RecoveryService }): void {
  const { recovery } = deps;
  const route = apiRoutes(app, ['keys']);

  route.put(
    '/users/keys',
    {
      summary: 'Replace every key record’s wrapped keys at once (change of master unlock key, recovery)',
      caller: 'verified',
      body: RewrapAllKeysRequestSchema,
      answer: KeysResponseSchema,
    },
    async ({ user, body }) => ({ keys: await recovery.rewrapAll(user.id, body) }),
  );

  route.get(
    '/users/keys/recovery',
    { summary: 'The current recovery kit’s wraps', caller: 'verified', answer: RecoveryKitSchema },
    async ({ user }) => recovery.getKit(user.id),
  );

  route.put(
    '/users/keys/recovery',
    {
      summary: 'Store a new recovery kit; the previous one is dropped',
      caller: 'verified',
      body: PutRecoveryKitRequestSchema,
      answer: RecoveryKitSchema,
    },
    async ({ user, body }) => recovery.putKit(user.id, body),
  );

  route.delete(
    '/users/keys/recovery',
    { summary: 'Drop the recovery kit', caller: 'verified', answer: 'ok' },
    async ({ user }) => recovery.deleteKit(user.id),
  );
}
