import type { ErrorCode } from './domain/error-codes';

/**
 * The error hierarchy every layer throws. The API maps `AppError` subclasses to their status and
 * `{code, detail}` body in one place (`functions/api/app.ts`); anything else becomes a logged 500.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AppError';
  }
}

/** The resource does not exist or belongs to another business (never 403: existence must not leak). */
export class NotFoundError extends AppError {
  constructor(message = 'Not found.') {
    super('not_found', 404, message);
    this.name = 'NotFoundError';
  }
}

/** Missing, malformed, unknown or revoked API key. */
export class UnauthorizedError extends AppError {
  constructor(message = 'Missing or invalid API key.') {
    super('unauthorized', 401, message);
    this.name = 'UnauthorizedError';
  }
}

/** A conditional write lost, or a request conflicts with one in flight. */
export class ConflictError extends AppError {
  constructor(code: ErrorCode = 'conflict', message = 'Conflict.', options?: { cause?: unknown }) {
    super(code, 409, message, options);
    this.name = 'ConflictError';
  }
}

/** An `If-Match` named a version of the resource that is no longer the current one (RFC 9110 §13.1.1). */
export class PreconditionFailedError extends AppError {
  constructor(message = 'The resource changed since the version named in If-Match; read it again and retry.') {
    super('precondition_failed', 412, message);
    this.name = 'PreconditionFailedError';
  }
}

/**
 * A create past one of the business's quotas (shared/domain/quota.ts): a 409, like every refusal
 * that depends on what the business already holds; a delete (or ops raising the quota) frees it.
 */
export class QuotaExceededError extends ConflictError {
  constructor(
    readonly quota: string,
    readonly value: number,
    message: string,
  ) {
    super('quota_exceeded', message);
    this.name = 'QuotaExceededError';
  }
}

/** The plan has no minutes left for an outbound call. */
export class InsufficientMinutesError extends AppError {
  constructor(message = 'The plan has no minutes left for an outbound call.') {
    super('insufficient_minutes', 402, message);
    this.name = 'InsufficientMinutesError';
  }
}

/** More than the allowed requests in the rolling window. */
export class RateLimitedError extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    /** The limit in words ("at most … a minute per API key"), from shared/domain/rate-limits.ts. */
    limit: string,
  ) {
    super('rate_limited', 429, `Too many requests: ${limit}. Retry in ${retryAfterSeconds} s.`);
    this.name = 'RateLimitedError';
  }
}

/** Too many failed authentications from one source address (anonymous traffic is throttled too). */
export class AuthThrottledError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate_limited', 429, `Too many failed authentications from this address. Retry in ${retryAfterSeconds} s.`);
    this.name = 'AuthThrottledError';
  }
}

/** A request body larger than the API reads. */
export class PayloadTooLargeError extends AppError {
  constructor(readonly maxBytes: number) {
    super('payload_too_large', 413, `The request body is larger than ${maxBytes} bytes.`);
    this.name = 'PayloadTooLargeError';
  }
}

/** A request body in a media type the API does not read (it reads JSON only). */
export class UnsupportedMediaTypeError extends AppError {
  constructor(received: string) {
    super(
      'unsupported_media_type',
      415,
      `The body must be JSON: Content-Type application/json (or application/*+json), charset utf-8 if any; got ${received}.`,
    );
    this.name = 'UnsupportedMediaTypeError';
  }
}

/** One item of a 422 body, in pydantic v2's vocabulary (docs/design.md "Errors"). */
export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** A request whose fields are invalid; carries every invalid field, not the first only. */
export class ValidationError extends AppError {
  constructor(readonly items: ValidationItem[]) {
    super('validation_error', 422, 'Request validation failed.');
    this.name = 'ValidationError';
  }
}

/**
 * A provider (LLM, STT, TTS, carrier, webhook receiver) failed. Retryability is decided once, here:
 * 4xx is permanent except 408 and 429.
 */
export class ProviderError extends Error {
  readonly retryable: boolean;
  constructor(
    readonly provider: string,
    message: string,
    readonly statusCode?: number,
    options?: { cause?: unknown; retryable?: boolean },
  ) {
    super(message, options);
    this.name = 'ProviderError';
    this.retryable = options?.retryable ?? isRetryableStatus(statusCode);
  }
}

/** 5xx, 408, 429 and network failures (no status) are worth retrying; other 4xx are not. */
export function isRetryableStatus(status: number | undefined): boolean {
  if (status === undefined) return true;
  if (status === 408 || status === 429) return true;
  return status >= 500;
}
