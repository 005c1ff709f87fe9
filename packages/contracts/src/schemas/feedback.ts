import { Type, type Static } from 'typebox';
import { FEEDBACK_MAX_LENGTH } from '../constants.js';
import { apiObject, DateTimeSchema, EmailSchema, IdSchema, NON_BLANK_PATTERN } from './common.js';

export const FeedbackRequestSchema = apiObject(
  'FeedbackRequest',
  { message: Type.String({ pattern: NON_BLANK_PATTERN, minLength: 1, maxLength: FEEDBACK_MAX_LENGTH }) },
  'Send feedback (not blank, ≤ 2000).',
);
export type FeedbackRequest = Static<typeof FeedbackRequestSchema>;

export const FeedbackItemSchema = apiObject(
  'FeedbackItem',
  {
    id: IdSchema,
    userEmail: EmailSchema,
    message: Type.String({ maxLength: FEEDBACK_MAX_LENGTH }),
    timestamp: DateTimeSchema,
  },
  'One feedback entry (admin view).',
);
export type FeedbackItem = Static<typeof FeedbackItemSchema>;

export const FeedbackListResponseSchema = apiObject(
  'FeedbackListResponse',
  { feedback: Type.Array(FeedbackItemSchema) },
  'Answer of GET /admin/feedback.',
);
export type FeedbackListResponse = Static<typeof FeedbackListResponseSchema>;
