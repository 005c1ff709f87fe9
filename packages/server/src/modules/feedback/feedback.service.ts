import { randomUUID } from 'node:crypto';
import type { FeedbackItem } from '@coffer/contracts';
import { ErrorCode, validateFeedback } from '@coffer/contracts';
import { ApiError, ForbiddenError, NotFoundError, ValidationError } from '../../http/errors.js';
import type { RateLimiter, RateLimitRule } from '../../infra/rate-limit/rate-limiter.js';
import type { CurrentUser } from '../users/users.service.js';
import type { FeedbackRepo } from './feedback.repo.js';

export interface FeedbackService {
  submit(user: CurrentUser, message: unknown): Promise<void>;
  list(user: CurrentUser): Promise<FeedbackItem[]>;
  delete(user: CurrentUser, id: string): Promise<void>;
}

/** Feedback one user may send per hour: plenty for a person, too little to flood the admins. */
export const FEEDBACK_PER_HOUR: RateLimitRule = {
  name: 'feedback-user',
  limit: 10,
  windowMs: 60 * 60 * 1000,
};

function requireAdmin(user: CurrentUser): void {
  if (!user.isAdmin) throw new ForbiddenError('Only administrators can manage feedback');
}

export function createFeedbackService(deps: {
  repo: FeedbackRepo;
  limiter: RateLimiter;
  now: () => Date;
}): FeedbackService {
  return {
    async submit(user, message) {
      // The spec's own messages, so the API and the form say the same thing.
      const text = typeof message === 'string' ? message : '';
      const problem = validateFeedback(text);
      if (problem !== null) throw new ValidationError(problem);
      const decision = await deps.limiter.consume(FEEDBACK_PER_HOUR, user.id);
      if (!decision.allowed) {
        throw new ApiError(
          429,
          ErrorCode.RATE_LIMITED,
          'You sent a lot of feedback in the last hour. Thank you! Please try again later.',
        );
      }
      await deps.repo.insert({
        id: randomUUID(),
        user_id: user.id,
        user_email: user.email ?? '',
        message: text.trim(),
        created_at: deps.now().toISOString(),
      });
    },

    async list(user) {
      requireAdmin(user);
      return (await deps.repo.list()).map((row) => ({
        id: row.id,
        userEmail: row.user_email,
        message: row.message,
        timestamp: row.created_at,
      }));
    },

    async delete(user, id) {
      requireAdmin(user);
      if (!(await deps.repo.delete(id))) throw new NotFoundError('Feedback not found');
    },
  };
}
