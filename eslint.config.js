import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const CONSOLE_FEATURES = ['auth', 'links', 'payments', 'funnel', 'staff', 'settings'];

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
  {
    files: ['apps/console/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules, 'no-console': 'error' },
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
