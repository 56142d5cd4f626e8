import os from 'node:os';
import { defineConfig } from 'vitest/config';

// One runner for every package: server and shared tests in Node, web tests in jsdom (see apps/web/vitest.setup.ts).
export default defineConfig({
  test: {
    // One test file per core. Vitest's default is one fewer, a single worker on the 2-core CI machine, where the
    // files mostly wait on a database (PGlite's WASM, or PostgreSQL over a socket): two workers took the embedded pass
    // from 466 to 368 s and the PostgreSQL pass from 303 to 199 s (decision 0234). Each file has its own database.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'node',
          include: [
            'packages/shared/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'apps/server/test/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        extends: './apps/web/vite.config.ts',
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./vitest.setup.ts'],
        },
      },
      {
        extends: './apps/console/vite.config.ts',
        test: {
          name: 'console',
          root: './apps/console',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // The screens' tests type into whole forms (a few seconds each on two busy cores): 5 s is too close.
          testTimeout: 20_000,
          setupFiles: ['./vitest.setup.ts'],
        },
      },
    ],
  },
});
