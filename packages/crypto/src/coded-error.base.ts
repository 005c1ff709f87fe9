/**
 * An error with a stable `code` (safe to switch on and to show in logs) and its class's own name
 * as `name`. Each family of errors (this package's, the web app's encryption session's) is an
 * abstract subclass that fixes the union of its codes; each error is declared with {@link withCode}.
 */
export abstract class CodedError<Code extends string = string> extends Error {
  abstract readonly code: Code;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A family of coded errors: an abstract subclass of {@link CodedError}. */
export type CodedErrorFamily = abstract new (message: string, options?: ErrorOptions) => CodedError;

/**
 * The base of one error of `family` with `code`:
 * `class InvalidKeyError extends withCode(CofferCryptoError, 'INVALID_KEY') {}` is thrown as
 * `new InvalidKeyError(message, { cause })`; given a `message`, every instance has that message
 * and is thrown as `new X()` or `new X({ cause })`.
 */
export function withCode<F extends CodedErrorFamily, Code extends InstanceType<F>['code']>(
  family: F,
  code: Code,
): new (message: string, options?: ErrorOptions) => InstanceType<F> & { readonly code: Code };
export function withCode<F extends CodedErrorFamily, Code extends InstanceType<F>['code']>(
  family: F,
  code: Code,
  message: string,
): new (options?: ErrorOptions) => InstanceType<F> & { readonly code: Code };
export function withCode(
  family: CodedErrorFamily,
  errorCode: string,
  fixedMessage?: string,
): CodedErrorFamily | (new (options?: ErrorOptions) => CodedError) {
  if (fixedMessage === undefined) {
    return class extends family {
      override readonly code = errorCode;
    };
  }
  const message = fixedMessage;
  return class extends family {
    override readonly code = errorCode;

    constructor(options?: ErrorOptions) {
      super(message, options);
    }
  };
}
