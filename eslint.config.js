// Lint, run by `npm run check` (which .ci/run runs after npm test): what the type checker does
// not catch and a reviewer should not have to.
//  - switch-exhaustiveness-check: a new event type or state cannot be silently
//    skipped by a switch (projectors and routing rules switch over unions);
//  - no-floating-promises: a promise nobody awaits loses its error (write with
//    `void` when fire-and-forget is meant, and say why);
//  - no-unused-vars: dead names are where stale code hides;
//  - regexp/no-super-linear-backtracking, regexp/no-super-linear-move (src only):
//    every pattern in the service may meet untrusted text (mail, requests), and
//    one that backtracks super-linearly stalls the whole process (issue 43: a
//    5.7 KB mail held it 10 s). Linear patterns only; a pattern that must stay
//    is bounded by the length of what it reads and says so in a disable comment.
//  - complexity at most 20 (src/capabilities): a rule function past that is several
//    rules in one (decideSla was 65 before it became three target rules composed);
//    split it into named rules, as the capability's decider files do.
// Formatting is Prettier's (.prettierrc.json), not lint's.
import tseslint from 'typescript-eslint';
import regexp from 'eslint-plugin-regexp';

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
  {
    files: ['src/**/*.ts'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      // The strictest settings: sticky and partial patterns too, and moves that are only potentially super-linear.
      'regexp/no-super-linear-move': ['error', { ignoreSticky: false, ignorePartial: false, report: 'potential' }],
    },
  },
  {
    files: ['src/capabilities/**/*.ts'],
    rules: { complexity: ['error', 20] },
  },
);
