import { Type, type Static } from 'typebox';
import { EmailSchema } from './common.js';

export const InvitationRequestSchema = Type.Object(
  { to: EmailSchema },
  {
    additionalProperties: false,
    title: 'InvitationRequest',
    description: 'Email an invitation to a contact who has no key yet.',
  },
);
export type InvitationRequest = Static<typeof InvitationRequestSchema>;
