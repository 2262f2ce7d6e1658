import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import layers from './eslint.layers.js';

export default tseslint.config(
  { ignores: ['dist/', 'packages/*/dist/', 'node_modules/', 'data/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': 'error',
      eqeqeq: 'error',
    },
  },
  {
    files: ['test/**', 'bench/**', 'packages/*/examples/**'],
    rules: { 'no-console': 'off' },
  },
  ...layers,
);
