/**
 * The base of the server's own errors: a stable `code` (for logs, tests and the API's error body) and
 * its class's own name as `name`, so an error class is its code and, where it needs one, a constructor
 * that words the message:
 *
 * ```ts
 * export class DatabaseError extends CodedError {
 *   readonly code = 'DATABASE_ERROR';
 * }
 * ```
 *
 * (`@coffer/crypto` has its own `CodedError` for the browser side; the server does not load that package.)
 */
export abstract class CodedError extends Error {
  abstract readonly code: string;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}
