// ESLint: typescript-eslint's recommended rules, plus the layering the code map in the README
// describes, enforced rather than hoped for (`npm run lint`, run by CI before the tests).
import js from '@eslint/js';
import path from 'node:path';
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

/**
 * The layer rules: who may import whom, by the imported file's path from the repository root
 * (extension dropped) or, for a package, its name. A rule applies to `files`; it forbids
 * `disallow`, or everything but `allowOnly`. Type-only imports count: a type import is still a
 * dependency a reader has to follow. Each rule's `reason` is the message a break reports.
 */
const LAYERS = [
  {
    files: ['functions/**'],
    disallow: ['media-service/**'],
    reason:
      'functions/ never imports media-service/: a Lambda that imports the engine bundles it (the sweeper once shipped an engine adapter). Put what both need in shared/.',
  },
  {
    files: ['media-service/**'],
    disallow: ['functions/**'],
    reason: 'media-service/ never imports functions/: two deployables, each built from its own tree plus shared/.',
  },
  {
    files: ['console/**', 'web-client/**'],
    disallow: ['shared/**', 'functions/**', 'media-service/**', 'scripts/**', 'infra/**'],
    reason:
      'console/ and web-client/ run in a browser and know the API only through its OpenAPI document (console/src/api/schema.d.ts, generated) and the documented web-call protocol: nothing of the server may be bundled into a page.',
  },
  {
    files: ['scripts/**'],
    disallow: ['test/**'],
    reason:
      'scripts/ never imports test/: `npm run dev` is product tooling, so the local stack lives in scripts/local (tests import its starters from there, not the other way round).',
  },
  {
    files: ['shared/**'],
    disallow: ['functions/**', 'media-service/**', 'scripts/**', 'bench/**'],
    reason: 'shared/ never imports functions/, media-service/, scripts/ or bench/: everything else is built on shared/, never the reverse.',
  },
  {
    files: ['shared/domain/**'],
    // @valibot/to-json-schema is valibot's own converter (the OpenAPI text is built from the schemas).
    allowOnly: ['shared/domain/**', 'shared/errors', 'valibot', 'luxon', '@valibot/to-json-schema'],
    reason:
      'shared/domain is pure: it imports only the domain, valibot, luxon and shared/errors, so every layer can use it and it can be tested without I/O.',
  },
  {
    files: ['shared/db/**'],
    disallow: ['shared/knowledge/**', 'shared/services/**'],
    reason:
      'shared/db is storage: it sees the domain, not the services or the knowledge pipeline built on it (types it shares with them live in shared/domain).',
  },
  {
    files: ['shared/knowledge/**'],
    disallow: ['shared/services/**'],
    reason: 'shared/knowledge is used by the services, never the reverse: types both need live in shared/domain.',
  },
  {
    files: ['media-service/src/call/**'],
    disallow: ['shared/db/**', 'shared/services/**', 'media-service/src/adapters/**'],
    reason:
      'media-service/src/call sees ports (media-service/src/ports), not repositories, services or adapters: the composition root (main.ts, server/) passes the concrete objects.',
  },
];

/** The path an import names: repository-relative without extension for a relative import, else the package name. */
function importTarget(specifier, filename, root) {
  if (!specifier.startsWith('.')) return specifier;
  const resolved = path.relative(root, path.resolve(path.dirname(filename), specifier));
  return resolved
    .split(path.sep)
    .join('/')
    .replace(/\.(ts|js|mjs)$/, '');
}

const matchesAny = (file, globs) => globs.some((glob) => path.matchesGlob(file, glob));

/** The one rule behind LAYERS (ESLint's `no-restricted-imports` matches import text, not the file it names). */
const layersRule = {
  meta: { type: 'problem', schema: [], messages: { layer: '{{reason}} ({{target}})' } },
  create(context) {
    const root = import.meta.dirname;
    const file = path.relative(root, context.filename).split(path.sep).join('/');
    const rules = LAYERS.filter((rule) => matchesAny(file, rule.files));
    if (rules.length === 0) return {};
    const check = (source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      const target = importTarget(source.value, context.filename, root);
      for (const rule of rules) {
        const broken = rule.allowOnly ? !matchesAny(target, rule.allowOnly) : matchesAny(target, rule.disallow);
        if (broken) context.report({ node: source, messageId: 'layer', data: { reason: rule.reason, target } });
      }
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      TSImportType: (node) => check(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument),
    };
  },
};

export default tseslint.config(
  { ignores: ['node_modules/**', 'cdk.out/**', '**/dist/**', 'coverage/**', '.data/**'] },
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
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { layers: { rules: { imports: layersRule } } },
    rules: { 'layers/imports': 'error' },
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
  {
    // Product code logs through the one logger (shared/log.ts), which keeps call content and secrets out.
    files: ['shared/**/*.ts', 'functions/**/*.ts', 'media-service/src/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
);
