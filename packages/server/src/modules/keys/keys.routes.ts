import {
  CreateKeyRequestSchema,
  EmailParamsSchema,
  KeyIdParamsSchema,
  KeyRecordSchema,
  KeysResponseSchema,
  OkResponseSchema,
  PublicKeyResponseSchema,
  RewrapKeyRequestSchema,
} from '@coffer/contracts';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import { currentUser } from '../../http/current-user.js';
import type { KeysService } from './keys.service.js';

const tags = ['keys'];

export function keysRoutes(app: FastifyTypeBox, deps: { keys: KeysService }): void {
  const { keys } = deps;

  app.post(
    '/users/keys',
    {
      schema: {
        tags,
        summary: 'Store a new key pair (private key wrapped in the browser)',
        body: CreateKeyRequestSchema,
        response: { 201: KeyRecordSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await keys.create(currentUser(request).id, request.body)),
  );

  app.get(
    '/users/keys',
    {
      schema: {
        tags,
        summary: "The caller's key records, newest first",
        response: { 200: KeysResponseSchema },
      },
    },
    async (request) => ({ keys: await keys.list(currentUser(request).id) }),
  );

  app.get(
    '/users/keys/active',
    { schema: { tags, summary: 'The newest key record', response: { 200: KeyRecordSchema } } },
    async (request) => keys.active(currentUser(request).id),
  );

  app.get(
    '/users/keys/public/:email',
    {
      schema: {
        tags,
        summary: "A user's active public key, looked up by email",
        params: EmailParamsSchema,
        response: { 200: PublicKeyResponseSchema },
      },
    },
    async (request) => keys.publicKeyOf(request.params.email),
  );

  app.put(
    '/users/keys/:keyId',
    {
      schema: {
        tags,
        summary: 'Replace the wrapped private key after an unlock-password change',
        params: KeyIdParamsSchema,
        body: RewrapKeyRequestSchema,
        response: { 200: KeyRecordSchema },
      },
    },
    async (request) =>
      keys.rewrap(currentUser(request).id, request.params.keyId, request.body.encryptedPrivateKey),
  );

  app.delete(
    '/users/keys/:keyId',
    {
      schema: {
        tags,
        summary: 'Delete a key record',
        params: KeyIdParamsSchema,
        response: { 200: OkResponseSchema },
      },
    },
    async (request) => {
      await keys.delete(currentUser(request).id, request.params.keyId);
      return { ok: true as const };
    },
  );
}
