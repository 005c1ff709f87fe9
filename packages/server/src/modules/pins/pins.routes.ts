import {
  ErrorCode,
  OkResponseSchema,
  PinSetEnvelopeSchema,
  PinSetResponseSchema,
  PutPinSetRequestSchema,
} from '@coffer/contracts';
import { Value } from 'typebox/value';
import { verifiedUser } from '../../http/current-user.js';
import { ApiError, ValidationError } from '../../http/errors.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import type { PinsRepo } from './pins.repo.js';

const tags = ['keys'];

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
  app.get(
    '/users/pins',
    {
      schema: {
        tags,
        summary: "The caller's sealed pin set (contact key fingerprints)",
        response: { 200: PinSetResponseSchema },
      },
    },
    async (request) => ({ pinSet: (await deps.pins.find(verifiedUser(request).id))?.pinSet ?? null }),
  );

  app.put(
    '/users/pins',
    {
      schema: {
        tags,
        summary: 'Replace the sealed pin set',
        body: PutPinSetRequestSchema,
        response: { 200: OkResponseSchema },
      },
    },
    async (request) => {
      const user = verifiedUser(request);
      const { pinSet, previousVersion } = request.body;
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
      return { ok: true as const };
    },
  );
}
