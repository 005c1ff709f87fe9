import { Type, type Static } from 'typebox';
import { apiObject, COLOR_PATTERN, ContactNameSchema, EmailSchema } from './common.js';

export const ContactSchema = apiObject(
  'Contact',
  {
    name: ContactNameSchema,
    email: EmailSchema,
    color: Type.String({ pattern: COLOR_PATTERN, maxLength: 7, description: 'Avatar colour, #rrggbb.' }),
    image: Type.Union([Type.String({ maxLength: 2048 }), Type.Null()], { description: 'Avatar image URL.' }),
    invited: Type.Boolean({ description: 'An invitation was sent to this contact.' }),
  },
  'A contact; its public key is looked up separately (GET /users/keys/public/:email).',
);
export type Contact = Static<typeof ContactSchema>;

export const ContactsResponseSchema = apiObject(
  'ContactsResponse',
  { contacts: Type.Array(ContactSchema) },
  'Answer of GET /users/contacts.',
);
export type ContactsResponse = Static<typeof ContactsResponseSchema>;

/** Answered with the new Contact. */
export const AddContactRequestSchema = apiObject(
  'AddContactRequest',
  { email: EmailSchema, name: ContactNameSchema },
  'Add a contact.',
);
export type AddContactRequest = Static<typeof AddContactRequestSchema>;

/** PATCH or PUT /users/contacts/:email; only the name can change. Answered with the Contact. */
export const UpdateContactRequestSchema = apiObject(
  'UpdateContactRequest',
  { name: ContactNameSchema },
  'Rename a contact.',
);
export type UpdateContactRequest = Static<typeof UpdateContactRequestSchema>;
