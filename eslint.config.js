// ESLint: typescript-eslint's recommended rules, plus the layering the code map in the README
// describes, enforced rather than hoped for (`npm run lint`, run by CI before the tests).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const AWS_SDK = {
  group: ['@aws-sdk/*'],
  message: 'AWS SDK clients belong in shared/db, shared/events, shared/queue, adapters and composition roots.',
};
const VENDOR_SDKS = {
  group: ['openai', 'openai/*', '@deepgram/sdk', '@deepgram/sdk/*', 'twilio', 'twilio/*'],
  message: 'Vendor SDKs belong in adapters.',
};
const TESTS = { group: ['**/test/**'], message: 'Product code never imports from test/.' };

/** Where each kind of import is allowed: every product file gets the rules, these places are exempt. */
const AWS_ALLOWED = [
  'shared/db/**',
  'shared/events/**',
  'shared/queue/**',
  'shared/llm/**',
  'media-service/src/adapters/**',
  // Composition roots: they build the clients the rest receive.
  'functions/lib/**',
  'functions/*/index.ts',
  'functions/*/deps.ts',
  'media-service/src/main.ts',
  'media-service/src/server/media-runtime.ts',
  // The retention function is an S3 adapter by nature: it deletes recordings.
  'functions/retention/delete-recordings.ts',
];
const VENDOR_ALLOWED = ['media-service/src/adapters/**', 'shared/llm/**'];
const PRODUCT = ['shared/**/*.ts', 'functions/**/*.ts', 'media-service/**/*.ts', 'infra/**/*.ts'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'cdk.out/**', 'dist/**', 'coverage/**', '.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
      // A handler declared before the object it calls back into is built is fine (read before assign).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: PRODUCT,
    ignores: [...AWS_ALLOWED, 'infra/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [AWS_SDK, VENDOR_SDKS, TESTS] }] },
  },
  {
    files: AWS_ALLOWED,
    ignores: VENDOR_ALLOWED,
    rules: { 'no-restricted-imports': ['error', { patterns: [VENDOR_SDKS, TESTS] }] },
  },
  {
    files: ['infra/**/*.ts', ...VENDOR_ALLOWED],
    rules: { 'no-restricted-imports': ['error', { patterns: [TESTS] }] },
  },
);
