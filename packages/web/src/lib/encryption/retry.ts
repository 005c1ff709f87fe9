import { KEY_RETRY_ATTEMPTS, KEY_RETRY_BASE_MS } from '@coffer/contracts';

export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

export interface RetryOptions {
  attempts?: number;
  baseMs?: number;
  sleep?: Sleep;
  /** Errors for which another attempt cannot help (e.g. 401): thrown at once. */
  isFinal?: (error: unknown) => boolean;
}

/**
 * Runs `work` up to `attempts` times (spec: 3), waiting `baseMs × attempt` (spec: 100 ms × attempt)
 * after each failed attempt that is not the last. Throws the last error.
 */
export async function withRetry<T>(work: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? KEY_RETRY_ATTEMPTS;
  const baseMs = options.baseMs ?? KEY_RETRY_BASE_MS;
  const sleep = options.sleep ?? realSleep;
  let lastError: unknown = new Error('withRetry: no attempt made');
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      lastError = error;
      if (options.isFinal?.(error) === true || attempt === attempts) break;
      await sleep(baseMs * attempt);
    }
  }
  throw lastError;
}
