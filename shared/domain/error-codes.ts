/**
 * Every `code` an `{code, detail}` error body of the REST API can carry: the one list the OpenAPI
 * document's `ErrorBody.code` enum is built from and the only codes `AppError` accepts, so a new
 * code is added here or the build fails (and `test/unit/domain/error-codes.test.ts` scans the
 * source for codes that bypass `AppError`). A 422 has no `code`: its body lists the invalid fields.
 */
export const API_ERROR_CODES = [
  'unauthorized', // 401
  'insufficient_minutes', // 402
  'not_found', // 404
  'method_not_allowed', // 405, with Allow
  'idempotency_conflict', // 409
  'conflict', // 409
  'call_not_live', // 409, POST /calls/{id}/listen on a call not in progress
  'booking_cancelled', // 409
  'tool_in_use', // 409
  'workflow_in_use', // 409
  'knowledge_base_in_use', // 409
  'quota_exceeded', // 409, a create past a business quota
  'precondition_failed', // 412, a stale If-Match
  'payload_too_large', // 413
  'unsupported_media_type', // 415
  'rate_limited', // 429
  'internal', // 500
  'ingestion_unavailable', // 503
  'search_unavailable', // 503
  'web_calls_unavailable', // 503, POST /calls/web where WEB_CALL_URL is unset
] as const;

/** A code the API can answer with. */
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/**
 * Codes that never reach an API client: the ops command line's (`npm run admin`: a bad argument,
 * a number already assigned) and the one `ValidationError` carries (its 422 body has no code).
 */
export const NON_API_ERROR_CODES = ['invalid_argument', 'number_taken', 'validation_error'] as const;

/** Every code an `AppError` may carry. */
export type ErrorCode = ApiErrorCode | (typeof NON_API_ERROR_CODES)[number];
