/**
 * The layers of src/, checked on the files imports resolve to (`npm run lint:layers`).
 *
 * dependency-cruiser resolves every import, static or dynamic, through TypeScript's resolution,
 * so `../../src/act/act.js`, `./x/../act.js` and `import('../act/act.js')` are the same file to
 * it, and no comment in a source file switches its rules off. `__tests__/layers.test.ts` writes
 * each way around the layers into a copy of src/ and checks that this file reports it.
 */

/**
 * A set of files: paths relative to the repository, as regular expressions.
 *
 * @typedef {{ name: string, holds: string, paths: string[] }} Layer
 */

/**
 * The layers, lowest first. A file imports only from its own layer and those below it, so the
 * arrows run one way and no cycle can come back through a lower layer. Every file under src/ is
 * in exactly one: a new folder or loose file is placed here before it passes. The trigger/
 * folder holds both pure words about the event and the code that reads the change, so its files
 * are named one by one; a kind of run's folder (src/kinds/<name>/) spreads over the layers by
 * file name: its parse.ts with the event, prompt.ts with the trigger, read.ts with the read,
 * decide.ts with the decision (and its rules), kind.ts above them with the registry, words.ts
 * with the words.
 *
 * @type {Layer[]}
 */
export const LAYERS = [
  {
    name: 'base',
    holds: 'errors, durations, safe text, job ids, the secrets, the clock, the one HTTP layer',
    paths: [
      '^src/(errors|duration|sanitize|runtime|http)[.]ts$',
      '^src/job-id[.]ts$',
      '^src/secrets/'
    ]
  },
  {
    name: 'event',
    holds: 'the event, its references and a command, parsed; no client',
    paths: ['^src/trigger/(event|read-event|ref|docs)[.]ts$', '^src/kinds/[^/]+/parse[.]ts$']
  },
  { name: 'mintlify', holds: 'the agent API client and the job', paths: ['^src/mintlify/'] },
  {
    name: 'github',
    holds: "GitHub's API and the records the action keeps there",
    paths: ['^src/github/']
  },
  {
    name: 'settings',
    holds: 'the inputs, parsed once (bounds may come from the clients they are passed to)',
    paths: ['^src/inputs[.]ts$', '^src/inputs/']
  },
  { name: 'run', holds: "the run state and one step's edges", paths: ['^src/(run|step)[.]ts$'] },
  {
    name: 'trigger',
    holds: 'the change and what the agent is told',
    paths: ['^src/trigger/(code|change|context|fed|prompt)[.]ts$', '^src/kinds/[^/]+/prompt[.]ts$']
  },
  {
    name: 'read',
    holds: "the read stage, and each kind of run's read",
    paths: ['^src/read/', '^src/kinds/[^/]+/(read|facts)[.]ts$']
  },
  {
    name: 'decide',
    holds: "the decision and each kind of run's, pure",
    paths: ['^src/decide/', '^src/kinds/[^/]+/(decide|words)[.]ts$']
  },
  {
    name: 'kinds',
    holds: 'each kind of run (how it is told, its read and its decision) and their one registry',
    paths: ['^src/kinds/(kind|registry)[.]ts$', '^src/kinds/[^/]+/kind[.]ts$']
  },
  {
    name: 'present',
    holds: "the words, and each kind of run's",
    paths: ['^src/present/']
  },
  { name: 'publish', holds: 'the sinks', paths: ['^src/publish/'] },
  { name: 'act', holds: 'carrying out the plan', paths: ['^src/act/'] },
  { name: 'main', holds: 'the story of a run and its entry', paths: ['^src/(main|index)[.]ts$'] }
]

/**
 * The only modules a file in src/decide/ may take values from (types it may take from anywhere
 * below it): pure functions of their arguments, which read and write nothing.
 */
export const PURE = [
  '^src/trigger/event[.]ts$', // the event's accessors (`readEvent` is its one read: see knownViolations)
  '^src/trigger/code[.]ts$', // the change's commit and pull request, from the event
  '^src/kinds/command/parse[.]ts$', // a command's words
  '^src/read/own[.]ts$', // whose work a pull request is, from facts already read
  '^src/kinds/[^/]+/words[.]ts$' // a kind's reasons, in its words
]

/** The decision: src/decide/ and each kind of run's decide.ts. */
const DECISION = ['^src/decide/', '^src/kinds/[^/]+/decide[.]ts$']

/** Packages a pure module may use: they compute, and read or write nothing. */
const PURE_PACKAGES = ['(^|/)node_modules/zod/']

const allLayers = LAYERS.flatMap((layer) => layer.paths)
const clients = ['^src/mintlify/', '^src/github/']

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
        "The decision (src/decide/ and each kind's decide.ts) is pure: from elsewhere it takes types, and values only from the modules in PURE (.dependency-cruiser.js).",
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
        'The clients take numbers, shas and repositories, never the event: nothing from src/trigger/event.ts, not even its types.',
      from: { path: clients },
      to: { path: '^src/trigger/event[.]ts$' }
    }
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // No known break of a rule above is kept: `__tests__/layers.test.ts` fails on any entry here
    // that no longer happens, so a list, once started, only shrinks.
    knownViolations: []
  }
}
