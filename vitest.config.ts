import { defineConfig } from 'vitest/config';

// Three tiers (docs/ARCHITECTURE.md, "Tests"): unit tests sit next to their code; integration
// tests cross the HTTP and database boundary; e2e tests drive the built app in Chromium.
// Most test files wait on something (a worker's poll, a socket, a page) far more than they
// compute, so files run three at a time on two cores (decision 0007): first the unit and
// integration files, those that start whole server and worker processes (kill -9, SIGTERM,
// leader hand-over) among them, then the browser files against one shared Chromium (each file
// has its own app, SMTP sink and browser contexts).
// No file relies on a fresh module graph (no module mocks, fake timers or stubbed globals; each
// opens its own database and servers), so a worker keeps its imports from one file to the next
// (isolate: false): importing the app again for each file was half the integration suite's CPU.
const FILE_WORKERS = Number(process.env.TEST_WORKERS ?? 3);
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'],
          environment: 'node',
          isolate: false,
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
          isolate: false,
          globalSetup: ['tests/support/pglite-template-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 0 },
          maxWorkers: FILE_WORKERS,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          // One Chromium for the run, each file in contexts of its own (decision 0045).
          globalSetup: [
            'tests/support/pglite-template-setup.ts',
            'tests/support/chromium-server-setup.ts',
          ],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          sequence: { groupOrder: 1 },
          maxWorkers: FILE_WORKERS,
        },
      },
    ],
  },
});
