import {
  AddSigningKeyRequestSchema,
  CreateKeyRequestSchema,
  EmailParamsSchema,
  KeyIdParamsSchema,
  KeyRecordSchema,
  KeysResponseSchema,
  PublicKeyResponseSchema,
  PutDriveKeyRequestSchema,
  RewrapKeyRequestSchema,
} from '@coffer/contracts';
import { apiRoutes } from '../../http/api-route.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import type { KeysService } from './keys.service.js';

/**
 * Key records. Storing, listing and changing them needs a verified address, so nobody finds a key
 * under an address its holder has not proved; a key binding names that address.
 */
export function keysRoutes(app: FastifyTypeBox, deps: { keys: KeysService }): void {
  const { keys } = deps;
  const route = apiRoutes(app, ['keys']);

  route.post(
    '/users/keys',
    {
      summary: 'Store a new key pair (private key wrapped in the browser)',
      caller: 'verified',
      body: CreateKeyRequestSchema,
      created: KeyRecordSchema,
    },
    async ({ user, body }) => keys.create(user.id, user.email ?? '', body),
  );

  route.get(
    '/users/keys',
    { summary: "The caller's key records, newest first", caller: 'verified', answer: KeysResponseSchema },
    async ({ user }) => ({ keys: await keys.list(user.id) }),
  );

  route.get(
    '/users/keys/active',
    { summary: 'The newest key record', caller: 'verified', answer: KeyRecordSchema },
    async ({ user }) => keys.active(user.id),
  );

  route.get(
    '/users/keys/public/:email',
    {
      summary: "A user's active public key, looked up by email",
      params: EmailParamsSchema,
      answer: PublicKeyResponseSchema,
    },
    async ({ params }) => keys.publicKeyOf(params.email),
  );

  route.put(
    '/users/keys/:keyId',
    {
      summary: 'Replace the wrapped private key after an unlock-password change',
      caller: 'verified',
      params: KeyIdParamsSchema,
      body: RewrapKeyRequestSchema,
      answer: KeyRecordSchema,
    },
    async ({ user, params, body }) =>
      keys.rewrap(user.id, params.keyId, body.encryptedPrivateKey, body.encryptedSigningKey),
  );

  route.put(
    '/users/keys/:keyId/signing',
    {
      summary: 'Give a key record made before signing keys its signing key (once)',
      caller: 'verified',
      params: KeyIdParamsSchema,
      body: AddSigningKeyRequestSchema,
      answer: KeyRecordSchema,
    },
    async ({ user, params, body }) => keys.addSigningKey(user.id, user.email ?? '', params.keyId, body),
  );

  route.put(
    '/users/keys/:keyId/drive-key',
    {
      summary: 'Give a key record the drive key wrapped to it and its signed record (once; issue 31)',
      caller: 'verified',
      params: KeyIdParamsSchema,
      body: PutDriveKeyRequestSchema,
      answer: KeyRecordSchema,
    },
    async ({ user, params, body }) => keys.setDriveKey(user.id, params.keyId, body),
  );

  route.delete(
    '/users/keys/:keyId',
    { summary: 'Delete a key record', caller: 'verified', params: KeyIdParamsSchema, answer: 'ok' },
    async ({ user, params }) => keys.delete(user.id, params.keyId),
  );
}
