import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` is pure code with no I/O; `integration` talks to the real stand-ins
 * (DynamoDB Local, fauxqs, sandbox servers on loopback) that the global setup starts once.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/setup/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
