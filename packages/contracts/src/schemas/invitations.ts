import { Type, type Static } from 'typebox';
import { apiObject, ContactNameSchema, EmailSchema } from './common.js';

export const InvitationRequestSchema = apiObject(
  'InvitationRequest',
  { to: EmailSchema },
  'Email an invitation to a contact who has no key yet.',
);
export type InvitationRequest = Static<typeof InvitationRequestSchema>;

/** At most this many inviters are listed (the newest): enough for anyone's inbox of invitations. */
export const RECEIVED_INVITATIONS_LIMIT = 50;

export const ReceivedInvitationSchema = apiObject('ReceivedInvitation', {
  email: EmailSchema,
  /** The inviter's account name, or their email when the account has none. */
  name: ContactNameSchema,
});
export type ReceivedInvitation = Static<typeof ReceivedInvitationSchema>;

export const ReceivedInvitationsResponseSchema = apiObject(
  'ReceivedInvitationsResponse',
  { invitations: Type.Array(ReceivedInvitationSchema, { maxItems: RECEIVED_INVITATIONS_LIMIT }) },
  'The people who invited my email address, newest first, each once.',
);
export type ReceivedInvitationsResponse = Static<typeof ReceivedInvitationsResponseSchema>;
