import type { FastifyRequest } from 'fastify';
import { ValidationError } from './errors.js';

/** Whether any string in `value` (nested in arrays and objects, keys too) holds a NUL character. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1));
  // Buffers and streams (upload bodies) are bytes, not text.
  if (ArrayBuffer.isView(value)) return false;
  return Object.entries(value).some(([key, item]) => key.includes('\u0000') || containsNul(item, depth + 1));
}

/**
 * PostgreSQL refuses NUL in text (SQLite keeps it, and every later reader chokes on it), so a NUL in
 * any parameter, query value or JSON body is a client error, answered before anything is stored.
 */
export function refuseNul(request: FastifyRequest): Promise<void> {
  if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) {
    return Promise.reject(new ValidationError('Text must not contain NUL characters'));
  }
  return Promise.resolve();
}
