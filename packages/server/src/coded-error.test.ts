import { describe, expect, it } from 'vitest';
import { CodedError } from './coded-error.js';
import { ConfigError } from './config.js';
import {
  ApiError,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
  ValidationError,
} from './http/errors.js';
import { MalformedBodyError } from './http/request-body.js';
import { OidcDiscoveryError } from './infra/auth/oidc-discovery.js';
import { DatabaseConfigError, DatabaseError } from './infra/db/errors.js';
import { FederationError } from './infra/idp/google.federation.js';
import { EmailTakenError } from './infra/idp/idp.accounts.repo.js';
import { PasskeyError } from './infra/idp/idp.security.service.js';
import { MailDeliveryError } from './infra/mail/mailer.js';
import { PaymentProviderError, WebhookSignatureError } from './infra/payments/payment-provider.js';
import {
  BlobNotFoundError,
  BlobReadError,
  BlobStoreError,
  InvalidPartError,
} from './infra/storage/blob-store.js';
import { KeysNotFoundError } from './modules/keys/keys.service.js';

describe('CodedError', () => {
  it('names each error after its own class and keeps its code, message and cause', () => {
    const cause = new Error('driver');
    const cases: [CodedError, string, string, string][] = [
      [new ConfigError('bad PORT'), 'ConfigError', 'CONFIG_INVALID', 'bad PORT'],
      [new DatabaseConfigError('bad URL'), 'DatabaseConfigError', 'CONFIG_INVALID', 'bad URL'],
      [new DatabaseError('too big', { cause }), 'DatabaseError', 'DATABASE_ERROR', 'too big'],
      [new OidcDiscoveryError('down'), 'OidcDiscoveryError', 'OIDC_DISCOVERY_FAILED', 'down'],
      [new MailDeliveryError('no', 'rejected'), 'MailDeliveryError', 'MAIL_DELIVERY_FAILED', 'no'],
      [new FederationError('x', 'y'), 'FederationError', 'FEDERATION_FAILED', 'x'],
      [new EmailTakenError(), 'EmailTakenError', 'EMAIL_TAKEN', 'An account with this email already exists'],
      [new PasskeyError('why'), 'PasskeyError', 'PASSKEY_REFUSED', 'The passkey could not be verified'],
      [
        new WebhookSignatureError(),
        'WebhookSignatureError',
        'WEBHOOK_SIGNATURE_INVALID',
        'Invalid webhook signature',
      ],
      [new PaymentProviderError('down'), 'PaymentProviderError', 'PAYMENT_PROVIDER_FAILED', 'down'],
      [new BlobNotFoundError('a/b'), 'BlobNotFoundError', 'BLOB_NOT_FOUND', 'No blob under key a/b'],
      [new InvalidPartError('order'), 'InvalidPartError', 'BLOB_INVALID_PART', 'order'],
      [new BlobReadError('short'), 'BlobReadError', 'BLOB_READ_FAILED', 'short'],
    ];
    for (const [error, name, code, message] of cases) {
      expect(error).toBeInstanceOf(Error);
      expect(error).toBeInstanceOf(CodedError);
      expect({ name: error.name, code: error.code, message: error.message }).toEqual({ name, code, message });
      expect(String(error)).toBe(`${name}: ${message}`);
    }
    expect(new DatabaseError('too big', { cause }).cause).toBe(cause);
    expect(new DatabaseConfigError('x')).toBeInstanceOf(ConfigError);
    expect(new BlobReadError('x')).toBeInstanceOf(BlobStoreError);
  });

  it('keeps the API errors their status, code and name', () => {
    const cases: [ApiError, string, number, string][] = [
      [new ApiError(409, 'CONFLICT', 'taken'), 'ApiError', 409, 'CONFLICT'],
      [new NotFoundError(), 'NotFoundError', 404, 'NOT_FOUND'],
      [new NotFoundError('gone', 'FILE_NOT_FOUND'), 'NotFoundError', 404, 'FILE_NOT_FOUND'],
      [new ValidationError('bad'), 'ValidationError', 400, 'VALIDATION_FAILED'],
      [new UnauthorizedError(), 'UnauthorizedError', 401, 'UNAUTHORIZED'],
      [new ForbiddenError(), 'ForbiddenError', 403, 'FORBIDDEN'],
      [new MalformedBodyError('cut'), 'MalformedBodyError', 400, 'VALIDATION_FAILED'],
      [new KeysNotFoundError(), 'KeysNotFoundError', 404, 'KEYS_NOT_FOUND'],
    ];
    for (const [error, name, statusCode, code] of cases) {
      expect(error).toBeInstanceOf(ApiError);
      expect({ name: error.name, statusCode: error.statusCode, code: error.code }).toEqual({
        name,
        statusCode,
        code,
      });
    }
  });
});
