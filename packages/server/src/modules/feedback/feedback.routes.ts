import {
  FeedbackListResponseSchema,
  FeedbackRequestSchema,
  IdParamsSchema,
  OkResponseSchema,
  validateFeedback,
} from '@coffer/contracts';
import { ValidationError } from '../../http/errors.js';
import { currentUser } from '../../http/current-user.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import type { FeedbackService } from './feedback.service.js';

const tags = ['feedback'];

export function feedbackRoutes(app: FastifyTypeBox, deps: { feedback: FeedbackService }): void {
  const { feedback } = deps;

  app.post(
    '/feedback',
    {
      schema: {
        tags,
        summary: 'Send feedback',
        body: FeedbackRequestSchema,
        response: { 201: OkResponseSchema },
      },
      // Validation failures are answered with the spec's own feedback messages by the service.
      attachValidation: true,
    },
    async (request, reply) => {
      const body: unknown = request.body;
      const message =
        typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;
      if (request.validationError) {
        const problem = validateFeedback(typeof message === 'string' ? message : '');
        // Valid by the spec's rules but not by the schema (e.g. extra properties): still refuse.
        throw problem === null ? request.validationError : new ValidationError(problem);
      }
      await feedback.submit(currentUser(request), message);
      return reply.status(201).send({ ok: true as const });
    },
  );

  app.get(
    '/admin/feedback',
    { schema: { tags, summary: 'All feedback (admins)', response: { 200: FeedbackListResponseSchema } } },
    async (request) => ({ feedback: await feedback.list(currentUser(request)) }),
  );

  app.delete(
    '/admin/feedback/:id',
    {
      schema: {
        tags,
        summary: 'Delete feedback (admins)',
        params: IdParamsSchema,
        response: { 200: OkResponseSchema },
      },
    },
    async (request) => {
      await feedback.delete(currentUser(request), request.params.id);
      return { ok: true as const };
    },
  );
}
