// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const frameworks = ['koa', 'koa-*', '@koa/*', 'mongodb', 'ioredis', 'inversify', 'reflect-metadata', 'pino', 'pino-*', 'zod', 'yaml'];

const corePurity = { group: [...frameworks, '@tessera/*'], message: 'core stays pure: no framework, database, DI or sibling package.' };
const certificateLibraries = ['pkijs', 'asn1js'];
const webauthnLibraries = ['@simplewebauthn/*'];
const webauthnOnly = { group: webauthnLibraries, message: '@simplewebauthn/server lives in core/src/modules/webauthn only (its browser library is served by adapter-koa/src/modules/webauthn).' };

/** The hexagon's edges (docs/architecture.md §2), checked on every lint. */
const edges = [
  {
    files: ['packages/core/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [corePurity, { group: certificateLibraries, message: 'pkijs and asn1js live in core/src/modules/x509 only.' }, webauthnOnly] }],
    },
  },
  {
    files: ['packages/core/src/modules/x509/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [corePurity, webauthnOnly] }] },
  },
  {
    files: ['packages/core/src/modules/webauthn/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [corePurity, { group: certificateLibraries, message: 'pkijs and asn1js live in core/src/modules/x509 only.' }] }] },
  },
  ...['adapter-memory', 'adapter-koa', 'adapter-mongo', 'adapter-redis', 'adapter-ldap'].map((adapter) => ({
    files: [`packages/${adapter}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@tessera/adapter-*', `!@tessera/${adapter}`, '@tessera/cli-server'], message: 'adapters never import each other; only cli-server composes them.' },
            { group: ['inversify', 'reflect-metadata'], message: 'only cli-server knows the DI container.' },
            { group: certificateLibraries, message: 'pkijs and asn1js live in core/src/modules/x509 only.' },
          ],
        },
      ],
    },
  })),
  {
    files: ['packages/testkit/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@tessera/adapter-*', '@tessera/cli-server'], message: 'testkit serves every adapter and depends on none.' }] }],
    },
  },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-test/**', '**/node_modules/**', 'test/fixtures/module-pin/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'scripts/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    files: ['**/test/**/*.ts', 'test/**/*.ts'],
    rules: {
      // chai's property assertions (expect(x).to.be.true) read as unused expressions.
      '@typescript-eslint/no-unused-expressions': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  ...edges,
);
