import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  cruise,
  type IConfiguration,
  type ICruiseResult,
  type IViolation
} from 'dependency-cruiser'
import extractDepcruiseConfig from 'dependency-cruiser/config-utl/extract-depcruise-config'
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config'
import fc from 'fast-check'
import { LAYERS } from '../.dependency-cruiser.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CONFIG = join(ROOT, '.dependency-cruiser.js')

/** Every file under `dir`, as a path relative to `base` with forward slashes. */
function filesUnder(dir: string, base: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? filesUnder(path, base) : [relative(base, path).replace(/\\/g, '/')]
  })
}

/** The layers a path is in, by the config's own patterns. */
const layersOf = (path: string): string[] =>
  LAYERS.filter((layer) => layer.paths.some((p) => new RegExp(p).test(path))).map((l) => l.name)

/** Cruises `src` under `baseDir` with the project's configuration, as `npm run lint:layers` does. */
async function cruiseSrc(baseDir: string, config: IConfiguration): Promise<ICruiseResult> {
  const { output } = await cruise(
    ['src'],
    { ruleSet: config, validate: true, baseDir },
    {},
    { tsConfig: extractTSConfig(join(ROOT, 'tsconfig.json')) }
  )
  if (typeof output === 'string') throw new Error('dependency-cruiser answered text, not a result')
  return output
}

/** The rule, the importing file and the imported one: what a violation is known by. */
const key = (v: IViolation): string => `${v.rule.name} ${v.from} → ${v.to}`

/** The violations that fail the build (known ones are softened to `ignore`). */
const failing = (result: ICruiseResult): string[] =>
  result.summary.violations.filter((v) => v.rule.severity === 'error').map(key)

let config: IConfiguration

beforeAll(async () => {
  config = await extractDepcruiseConfig(CONFIG)
})

describe('the layers of src/ as it stands', () => {
  it('place every file under src/ in exactly one layer', () => {
    const misplaced = filesUnder(join(ROOT, 'src'), ROOT)
      .map((file) => ({ file, layers: layersOf(file) }))
      .filter(({ layers }) => layers.length !== 1)
    expect(misplaced).toEqual([])
  })

  it('hold: nothing fails, and every known violation still happens', async () => {
    const result = await cruiseSrc(ROOT, config)
    expect(failing(result)).toEqual([])
    const known = config.options?.knownViolations ?? []
    const ignored = result.summary.violations.filter((v) => v.rule.severity === 'ignore')
    // A known violation that no longer happens is taken off the list, so it cannot come back.
    expect(ignored.map(key).sort()).toEqual(known.map(key).sort())
    expect(result.summary.baselineStale ?? 0).toBe(0)
  })
})

/** A layer a new file lands in by its folder alone, with that folder. */
const FOLDERED = LAYERS.flatMap((layer, rank) =>
  layer.paths.flatMap((p) => {
    const folder = /^\^src\/([a-z-]+)\/$/.exec(p)?.[1]
    return folder === undefined ? [] : [{ layer: layer.name, rank, folder }]
  })
)

/** One real file per layer, to import. */
function targets(): { layer: string; rank: number; file: string }[] {
  const files = filesUnder(join(ROOT, 'src'), ROOT)
  return LAYERS.map((layer, rank) => {
    const file = files.find((f) => layersOf(f)[0] === layer.name)
    if (file === undefined) throw new Error(`No file under src/ is in the ${layer.name} layer`)
    return { layer: layer.name, rank, file }
  })
}

/** What may come before an import and must not matter. */
const COMMENTS = [
  '',
  '// eslint-disable-next-line\n',
  '/* eslint-disable */\n',
  '// depcruise-ignore\n',
  '// dependency-cruiser-disable-next-line\n'
]

type Form = 'import' | 'import type' | 'export *' | 'side effect' | 'import()'

/** A statement of `form` that depends on `specifier`. */
function statement(form: Form, specifier: string): string {
  switch (form) {
    case 'import':
      return `import { value } from '${specifier}'\nexport const used = value\n`
    case 'import type':
      return `import type { Shape } from '${specifier}'\nexport type Used = Shape\n`
    case 'export *':
      return `export * from '${specifier}'\n`
    case 'side effect':
      return `import '${specifier}'\n`
    case 'import()':
      return `export const later = async () => import('${specifier}')\n`
  }
}

/**
 * Ways of writing the path from `from` (a file under src/) to `to`, all one file once resolved:
 * relative, through `../../src/`, and with a detour through another folder (`./x/../y`).
 */
function spell(from: string, to: string, how: 'plain' | 'via src' | 'detour'): string {
  const plain = relative(dirname(from), to).replace(/\\/g, '/').replace(/\.ts$/, '.js')
  const relativeTo = plain.startsWith('.') ? plain : `./${plain}`
  switch (how) {
    case 'plain':
      return relativeTo
    case 'via src':
      return `${'../'.repeat(from.split('/').length - 1)}${to.replace(/\.ts$/, '.js')}`
    case 'detour':
      return `./../secrets/../${relative('src', to).replace(/\.ts$/, '.js')}`
  }
}

