import { Type, type Static } from 'typebox';
import { ContactNameSchema, EmailSchema } from './common.js';

export const InvitationRequestSchema = Type.Object(
  { to: EmailSchema },
  {
    additionalProperties: false,
    title: 'InvitationRequest',
    description: 'Email an invitation to a contact who has no key yet.',
  },
);
export type InvitationRequest = Static<typeof InvitationRequestSchema>;

/** At most this many inviters are listed (the newest): enough for anyone's inbox of invitations. */
export const RECEIVED_INVITATIONS_LIMIT = 50;

export const ReceivedInvitationSchema = Type.Object(
  {
    email: EmailSchema,
    /** The inviter's account name, or their email when the account has none. */
    name: ContactNameSchema,
  },
  { additionalProperties: false, title: 'ReceivedInvitation' },
);
export type ReceivedInvitation = Static<typeof ReceivedInvitationSchema>;

export const ReceivedInvitationsResponseSchema = Type.Object(
  { invitations: Type.Array(ReceivedInvitationSchema, { maxItems: RECEIVED_INVITATIONS_LIMIT }) },
  {
    additionalProperties: false,
    title: 'ReceivedInvitationsResponse',
    description: 'The people who invited my email address, newest first, each once.',
  },
);
export type ReceivedInvitationsResponse = Static<typeof ReceivedInvitationsResponseSchema>;
