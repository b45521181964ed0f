/**
 * The limits of whole-call tests: bounds on a hang, not timings. A call plays in real time, and on
 * a quiet machine the longest takes about 40 s; with a second `npm test` (or a type check) beside
 * it, the sandbox, the engine and DynamoDB Local all run late, and the same calls took two to
 * three times as long (four of them failed a 45 s wait). The call's own limits (silence, max
 * duration) are the product's, and tests assert on them; these only stop a test that would
 * otherwise wait for ever.
 */

/** A wait on one call (it ends, a stream opens, a condition holds). */
export const CALL_HANG_MS = 240_000;

/**
 * A whole-call test or hook (the `calls` project's default, vitest.config.ts): longer than
 * {@link CALL_HANG_MS}, so a hung call is reported by the wait that names it.
 */
export const CALL_TEST_MS = 300_000;
