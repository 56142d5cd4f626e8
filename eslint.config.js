import fs from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Every folder of apps/console/src/features is a feature: a new one is guarded without an edit here (the hand-kept list
// had missed `money`, issue 27).
const CONSOLE_FEATURES = fs
  .readdirSync(new URL('./apps/console/src/features/', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      '**/coverage/**',
      'e2e/.artifacts/**',
      'apps/server/public/vendor/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules, 'no-console': 'error' },
  },
  // Import boundaries (docs/architecture.md): shared code never reaches up into features or the app shell, features
  // never import each other, infrastructure never imports feature modules, product code never imports test support.
  {
    files: ['apps/web/src/{lib,components,store,i18n}/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/app/**', '../app', '**/features/**', '../test/**'],
              message:
                'lib/, components/, store/ and i18n/ are shared: they must not import app/, features/ or test support.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*/**', '!../../**', '**/app/**', '**/test/**'],
              message:
                'A feature imports only its own files and shared folders (lib/, components/, store/, i18n/): move what two features share to a shared folder.',
            },
          ],
        },
      ],
    },
  },
  // The server's layers and module faces are dependency-cruiser's (.dependency-cruiser.cjs, decision 0199); ESLint only
  // keeps test support out of product code.
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/test/support/**', '**/test-support/**'],
              message: 'Product code never imports test support (it lives in apps/server/test/support).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/console/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules, 'no-console': 'error' },
  },
  // The signing page's script runs in the browser and only declares the types of what the page loads (decision 0200),
  // but for the contract's reflow, a file with no imports that esbuild bundles in (the addendum of 0200).
  {
    files: ['apps/server/assets/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: String.raw`^(?!\.\./\.\./src/modules/signing/reflow-text\.js$)(\.|@paylink/)`,
              message:
                'The signing page script runs in the browser: of the server it imports only reflow-text.ts, which has no imports.',
            },
          ],
        },
      ],
    },
  },
  // The console's one-way imports: shared → features → app (a feature never imports another feature or the app).
  {
    files: ['apps/console/src/shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['**/features/**', '**/app/**'], message: 'shared/ must not import features/ or app/.' }],
        },
      ],
    },
  },
  ...CONSOLE_FEATURES.map((feature) => ({
    files: [`apps/console/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/app/*', '**/app'], message: 'features/ must not import app/.' },
            {
              group: CONSOLE_FEATURES.filter((f) => f !== feature).flatMap((f) => [`../${f}/*`, `**/features/${f}/*`]),
              message: 'A feature must not import another feature; move what both need to shared/.',
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
);
