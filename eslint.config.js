import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', '.output/', '.wxt/', 'data/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // The server's logger and the command-line entry points write to the console on purpose.
    files: [
      'server/platform/log/log.ts',
      'server/main.ts',
      'server/browsers/browser-node/main.ts',
      'server/api/cli/**/*.ts',
      'test/**/*.ts',
      'bench/**/*.ts',
    ],
    rules: { 'no-console': 'off' },
  },
);
