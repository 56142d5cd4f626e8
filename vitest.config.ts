import { defineConfig } from 'vitest/config';

// One runner for every package: server and shared tests in Node, web tests in jsdom (see apps/web/vitest.setup.ts).
export default defineConfig({
  test: {
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