/** One generated import between layers, written into the copy as its own file. */
type Probe = {
  file: string
  from: { layer: string; rank: number }
  to: { layer: string; rank: number; file: string }
  form: Form
  /** What the file says, for the failure message. */
  text: string
}

describe('a copy of src/ with ways around the layers written into it', () => {
  let dir = ''
  let result: ICruiseResult
  let generated: Probe[] = []

  /** Writes `text` at `path` (relative to the copy), making its folder. */
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'layers-'))
    cpSync(join(ROOT, 'src'), join(dir, 'src'), { recursive: true })
    // Packages resolve as they do in the repository (zod, a pure module's one package).
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir')

    // Generated imports, each from a new file in a layer's folder to a real file of any layer,
    // spelled every way, in every form, after any comment.
    const to = targets()
    const probe = fc.record({
      from: fc.constantFrom(...FOLDERED),
      to: fc.constantFrom(...to),
      how: fc.constantFrom('plain' as const, 'via src' as const, 'detour' as const),
      form: fc.constantFrom<Form>('import', 'import type', 'export *', 'side effect', 'import()'),
      comment: fc.constantFrom(...COMMENTS)
    })
    generated = fc.sample(probe, 60).map((p, n) => {
      const file = `src/${p.from.folder}/probe-generated-${n}.ts`
      const text = p.comment + statement(p.form, spell(file, p.to.file, p.how))
      write(file, text)
      return { file, from: p.from, to: p.to, form: p.form, text }
    })

    // The ways around an import-text lint, one file each.
    write(
      'src/base/secrets/probe-dynamic.ts',
      "export const later = () => import('../../act/act.js')\n"
    )
    write(
      'src/clients/github/probe-via-src.ts',
      "import { run } from '../../../src/main.js'\nexport { run }\n"
    )
    write('src/clients/mintlify/probe-detour.ts', "import './../../run/../act/act.js'\n")
    write(
      'src/report/probe-disabled.ts',
      [
        '/* eslint-disable */',
        '// depcruise-ignore',
        '// dependency-cruiser-disable-next-line',
        "import { act } from '../act/act.js' // eslint-disable-line",
        'export { act }',
        ''
      ].join('\n')
    )
    write('src/probe/detect.ts', "import { words } from './words.js'\nexport { words }\n")
    write('src/probe/words.ts', "export const words = 'a new folder'\n")
    write('src/probe-loose.ts', 'export const loose = 1\n')
    write('src/probe-loose-importing.ts', "export { errorMessage } from './base/errors.js'\n")
    // A relay: a low file re-exporting a high one, and a file that imports through it.
    write('src/base/secrets/probe-relay.ts', "export { run } from '../../main.js'\n")
    write(
      'src/clients/github/probe-via-relay.ts',
      "export { run } from '../../base/secrets/probe-relay.js'\n"
    )
    // The core naming a kind of run: only the act stage and the story may.
    write(
      'src/run/decide/probe-kind.ts',
      "import type { CommandFacts } from '../../kinds/command/facts.js'\nexport type K = CommandFacts\n"
    )
    write('src/report/probe-kind.ts', "export { closedWhy } from '../kinds/closed/words.js'\n")
    // The decision taking values from modules that read or write; types stay allowed.
    write(
      'src/run/decide/probe-io.ts',
      [
        "import { readChange } from '../../kinds/change/read.js'",
        "import { preparePrompt } from '../change/prompt.js'",
        "import { readSettings } from '../../given/inputs.js'",
        "import { readFileSync } from 'node:fs'",
        'export const io = [readChange, preparePrompt, readSettings, readFileSync]',
        ''
      ].join('\n')
    )
    // A kind's decision is the decision: pure, whatever its folder holds beside it.
    write(
      'src/kinds/probe/decide.ts',
      [
        "import { readChange } from '../change/read.js'",
        "import { KINDS } from '../registry.js'",
        'export const io = [readChange, KINDS]',
        ''
      ].join('\n')
    )
    write(
      'src/run/decide/probe-types.ts',
      [
        "import type { Settings } from '../../given/inputs.js'",
        "import type { Facts } from '../read/facts.js'",
        "import { codeCommit } from '../change/code.js'",
        'export type Both = [Settings, Facts, typeof codeCommit]',
        ''
      ].join('\n')
    )
    write(
      'src/run/read/probe-require.ts',
      [
        "import { createRequire } from 'node:module'",
        'const require = createRequire(import.meta.url)',
        "export const later = require('../../act/act.js')",
        ''
      ].join('\n')
    )
    // A pure module that starts to write, and a client taking data from the event.
    appendFileSync(join(dir, 'src/run/read/own.ts'), "\nexport { writeFileSync } from 'node:fs'\n")
    write('src/clients/github/probe-event.ts', "export { readEvent } from '../../given/event.js'\n")
    write(
      'src/clients/mintlify/probe-event-type.ts',
      "export type { Event } from '../../given/event.js'\n"
    )
    write(
      'src/act/probe-cycle-a.ts',
      "import { b } from './probe-cycle-b.js'\nexport const a = b\n"
    )
    write(
      'src/act/probe-cycle-b.ts',
      "import { a } from './probe-cycle-a.js'\nexport const b = a\n"
    )

    result = await cruiseSrc(dir, config)
  })

  afterAll(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true })
  })

  /** Whether the cruise failed `rule` on `from` importing `to`. */
  const reported = (rule: string, from: string, to: string): boolean =>
    failing(result).includes(`${rule} ${from} → ${to}`)

  it.each([
    ['an import() upward', 'layer-base', 'src/base/secrets/probe-dynamic.ts', 'src/act/act.ts'],
    [
      'any import() at all',
      'no-dynamic-import',
      'src/base/secrets/probe-dynamic.ts',
      'src/act/act.ts'
    ],
    [
      'a path through ../../src/',
      'layer-clients',
      'src/clients/github/probe-via-src.ts',
      'src/main.ts'
    ],
    [
      'a path through ./x/../',
      'layer-clients',
      'src/clients/mintlify/probe-detour.ts',
      'src/act/act.ts'
    ],
    [
      'an import after disable comments',
      'layer-report',
      'src/report/probe-disabled.ts',
      'src/act/act.ts'
    ],
    ['a file in a new folder', 'in-a-layer', 'src/probe/detect.ts', 'src/probe/words.ts'],
    [
      'a loose file that imports',
      'in-a-layer',
      'src/probe-loose-importing.ts',
      'src/base/errors.ts'
    ],
    [
      'a relay re-exporting a higher layer',
      'layer-base',
      'src/base/secrets/probe-relay.ts',
      'src/main.ts'
    ],
    [
      "the core naming a kind's facts",
      'layer-run',
      'src/run/decide/probe-kind.ts',
      'src/kinds/command/facts.ts'
    ],
    [
      "the report naming a kind's words",
      'layer-report',
      'src/report/probe-kind.ts',
      'src/kinds/closed/words.ts'
    ],
    [
      'the decision reading the change',
      'decide-is-pure',
      'src/run/decide/probe-io.ts',
      'src/kinds/change/read.ts'
    ],
    [
      "a kind's decision reading the change",
      'decide-is-pure',
      'src/kinds/probe/decide.ts',
      'src/kinds/change/read.ts'
    ],
    [
      "a kind's decision taking the registry",
      'decide-is-pure',
      'src/kinds/probe/decide.ts',
      'src/kinds/registry.ts'
    ],
    [
      'the decision reading the prompt',
      'decide-is-pure',
      'src/run/decide/probe-io.ts',
      'src/run/change/prompt.ts'
    ],
    [
      'the decision reading the inputs',
      'decide-is-pure',
      'src/run/decide/probe-io.ts',
      'src/given/inputs.ts'
    ],
    ['the decision reading a file', 'decide-is-pure', 'src/run/decide/probe-io.ts', 'fs'],
    ['require() upward', 'layer-run', 'src/run/read/probe-require.ts', 'src/act/act.ts'],
    ['require() at all', 'no-require', 'src/run/read/probe-require.ts', 'src/act/act.ts'],
    ['createRequire', 'no-create-require', 'src/run/read/probe-require.ts', 'module'],
    ['a cycle inside a layer', 'no-cycle', 'src/act/probe-cycle-a.ts', 'src/act/probe-cycle-b.ts'],
    ['a pure module that writes', 'pure-stays-pure', 'src/run/read/own.ts', 'fs'],
    [
      'a client taking data from the event',
      'clients-take-no-event',
      'src/clients/github/probe-event.ts',
      'src/given/event.ts'
    ],
    [
      "a client taking the event's type",
      'clients-take-no-event',
      'src/clients/mintlify/probe-event-type.ts',
      'src/given/event.ts'
    ]
  ])('report %s (%s)', (_what, rule, from, to) => {
    expect(reported(rule, from, to)).toBe(true)
  })

  it('report a loose file that imports nothing and nothing imports', () => {
    expect(failing(result)).toContain('in-a-layer src/probe-loose.ts → src/probe-loose.ts')
  })

  it('let the decision take types from anywhere below it, and values from a pure module', () => {
    expect(failing(result).filter((v) => v.includes('src/run/decide/probe-types.ts'))).toEqual([])
  })

  it('report an import upward in any form and spelling, and only upward', () => {
    // Every generated file is in a layer by its folder; an import is reported by that layer's
    // rule exactly when it points above it, and an import() always.
    for (const probe of generated) {
      const upward = probe.to.rank > probe.from.rank
      expect({
        probe,
        reported: reported(`layer-${probe.from.layer}`, probe.file, probe.to.file)
      }).toEqual({ probe, reported: upward })
      expect({ probe, dynamic: reported('no-dynamic-import', probe.file, probe.to.file) }).toEqual({
        probe,
        dynamic: probe.form === 'import()'
      })
      expect(failing(result).filter((v) => v.startsWith(`in-a-layer ${probe.file} `))).toEqual([])
    }
  })
})
