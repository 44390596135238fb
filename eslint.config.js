// @ts-check
import js from '@eslint/js'
import { defineConfig, globalIgnores } from 'eslint/config'
import prettier from 'eslint-config-prettier/flat'
import jest from 'eslint-plugin-jest'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/**
 * The layers of src/ are checked on resolved paths by dependency-cruiser (`npm run lint:layers`,
 * `.dependency-cruiser.js`), which sees every literal import, static or `import()`, and which no
 * comment switches off. What no resolver can see is an `import()` of a computed path: it is
 * refused here, on the syntax, so a file cannot reach around the layers by building a name.
 *
 * @type {import('eslint').Linter.Config}
 */
const staticImports = {
  files: ['src/**'],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        selector: 'ImportExpression',
        message:
          'src/ imports statically, so every import is checked against the layers (see .dependency-cruiser.js).'
      }
    ]
  }
}

export default defineConfig([
  globalIgnores(['dist/', 'coverage/', 'node_modules/', '.stryker-tmp/', 'reports/']),

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

  staticImports,

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
