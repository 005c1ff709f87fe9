import { Type, type Static } from 'typebox';
import { FEEDBACK_MAX_LENGTH } from '../constants.js';
import { DateTimeSchema, EmailSchema, IdSchema, NON_BLANK_PATTERN } from './common.js';

export const FeedbackRequestSchema = Type.Object(
  {
    message: Type.String({ pattern: NON_BLANK_PATTERN, minLength: 1, maxLength: FEEDBACK_MAX_LENGTH }),
  },
  {
    additionalProperties: false,
    title: 'FeedbackRequest',
    description: 'Send feedback (not blank, ≤ 2000).',
  },
);
export type FeedbackRequest = Static<typeof FeedbackRequestSchema>;

export const FeedbackItemSchema = Type.Object(
  {
    id: IdSchema,
    userEmail: EmailSchema,
    message: Type.String({ maxLength: FEEDBACK_MAX_LENGTH }),
    timestamp: DateTimeSchema,
  },
  { additionalProperties: false, title: 'FeedbackItem', description: 'One feedback entry (admin view).' },
);
export type FeedbackItem = Static<typeof FeedbackItemSchema>;

export const FeedbackListResponseSchema = Type.Object(
  { feedback: Type.Array(FeedbackItemSchema) },
  {
    additionalProperties: false,
    title: 'FeedbackListResponse',
    description: 'Answer of GET /admin/feedback.',
  },
);
export type FeedbackListResponse = Static<typeof FeedbackListResponseSchema>;
