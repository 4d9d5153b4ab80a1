import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const ENTRY_POINTS = ['./src/server.ts', './src/bootstrap.ts', './src/cli'];
const above = (...layers) => [...ENTRY_POINTS, './src/app.ts', ...layers];

/** Each layer, and what it may not import: everything above it. */
const LAYER_ZONES = [
  { target: './src/app.ts', from: ENTRY_POINTS, message: 'The app does not import the entry points.' },
  { target: './src/http', from: above(), message: 'The HTTP pipeline does not import the app or an entry point.' },
  { target: './src/areas', from: above('./src/http'), message: 'An area imports the route kit, domain, db and lib, never the HTTP pipeline or the app.' },
  { target: './src/route-kit', from: above('./src/http', './src/areas', './src/db'), message: 'The route kit is a leaf: domain, lib and config only.' },
  { target: './src/db', from: above('./src/http', './src/areas', './src/route-kit', './src/domain'), message: 'The data layer knows no area, route or policy.' },
  { target: './src/domain', from: above('./src/http', './src/areas', './src/route-kit', './src/db', './src/config.ts'), message: 'The kernel uses only itself and lib.' },
  { target: './src/lib', from: above('./src/http', './src/areas', './src/route-kit', './src/db', './src/config.ts', './src/domain/actor.ts', './src/domain/policy.ts'), message: 'lib holds pure helpers: it uses only itself and domain/errors.ts.' },
];

/** How deep an area's files may sit below its folder (0: src/areas/<name>/x.ts); a deeper file fails lint. */
const AREA_DEPTHS = [0, 1, 2];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'test-artifacts/', 'web/src/api/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // The layers call only downwards (docs/architecture.md "The layers"): entry points → app → http →
  // areas → route kit → domain, db, lib. No import cycle anywhere, and no import up a layer.
  {
    files: ['src/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['tsconfig.json', 'web/tsconfig.json'], noWarnOnMultipleProjects: true })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: LAYER_ZONES }],
    },
  },
  // Areas meet only through each other's face (src/areas/<name>/index.ts); see docs/architecture.md.
  // An area's files sit in sub-folders by job (access/sign-in/link/…), so the way up to src/areas/
  // is one `../` per level: each depth has its own pattern, and a sibling folder of the same area
  // (`../sessions/…` from access/api-keys/) is not another area, though it too is reached through its index.ts.
  ...AREA_DEPTHS.map((depth) => ({
    files: [`src/areas/*/${'*/'.repeat(depth)}*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^${'\\.\\./'.repeat(depth + 1)}(?!\\.)[^/]+/(?!index\\.js$)`,
              message: 'Import another area only through its index.ts (its face).',
            },
            // Inside the area, another job's folder (access/sign-in/link/ → ../password/) is reached through its index.ts too.
            ...(depth === 0
              ? []
              : [
                  {
                    regex: `^(\\.\\./){1,${depth}}(?!\\.)([^/]+/)+(?!index\\.js$)[^/]+$`,
                    message: "Import another job's folder of this area only through its index.ts (docs/architecture.md, access/ by job).",
                  },
                ]),
          ],
        },
      ],
    },
  })),
  // Inside an area, a folder of one job reaches another job's folder through its services, never its
  // repository (docs/architecture.md "access/ by job"), as areas reach each other through their faces.
  {
    files: ['src/areas/*/*/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration'].map((node) => ({
          selector: `${node}[source.value=/^(\\.\\.\\/)+[a-z-]+\\/(.+\\/)?[a-z-]*repository\\.js$/]`,
          message: "Reach another job's folder through its service, never its repository (docs/architecture.md, access/ by job).",
        })),
      ],
    },
  },
  {
    files: [`src/areas/*/${'*/'.repeat(AREA_DEPTHS.length)}**/*.ts`],
    rules: {
      'no-restricted-syntax': ['error', { selector: 'Program', message: `An area's files sit at most ${AREA_DEPTHS.length - 1} folders below it (AREA_DEPTHS in eslint.config.js).` }],
    },
  },
  // SQL lives in repositories (and the one listing statement built as text): a service, a rule or a
  // route of an area neither imports Kysely's values nor builds a query (docs/architecture.md "Inside an area").
  {
    files: ['src/areas/**/*.ts'],
    ignores: ['src/areas/**/*repository.ts', 'src/areas/**/*-statement.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'kysely', allowTypeImports: true, message: 'SQL lives in the area\'s repository files (docs/architecture.md, Inside an area).' }] },
      ],
      'no-restricted-properties': [
        'error',
        ...['selectFrom', 'insertInto', 'updateTable', 'deleteFrom', 'executeQuery', 'replaceInto', 'mergeInto'].map((property) => ({
          property,
          message: 'Queries are built in the area\'s repository files (docs/architecture.md, Inside an area).',
        })),
      ],
    },
  },
  // A face exports use cases only: other areas call use cases, never a repository (docs/architecture.md "Inside an area").
  {
    files: ['src/areas/*/index.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['ExportNamedDeclaration', 'ExportAllDeclaration', 'ImportDeclaration'].map((node) => ({
          selector: `${node}[source.value=/repository/]`,
          message: "An area's face exports use cases (from its service files), never its repository (docs/architecture.md, Inside an area).",
        })),
      ],
    },
  },
  {
    files: ['src/*.ts', 'src/*/**/*.ts'],
    ignores: ['src/areas/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '/areas/[^/]+/(?!index\\.js$)',
              message: 'Outside src/areas, import an area only through its index.ts (its face).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
