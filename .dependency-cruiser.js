/**
 * The layers of src/, checked on the files imports resolve to (`npm run lint:layers`).
 *
 * dependency-cruiser resolves every import, static or dynamic, through TypeScript's resolution,
 * so `../../src/act/act.js`, `./x/../act.js` and `import('../act/act.js')` are the same file to
 * it, and no comment in a source file switches its rules off. `__tests__/layers.test.ts` writes
 * each way around the layers into a copy of src/ and checks that this file reports it.
 */

/**
 * A layer: one folder of src/, named for what it holds; the story is main.ts and index.ts.
 *
 * @typedef {{ name: string, holds: string, paths: string[] }} Layer
 */

/**
 * The layers, lowest first: `ls src` is the architecture. A file imports only from its own layer
 * and those below it, so the arrows run one way and no cycle can come back through a lower
 * layer. A kind of run is its folder in src/kinds/: the core below it treats its reasons, facts
 * and words as opaque, and nothing below it names a kind.
 *
 * @type {Layer[]}
 */
export const LAYERS = [
  {
    name: 'base',
    holds: 'errors, durations, safe text, the secrets, the clock, the one HTTP layer',
    paths: ['^src/base/']
  },
  {
    name: 'given',
    holds: 'what the step is given: the event and the inputs',
    paths: ['^src/given/']
  },
  {
    name: 'clients',
    holds: 'Mintlify and GitHub, and the records the action keeps there',
    paths: ['^src/clients/']
  },
  {
    name: 'run',
    holds: 'the run: its state and time, the change, what it reads and what it decides',
    paths: ['^src/run/']
  },
  {
    name: 'report',
    holds: 'the one report, its words and the places it is written',
    paths: ['^src/report/']
  },
  {
    name: 'kinds',
    holds: 'each kind of run, one folder each, and their registry',
    paths: ['^src/kinds/']
  },
  { name: 'act', holds: 'carrying out the plan', paths: ['^src/act/'] },
  { name: 'story', holds: 'the story of a run and its entry', paths: ['^src/(main|index)[.]ts$'] }
]

/**
 * The only modules a file of the decision may take values from (types it may take from anywhere
 * below it): pure functions of their arguments, which read and write nothing.
 */
export const PURE = [
  '^src/given/event[.]ts$', // the event's accessors (`readEvent` is its one read)
  '^src/run/change/code[.]ts$', // the change's commit and pull request, from the event
  '^src/kinds/command/parse[.]ts$', // a command's words
  '^src/run/read/own[.]ts$', // whose work a pull request is, from facts already read
  '^src/kinds/[^/]+/words[.]ts$' // a kind's reasons, in its words
]

/** The decision: src/run/decide/ and each kind of run's decide.ts. */
const DECISION = ['^src/run/decide/', '^src/kinds/[^/]+/decide[.]ts$']

/** Packages a pure module may use: they compute, and read or write nothing. */
const PURE_PACKAGES = ['(^|/)node_modules/zod/']

const allLayers = LAYERS.flatMap((layer) => layer.paths)
const clients = ['^src/clients/']

/**
 * Each layer's rule: nothing above it, types included (a type from above ties the layer to it as
 * much as a value does).
 *
 * @type {import('dependency-cruiser').IForbiddenRuleType[]}
 */
const layering = LAYERS.slice(0, -1).map((layer, i) => {
  const below = LAYERS.slice(0, i).map((lower) => lower.name)
  return {
    name: `layer-${layer.name}`,
    severity: 'error',
    comment: `The ${layer.name} layer (${layer.holds}) imports only from itself and the layers below it (${below.join(', ') || 'none'}): see LAYERS in .dependency-cruiser.js.`,
    from: { path: layer.paths },
    to: { path: LAYERS.slice(i + 1).flatMap((above) => above.paths) }
  }
})

const placeIt =
  'Every file under src/ is in exactly one layer: place a new folder or loose file in LAYERS (.dependency-cruiser.js).'

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    ...layering,
    {
      // Three rules, because a file may import nothing, be imported by nothing, or both.
      name: 'in-a-layer',
      severity: 'error',
      comment: placeIt,
      from: { path: '^src/', pathNot: allLayers },
      to: {}
    },
    {
      name: 'in-a-layer',
      severity: 'error',
      comment: placeIt,
      from: {},
      to: { path: '^src/', pathNot: allLayers }
    },
    {
      name: 'in-a-layer',
      severity: 'error',
      comment: placeIt,
      from: { orphan: true, path: '^src/', pathNot: allLayers },
      to: {}
    },
    {
      name: 'no-dynamic-import',
      severity: 'error',
      comment:
        'src/ imports statically, so every import is seen, bundled and checked against the layers; the entry (src/index.ts) needs no import() either.',
      from: { path: '^src/' },
      to: { dynamic: true }
    },
    {
      name: 'no-require',
      severity: 'error',
      comment: 'src/ is ES modules: no require(), createRequire or `import x = require()`.',
      from: { path: '^src/' },
      to: {
        dependencyTypes: ['require', 'exotic-require', 'amd-require', 'import-equals']
      }
    },
    {
      name: 'no-create-require',
      severity: 'error',
      comment: 'src/ is ES modules: node:module would let a file require() around the layers.',
      from: { path: '^src/' },
      to: { dependencyTypes: ['core'], path: '^(node:)?module$' }
    },
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'A cycle inside a layer is still a cycle: the arrows run one way within it too.',
      from: { path: '^src/' },
      to: { circular: true }
    },
    {
      name: 'decide-is-pure',
      severity: 'error',
      comment:
        "The decision (src/run/decide/ and each kind's decide.ts) is pure: from elsewhere it takes types, and values only from the modules in PURE (.dependency-cruiser.js).",
      from: { path: DECISION },
      to: {
        pathNot: [...DECISION, ...PURE],
        dependencyTypesNot: ['type-only', 'type-import']
      }
    },
    {
      name: 'pure-stays-pure',
      severity: 'error',
      comment:
        'A module in PURE takes values only from other pure modules and packages that compute (.dependency-cruiser.js).',
      from: { path: PURE },
      to: {
        pathNot: [...PURE, ...PURE_PACKAGES],
        dependencyTypesNot: ['type-only', 'type-import']
      }
    },
    {
      name: 'clients-take-no-event',
      severity: 'error',
      comment:
        'The clients take numbers, shas and repositories, never the event: nothing from src/given/event.ts, not even its types.',
      from: { path: clients },
      to: { path: '^src/given/event[.]ts$' }
    }
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    knownViolations: []
  }
}
