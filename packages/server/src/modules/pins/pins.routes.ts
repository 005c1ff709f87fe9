import {
  ErrorCode,
  PinSetEnvelopeSchema,
  PinSetResponseSchema,
  PutPinSetRequestSchema,
} from '@coffer/contracts';
import { Value } from 'typebox/value';
import { apiRoutes } from '../../http/api-route.js';
import { ApiError, ValidationError } from '../../http/errors.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import type { PinsRepo } from './pins.repo.js';

/** The envelope's own version: the only part of a sealed pin set the server reads. */
function versionOf(pinSetJson: string): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(pinSetJson);
  } catch {
    throw new ValidationError('pinSet must be JSON text');
  }
  if (!Value.Check(PinSetEnvelopeSchema, parsed)) throw new ValidationError('pinSet is not a sealed pin set');
  return parsed.version;
}

/**
 * The caller's sealed pin set (docs/encryption.md, section 10): encrypted to the user's own key and
 * signed by them, so the server can neither read nor alter it undetected. The server only keeps
 * writes in order: a write must name the version it replaces and carry a higher one, so two devices
 * cannot silently overwrite each other. (Rollback by the server itself is caught by the clients,
 * which remember the highest version they saw.)
 */
export function pinsRoutes(app: FastifyTypeBox, deps: { pins: PinsRepo; now: () => Date }): void {
  const route = apiRoutes(app, ['keys']);

  route.get(
    '/users/pins',
    {
      summary: "The caller's sealed pin set (contact key fingerprints)",
      caller: 'verified',
      answer: PinSetResponseSchema,
    },
    async ({ user }) => ({ pinSet: (await deps.pins.find(user.id))?.pinSet ?? null }),
  );

  route.put(
    '/users/pins',
    { summary: 'Replace the sealed pin set', caller: 'verified', body: PutPinSetRequestSchema, answer: 'ok' },
    async ({ user, body }) => {
      const { pinSet, previousVersion } = body;
      const version = versionOf(pinSet);
      if (version <= (previousVersion ?? 0)) {
        throw new ValidationError('A new pin set must have a higher version than the one it replaces');
      }
      if (!(await deps.pins.replace(user.id, pinSet, version, previousVersion, deps.now()))) {
        throw new ApiError(
          409,
          ErrorCode.INVALID_OPERATION,
          'Your contact keys changed on another device. Reload them and try again.',
        );
      }
    },
  );
}
