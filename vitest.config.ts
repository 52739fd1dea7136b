import { defineConfig } from 'vitest/config';

// Three tiers (docs/ARCHITECTURE.md, "Tests"): unit tests sit next to their code; integration
// tests cross the HTTP and database boundary; e2e tests drive the built app in Chromium.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
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
          // One browser and one app server at a time: the machine has two cores.
          fileParallelism: false,
        },
      },
    ],
  },
});
