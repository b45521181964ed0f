import { defineConfig } from 'vitest/config';

/**
 * Whole calls over the sandbox (the whole call path on loopback, `test/support/call-stack.ts`):
 * the slowest files by far, in their own project so the fast loop can leave them out.
 */
const WHOLE_CALLS = [
  'test/integration/media/call-*.test.ts',
  'test/integration/media/live-mode.test.ts',
  'test/integration/api/openapi-client.test.ts',
  'test/integration/attack/custom-model.test.ts',
  'test/integration/attack/inbound-calls.test.ts',
  'test/integration/attack/media-service.test.ts',
];

/** The real stand-ins (DynamoDB Local, fauxqs), started once per run by the global setup. */
const standIns = { globalSetup: ['test/setup/global-setup.ts'], testTimeout: 30_000, hookTimeout: 60_000 };

/**
 * Three projects: `unit` is pure code with no I/O; `integration` talks to the real stand-ins and
 * sandbox servers on loopback; `calls` runs whole calls. `npm test` runs all three,
 * `npm run test:unit` the first, `npm run test:fast` the first two.
 */
export default defineConfig({
  test: {
    projects: [
      // The infra tests synthesize the CDK app in a hook: seconds on a quiet machine, more on a busy one.
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], hookTimeout: 60_000 } },
      { test: { name: 'integration', include: ['test/integration/**/*.test.ts'], exclude: WHOLE_CALLS, ...standIns } },
      { test: { name: 'calls', include: WHOLE_CALLS, ...standIns } },
    ],
  },
});
