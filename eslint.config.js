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

/** Where the event's name may be read: the parser, which tells runs apart by it once. */
const EVENT_PARSER = ['src/given/event.ts', 'src/given/read-event.ts']

/** Functions that only show a value in words, and the parents a shown value passes through. */
const SHOWS = new Set(['oneLine', 'forLog', 'quoteValue', 'escapeMarkup'])
const THROUGH = new Set(['LogicalExpression', 'ChainExpression', 'TSNonNullExpression'])

/**
 * Outside the parser, the event's name (`EventName`, a branded string) is only shown: inside a
 * template literal or as the text of a function in SHOWS. A comparison, a switch, an index, a
 * method call, a set lookup or a destructuring is refused, and so is any spelling of the variable
 * it comes from (`GITHUB_EVENT_NAME`, `eventName`). `__tests__/kinds.test.ts` writes each way.
 *
 * @type {import('eslint').Rule.RuleModule}
 */
const eventName = {
  meta: {
    type: 'problem',
    messages: {
      read: "Only the event parser ({{parser}}) reads the event's name: tell runs apart by `occasion`, or show the name in words."
    },
    schema: []
  },
  create(context) {
    const file = context.filename.split('\\').join('/')
    if (EVENT_PARSER.some((parser) => file.endsWith(parser))) return {}
    const services = context.sourceCode.parserServices
    const parser = EVENT_PARSER[0]
    /** @param {import('estree').Node} node */
    const report = (node) => context.report({ node, messageId: 'read', data: { parser } })
    /** @param {any} node */
    const isName = (node) => {
      const type = services?.program && services.getTypeAtLocation(node)
      const types = type?.isUnion?.() ? type.types : [type]
      return types.some((/** @type {any} */ t) => Boolean(t?.getProperty?.('__eventName')))
    }
    /** @param {any} node */
    const shown = (node) => {
      let at = node
      while (at.parent && THROUGH.has(at.parent.type)) at = at.parent
      const parent = at.parent
      if (parent?.type === 'TemplateLiteral') return true
      return (
        parent?.type === 'CallExpression' &&
        parent.arguments[0] === at &&
        parent.callee.type === 'Identifier' &&
        SHOWS.has(parent.callee.name)
      )
    }
    /** @param {any} node */
    const check = (node) => {
      if (isName(node) && !shown(node)) report(node)
    }
    return {
      MemberExpression: check,
      /** @param {any} node */
      Identifier(node) {
        if (/EVENT_NAME|eventName/.test(node.name)) return report(node)
        const parent = node.parent
        if (parent?.type === 'MemberExpression' && parent.property === node && !parent.computed)
          return
        check(node)
      },
      /** @param {any} node */
      Literal(node) {
        if (typeof node.value === 'string' && /EVENT_NAME|eventName/.test(node.value)) report(node)
      }
    }
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
    files: ['src/**'],
    plugins: { action: { rules: { 'event-name': eventName } } },
    rules: { 'action/event-name': 'error' }
  },

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
