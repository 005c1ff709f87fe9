import { Type, type Static } from 'typebox';
import { apiObject } from './common.js';

/** Who the caller is, as the server decided from the access token (`GET /users/me`). */
export const MeResponseSchema = apiObject(
  'MeResponse',
  {
    email: Type.Union([Type.String({ maxLength: 320 }), Type.Null()], {
      description: 'The address the identity provider names (canonical form), verified or not.',
    }),
    emailVerified: Type.Boolean({
      description:
        'Whether the address is verified. Until it is, the account has no keys, cannot be found by ' +
        'public-key lookup, cannot receive shares and is never an admin.',
    }),
    isAdmin: Type.Boolean({ description: 'A verified ADMIN_EMAILS address.' }),
    canResendVerification: Type.Boolean({
      description:
        'True when the server can send the verification mail itself (the embedded identity provider).',
    }),
  },
  'Answer of GET /users/me: the address, whether it is verified, admin.',
);
export type MeResponse = Static<typeof MeResponseSchema>;
