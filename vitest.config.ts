import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { CALL_TEST_MS } from './test/support/call-limits';

/**
 * Whole calls over the sandbox (the whole call path on loopback, `test/support/call-stack.ts`):
 * the slowest files by far, in their own project so the fast loop can leave them out.
 */
const WHOLE_CALLS = [
  'test/integration/media/call-*.test.ts',
  'test/integration/media/live-mode.test.ts',
  'test/integration/media/live-workflows.test.ts',
  'test/integration/api/openapi-client.test.ts',
  'test/integration/attack/custom-model.test.ts',
  'test/integration/attack/inbound-calls.test.ts',
  'test/integration/attack/media-service.test.ts',
  'test/integration/console/console-web-call.test.ts',
];

/** The real stand-ins (DynamoDB Local, fauxqs), started once per run by the global setup. */
const standIns = { globalSetup: ['test/setup/global-setup.ts'], testTimeout: 30_000, hookTimeout: 60_000 };

/**
 * Whole-call tests: one limit, a bound on a hang and not a timing (a call takes two to three times
 * as long on a machine busy with a second `npm test` as on a quiet one; test/support/call-limits.ts).
 */
const wholeCalls = { ...standIns, testTimeout: CALL_TEST_MS, hookTimeout: CALL_TEST_MS };

/**
 * Test files run at once: three per CPU. Most of a whole-call file's time is spent waiting (calls
 * play in real time), not computing: on 2 cores the suite's files add up to about 1,160 s, 740 s
 * of it whole calls, while it uses about 1.2 cores, so with four files at once the run was bound
 * by the slots the waiting calls held (317 s), and six at once took 264 s
 * (docs/decisions.md "Test run time: three files per core"). `VITEST_MAX_WORKERS` overrides it.
 */
const maxWorkers = Number(process.env.VITEST_MAX_WORKERS ?? Math.max(2, 3 * availableParallelism()));

/**
 * Four projects: `unit` is pure code with no I/O, the fast loop (seconds); `infra` synthesises the
 * CDK app and checks its templates (about 30 s of CPU: importing aws-cdk-lib, the syntheses with
 * cdk-nag); `integration` talks to the real stand-ins and sandbox servers on loopback; `calls` runs
 * whole calls. `npm test` runs all four, `npm run test:unit` the first, `npm run test:infra` the
 * second, `npm run test:fast` unit and integration.
 */
export default defineConfig({
  test: {
    maxWorkers,
    projects: [
      // Pure code and no shared state, so the files of one worker share their imports (valibot, the
      // SDKs): less than half the CPU time of isolated files.
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false, testTimeout: 30_000 } },
      // The infra checks are one test file (test/infra/stages.test.ts) sharing one synthesis
      // (test/infra/synth.ts): one worker imports aws-cdk-lib, not four. The limits are generous
      // because a synthesis (in a hook) takes seconds on a quiet machine and a minute or more on a busy one.
      { test: { name: 'infra', include: ['test/infra/**/*.test.ts'], isolate: false, testTimeout: 30_000, hookTimeout: 180_000 } },
      // Integration and whole-call files share their worker's imports too: every file builds its own
      // stacks, businesses and servers, and none mocks a module or leaves state in one. Re-importing
      // the SDKs, Hono and the engine for each of ~120 files was half the suite's CPU on 2 cores
      // (11.5 CPU-minutes and 408 s isolated; 6.5 and 283 s shared, docs/performance.md "Test suite").
      { test: { name: 'integration', include: ['test/integration/**/*.test.ts'], exclude: WHOLE_CALLS, isolate: false, ...standIns } },
      { test: { name: 'calls', include: WHOLE_CALLS, isolate: false, ...wholeCalls } },
    ],
  },
});
