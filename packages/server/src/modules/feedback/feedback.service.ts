import { randomUUID } from 'node:crypto';
import type { FeedbackItem } from '@coffer/contracts';
import { validateFeedback } from '@coffer/contracts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../http/errors.js';
import type { CurrentUser } from '../users/users.service.js';
import type { FeedbackRepo } from './feedback.repo.js';

export interface FeedbackService {
  submit(user: CurrentUser, message: unknown): Promise<void>;
  list(user: CurrentUser): Promise<FeedbackItem[]>;
  delete(user: CurrentUser, id: string): Promise<void>;
}

function requireAdmin(user: CurrentUser): void {
  if (!user.isAdmin) throw new ForbiddenError('Only administrators can manage feedback');
}

export function createFeedbackService(deps: { repo: FeedbackRepo; now: () => Date }): FeedbackService {
  return {
    async submit(user, message) {
      // The spec's own messages, so the API and the form say the same thing.
      const text = typeof message === 'string' ? message : '';
      const problem = validateFeedback(text);
      if (problem !== null) throw new ValidationError(problem);
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
