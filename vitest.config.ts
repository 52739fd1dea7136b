import { defineConfig } from 'vitest/config';

// Three tiers (docs/ARCHITECTURE.md, "Tests"): unit tests sit next to their code; integration
// tests cross the HTTP and database boundary; e2e tests drive the built app in Chromium.
// Most test files wait on something (a worker's poll, a socket, a browser) far more than they
// compute, so more files run at once than there are cores; browser files each start an app
// process and a Chromium, so fewer of them do, after the rest.
const FILE_WORKERS = Number(process.env.TEST_WORKERS ?? 4);
const BROWSER_WORKERS = Number(process.env.TEST_BROWSER_WORKERS ?? 2);

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'],
          environment: 'node',
          sequence: { groupOrder: 0 },
          maxWorkers: FILE_WORKERS,
          // Property tests run a hundred cases; beside another file on two busy cores, 5 s is short.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          sequence: { groupOrder: 0 },
          maxWorkers: FILE_WORKERS,
          globalSetup: ['tests/support/pglite-template-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/pglite-template-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          sequence: { groupOrder: 1 },
          maxWorkers: BROWSER_WORKERS,
        },
      },
    ],
  },
});
