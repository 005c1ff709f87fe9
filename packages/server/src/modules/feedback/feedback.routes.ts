import {
  FeedbackListResponseSchema,
  FeedbackRequestSchema,
  IdParamsSchema,
  validateFeedback,
} from '@coffer/contracts';
import { apiRoutes } from '../../http/api-route.js';
import { ValidationError } from '../../http/errors.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import type { FeedbackService } from './feedback.service.js';

export function feedbackRoutes(app: FastifyTypeBox, deps: { feedback: FeedbackService }): void {
  const { feedback } = deps;
  const route = apiRoutes(app, ['feedback']);

  route.post(
    '/feedback',
    {
      summary: 'Send feedback',
      body: FeedbackRequestSchema,
      created: 'ok',
      // Validation failures are answered with the spec's own feedback messages by the service.
      options: { attachValidation: true },
    },
    async ({ user, request }) => {
      // Read as sent: with the validation attached, the body may not match its schema.
      const body: unknown = request.body;
      const message =
        typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;
      if (request.validationError) {
        const problem = validateFeedback(typeof message === 'string' ? message : '');
        // Valid by the spec's rules but not by the schema (e.g. extra properties): still refuse.
        throw problem === null ? request.validationError : new ValidationError(problem);
      }
      await feedback.submit(user, message);
    },
  );

  route.get(
    '/admin/feedback',
    { summary: 'All feedback (admins)', answer: FeedbackListResponseSchema },
    async ({ user }) => ({ feedback: await feedback.list(user) }),
  );

  route.delete(
    '/admin/feedback/:id',
    { summary: 'Delete feedback (admins)', params: IdParamsSchema, answer: 'ok' },
    async ({ user, params }) => feedback.delete(user, params.id),
  );
}
