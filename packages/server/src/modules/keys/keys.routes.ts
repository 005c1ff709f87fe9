import {
  AddSigningKeyRequestSchema,
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
import type { FastifyRequest } from 'fastify';
import { verifiedUser } from '../../http/current-user.js';

/** The verified caller's id and address (a key binding must name the address). */
function idAndEmail(request: FastifyRequest): [string, string] {
  const user = verifiedUser(request);
  return [user.id, user.email ?? ''];
}
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
    async (request, reply) => reply.status(201).send(await keys.create(...idAndEmail(request), request.body)),
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
    async (request) => ({ keys: await keys.list(verifiedUser(request).id) }),
  );

  app.get(
    '/users/keys/active',
    { schema: { tags, summary: 'The newest key record', response: { 200: KeyRecordSchema } } },
    async (request) => keys.active(verifiedUser(request).id),
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
      keys.rewrap(
        verifiedUser(request).id,
        request.params.keyId,
        request.body.encryptedPrivateKey,
        request.body.encryptedSigningKey,
      ),
  );

  app.put(
    '/users/keys/:keyId/signing',
    {
      schema: {
        tags,
        summary: 'Give a key record made before signing keys its signing key (once)',
        params: KeyIdParamsSchema,
        body: AddSigningKeyRequestSchema,
        response: { 200: KeyRecordSchema },
      },
    },
    async (request) => keys.addSigningKey(...idAndEmail(request), request.params.keyId, request.body),
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
      await keys.delete(verifiedUser(request).id, request.params.keyId);
      return { ok: true as const };
    },
  );
}
