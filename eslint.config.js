// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-types/**',
      '**/node_modules/**',
      'data/**',
      '**/*.js',
      '**/*.cjs',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          // Root tool configs belong to no package; they are checked with strict options too.
          allowDefaultProject: ['vitest.config.ts'],
          defaultProject: 'tsconfig.tools.json',
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      eqeqeq: ['error', 'always'],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      // Template literals with numbers are common and clear in messages ("chunk 3 of 7").
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
    },
  },
  {
    // Only the crypto package may touch WebCrypto, and it must stay runnable in a browser.
    files: ['packages/crypto/src/**/*.ts'],
    ignores: ['packages/crypto/src/**/*.test.ts', 'packages/crypto/src/bench/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:*'] }],
    },
  },
  // The web app's arrows run one way: app -> features -> ui and session -> lib, so shared UI and
  // state never depend on a screen. A relative import names the folder it reaches, so each layer
  // lists the folders above it.
  ...webLayer('features', ['app']),
  ...webLayer('ui', ['app', 'features']),
  ...webLayer('session', ['app', 'features', 'ui']),
  ...webLayer('lib', ['app', 'features', 'ui', 'session'], { testsMayUse: ['session'] }),
  ...webLayer('sw', ['app', 'features', 'ui', 'session']),
);

/**
 * `no-restricted-imports` for one folder of `packages/web/src`: it may not import the folders above
 * it. `testsMayUse` lifts a ban for its tests (a lib test may build a whole session to drive it).
 * @param {string} layer
 * @param {string[]} above
 * @param {{ testsMayUse?: string[] }} [options]
 */
function webLayer(layer, above, { testsMayUse = [] } = {}) {
  const files = [`packages/web/src/${layer}/**/*.{ts,tsx}`];
  const tests = [`packages/web/src/${layer}/**/*.test.{ts,tsx}`];
  /** @param {string[]} folders */
  const rule = (folders) => ({
    'no-restricted-imports': [
      'error',
      {
        patterns: folders.map((folder) => ({
          regex: `^(\\.\\./)+${folder}(/|$)`,
          message: `${layer}/ sits below ${folder}/: move what both need down (ui/, session/ or lib/).`,
        })),
      },
    ],
  });
  if (testsMayUse.length === 0) return [{ files, rules: rule(above) }];
  return [
    { files, ignores: tests, rules: rule(above) },
    { files: tests, rules: rule(above.filter((folder) => !testsMayUse.includes(folder))) },
  ];
}
