// @ts-check
import js from '@eslint/js'
import { defineConfig, globalIgnores } from 'eslint/config'
import prettier from 'eslint-config-prettier/flat'
import jest from 'eslint-plugin-jest'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/**
 * The layers of src/, lowest first: each may import the ones below it, never one above, so no
 * cycle can come back. Arrows run one way: main → act → publish → present → decide → read →
 * clients (github, mintlify, trigger, inputs, the run's state and edges) → base.
 */
/** @typedef {{ name: string, files: string[], folders?: string[], modules?: string[] }} Layer */
/** @type {Layer[]} */
const LAYERS = [
  {
    name: 'base',
    files: [
      ...['errors', 'duration', 'sanitize', 'runtime', 'http'].map((f) => `src/${f}.ts`),
      'src/secrets/**'
    ]
  },
  {
    name: 'clients',
    files: [
      'src/github/**',
      'src/mintlify/**',
      'src/trigger/**',
      'src/command/**',
      'src/inputs/**',
      'src/inputs.ts',
      'src/run.ts',
      'src/step.ts'
    ],
    folders: ['github', 'mintlify', 'trigger', 'command', 'inputs'],
    modules: ['inputs', 'run', 'step']
  },
  { name: 'read', files: ['src/read/**'], folders: ['read'] },
  { name: 'decide', files: ['src/decide/**'], folders: ['decide'] },
  { name: 'present', files: ['src/present/**'], folders: ['present'] },
  { name: 'publish', files: ['src/publish/**'], folders: ['publish'] },
  { name: 'act', files: ['src/act/**'], folders: ['act'] },
  { name: 'main', files: ['src/main.ts', 'src/index.ts'], modules: ['main'] }
]

/**
 * Import paths, as written from a file at `src/` or one folder down, that reach `layer`.
 *
 * @param {Layer} layer
 * @returns {string[]}
 */
function pathsTo(layer) {
  const folders = (layer.folders ?? []).flatMap((f) => [`./${f}/*`, `../${f}/*`])
  const modules = (layer.modules ?? []).flatMap((m) => [`./${m}.js`, `../${m}.js`])
  return [...folders, ...modules]
}

/**
 * Each layer's rule: nothing above it may be imported.
 *
 * @type {import('eslint').Linter.Config[]}
 */
const layering = LAYERS.slice(0, -1).map((layer, i) => ({
  files: layer.files,
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: LAYERS.slice(i + 1).flatMap(pathsTo),
            message: `The ${layer.name} layer imports only what lies below it (see eslint.config.js).`
          }
        ]
      }
    ]
  }
}))

/**
 * The decision is pure: from the clients and the read stage it takes types and pure helpers only,
 * never a module that reads or writes.
 *
 * @type {import('eslint').Linter.Config}
 */
const pureDecision = {
  files: ['src/decide/**'],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: LAYERS.slice(4).flatMap(pathsTo),
            message: 'The decide layer imports only what lies below it (see eslint.config.js).'
          },
          {
            group: [
              '../github/*',
              '../mintlify/*',
              '../step.js',
              '../http.js',
              '../read/read.js',
              '../read/pull.js',
              '../read/recorded.js'
            ],
            allowTypeImports: true,
            message:
              'The decision is pure: it may take types from here, nothing that reads or writes.'
          }
        ]
      }
    ]
  }
}

export default defineConfig([
  globalIgnores(['dist/', 'coverage/', 'node_modules/']),

  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: globals.node,
      parserOptions: {
        // tsconfig.json covers src, tests, fixtures, simulator, scripts and the root config files;
        // its allowJs/checkJs give the JSDoc-typed JavaScript real types too.
        projectService: true,
        tsconfigRootDir: import.meta.dirname
      }
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error'
    },
    rules: {
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true }
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }
      ]
    }
  },

  ...layering,
  pureDecision,

  {
    // The simulator and scripts are JSDoc-typed JavaScript. Type-aware rules such as
    // no-floating-promises stay on; the no-unsafe-* family is off because Node's own typings hand
    // JavaScript `any` (stream chunks, event listeners on a union of servers) that only a
    // parenthesised JSDoc cast per use would narrow, which costs more than it catches here.
    files: ['**/*.js'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off'
    }
  },

  {
    // Small repository scripts outside tsconfig.json: no type information to lint against.
    files: ['.github/**/*.js'],
    extends: [tseslint.configs.disableTypeChecked]
  },

  {
    // Fakes implement async interfaces (fetch, sleep, getJob) with `async () => value`.
    files: ['__tests__/**', '__fixtures__/**'],
    rules: {
      '@typescript-eslint/require-await': 'off'
    }
  },

  {
    files: ['__tests__/**'],
    extends: [jest.configs['flat/recommended']],
    rules: {
      // fast-check properties assert through fc.assert.
      'jest/expect-expect': ['warn', { assertFunctionNames: ['expect', 'fc.assert'] }],
      // The jest variant knows that `expect(client.get).toHaveBeenCalled()` does not call unbound.
      '@typescript-eslint/unbound-method': 'off',
      'jest/unbound-method': 'error'
    }
  },

  prettier
])
