// Lint, run by `npm test` (pretest → npm run check): what the type checker does
// not catch and a reviewer should not have to.
//  - switch-exhaustiveness-check: a new event type or state cannot be silently
//    skipped by a switch (projectors and routing rules switch over unions);
//  - no-floating-promises: a promise nobody awaits loses its error (write with
//    `void` when fire-and-forget is meant, and say why);
//  - no-unused-vars: dead names are where stale code hides.
// Formatting is Prettier's (.prettierrc.json), not lint's.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'docs/', 'bench/.data/', 'bench/results/', '**/*.cjs'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
);
