// Every workflow the README and docs/ show works as copied: it grants exactly the permissions its
// uses of the action need, runs that touch one pull request share one concurrency group, a
// comment that is no command never joins it, and runs that need secrets skip the pull requests
// that get none. The features a step uses follow the action's own rules (`src/run/decide/check.ts`,
// `src/run/read/pull.ts`, `src/report/sinks/*.ts`), from its `with:` and the defaults in action.yml.
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { readCommand } from '../src/kinds/command/parse.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8')

const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`)
]

/** How the examples refer to this action. */
const THIS_ACTION = /^OWNER\/mintlify-agent-action@v1$/

type Dict = Record<string, unknown>
const isDict = (value: unknown): value is Dict =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The `yaml` code blocks of a page, indented ones (inside list items) included. */
function yamlBlocks(text: string): string[] {
  return [...text.matchAll(/^( *)```yaml\n([\s\S]*?)^\1```/gm)].map(([, indent = '', body = '']) =>
    body
      .split('\n')
      .map((line) => line.slice(indent.length))
      .join('\n')
  )
}

// ---------------------------------------------------------------------------------------------
// GitHub's expression language, as far as workflows use it in `if:` and `concurrency.group`:
// contexts, literals, ! && || == != ( ), and startsWith/endsWith/contains. Comparisons of strings
// ignore case and `||` gives the first truthy operand, as GitHub documents ("Evaluate
// expressions in workflows and actions").

type Token = { kind: 'op' | 'str' | 'num' | 'name'; text: string }

function tokens(source: string): Token[] {
  const pattern =
    /\s*(?:(\|\||&&|==|!=|[!(),])|'((?:[^']|'')*)'|(-?\d+(?:\.\d+)?)|([A-Za-z_][\w-]*(?:\.[A-Za-z_*][\w-]*)*))/y
  const out: Token[] = []
  let at = 0
  while (at < source.length) {
    if (/^\s*$/.test(source.slice(at))) break
    pattern.lastIndex = at
    const match = pattern.exec(source)
    if (!match) throw new Error(`cannot read the expression ${source} at ${at}`)
    at = pattern.lastIndex
    const [, op, str, num, name] = match
    if (op !== undefined) out.push({ kind: 'op', text: op })
    else if (str !== undefined) out.push({ kind: 'str', text: str.replace(/''/g, "'") })
    else if (num !== undefined) out.push({ kind: 'num', text: num })
    else out.push({ kind: 'name', text: name ?? '' })
  }
  return out
}

const truthy = (value: unknown): boolean =>
  !(value === false || value === null || value === undefined || value === 0 || value === '')

function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase()
  if ((a ?? null) === null && (b ?? null) === null) return true
  if (typeof a === 'object' || typeof b === 'object') return a === b
  const number = (v: unknown) => (v === null || v === undefined ? 0 : Number(v))
  return number(a) === number(b)
}

/** A value as GitHub turns it into a string: null is empty, objects are `Object` or `Array`. */
function text(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return 'Array'
  return isDict(value) ? 'Object' : ''
}

const lower = (value: unknown): string => text(value).toLowerCase()

const FUNCTIONS: Record<string, (...args: unknown[]) => unknown> = {
  startswith: (a, b) => lower(a).startsWith(lower(b)),
  endswith: (a, b) => lower(a).endsWith(lower(b)),
  contains: (a, b) =>
    Array.isArray(a) ? a.some((item) => same(item, b)) : lower(a).includes(lower(b)),
  always: () => true,
  success: () => true,
  failure: () => false,
  cancelled: () => false
}

/** The value of one expression (the text inside `${{ }}`) in `contexts`. */
function evaluate(source: string, contexts: Dict): unknown {
  const list = tokens(source)
  let at = 0
  const peek = () => list[at]
  const take = (text?: string): Token => {
    const token = list[at++]
    if (!token || (text !== undefined && token.text !== text)) {
      throw new Error(`expected ${text ?? 'more'} in ${source}`)
    }
    return token
  }
  // Both sides are read whatever the left one is: nothing in an expression has an effect.
  const binary =
    (next: () => unknown, op: string, apply: (a: unknown, b: unknown) => unknown) =>
    (): unknown => {
      let value = next()
      while (peek()?.kind === 'op' && peek()?.text === op) {
        take()
        value = apply(value, next())
      }
      return value
    }
  const primary = (): unknown => {
    const token = take()
    if (token.kind === 'str') return token.text
    if (token.kind === 'num') return Number(token.text)
    if (token.kind === 'op' && token.text === '(') {
      const value = or()
      take(')')
      return value
    }
    if (token.kind === 'op' && token.text === '!') return !truthy(primary())
    if (token.kind !== 'name') throw new Error(`unexpected ${token.text} in ${source}`)
    if (token.text === 'true') return true
    if (token.text === 'false') return false
    if (token.text === 'null') return null
    if (peek()?.text === '(') {
      take('(')
      const args: unknown[] = []
      while (peek()?.text !== ')') {
        args.push(or())
        if (peek()?.text === ',') take(',')
      }
      take(')')
      const fn = FUNCTIONS[token.text.toLowerCase()]
      if (!fn) throw new Error(`unknown function ${token.text} in ${source}`)
      return fn(...args)
    }
    return token.text
      .split('.')
      .reduce<unknown>((value, key) => (isDict(value) ? (value[key] ?? null) : null), contexts)
  }
  const equality = (): unknown => {
    let value = primary()
    while (peek()?.text === '==' || peek()?.text === '!=') {
      const op = take().text
      const right = primary()
      value = op === '==' ? same(value, right) : !same(value, right)
    }
    return value
  }
  const and = binary(equality, '&&', (a, b) => (truthy(a) ? b : a))
  const or = binary(and, '||', (a, b) => (truthy(a) ? a : b))
  const value = or()
  if (at !== list.length) throw new Error(`unexpected ${list[at]?.text} in ${source}`)
  return value
}

/** A string with `${{ }}` in it, as GitHub fills it in (null is empty). */
function fill(template: string, contexts: Dict): string {
  return template.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, inner: string) => {
    return text(evaluate(inner, contexts))
  })
}

/** An `if:`, which may be written with or without `${{ }}`. */
function condition(value: unknown, contexts: Dict): boolean {
  if (value === undefined) return true
  if (typeof value === 'boolean') return value
  const source = text(value).trim()
  const inner = /^\$\{\{([\s\S]*)\}\}$/.exec(source)?.[1] ?? source
  return truthy(evaluate(inner, contexts))
}

// ---------------------------------------------------------------------------------------------
// The runs a workflow meets. Pull request and comment payloads are GitHub's examples
// (`__fixtures__/events`, from @octokit/webhooks-examples): pull request 2 of
// Codertocat/Hello-World, its fork by hubot, and a comment on it.

const fixture = (name: string): Dict => JSON.parse(read(`__fixtures__/events/${name}`)) as Dict

/** One run: the event's name and the `github` context GitHub gives the workflow. */
interface Run {
  readonly label: string
  readonly event: string
  readonly github: Dict
}

function run(label: string, event: string, payload: Dict, more: Dict = {}): Run {
  const repo = isDict(payload.repository) ? text(payload.repository.full_name) : ''
  const sender = isDict(payload.sender) ? text(payload.sender.login) : 'octocat'
  return {
    label,
    event,
    github: {
      event_name: event,
      event: payload,
      repository: repo || 'Codertocat/Hello-World',
      actor: sender,
      triggering_actor: sender,
      ref: 'refs/heads/main',
      ref_name: 'main',
      ...more
    }
  }
}

const opened = fixture('pull_request-opened.json')
const commentOn = (body: string, payload = fixture('issue_comment-created-pull_request.json')) => {
  const comment = isDict(payload.comment) ? payload.comment : {}
  return { ...payload, comment: { ...comment, body } }
}
/** A pull request Dependabot opened: GitHub runs it as it runs one from a fork, without secrets. */
const dependabot = (() => {
  const bot = { login: 'dependabot[bot]', type: 'Bot', id: 49699333 }
  const pr = isDict(opened.pull_request) ? opened.pull_request : {}
  return { ...opened, pull_request: { ...pr, user: bot }, sender: bot }
})()

const RUNS = {
  pull: run('a pull request from this repository', 'pull_request', opened, {
    ref: 'refs/pull/2/merge'
  }),
  fork: run(
    'a pull request from a fork',
    'pull_request',
    fixture('pull_request-opened-fork.json'),
    {
      ref: 'refs/pull/2/merge'
    }
  ),
  dependabot: run('a pull request Dependabot opened', 'pull_request', dependabot, {
    ref: 'refs/pull/2/merge'
  }),
  command: run(
    'a /docs comment on the pull request',
    'issue_comment',
    commentOn('/docs Also the --retries flag')
  ),
  chatter: run(
    'a comment on the pull request that is no command',
    'issue_comment',
    commentOn('LGTM')
  ),
  issue: run(
    'a /docs comment on an issue',
    'issue_comment',
    commentOn('/docs please', fixture('issue_comment-created.json'))
  ),
  push: run('a push to main', 'push', { ...fixture('push.json'), ref: 'refs/heads/main' }),
  schedule: run('a scheduled run', 'schedule', { schedule: '17 3 * * *' }),
  dispatch: run('a manual run', 'workflow_dispatch', fixture('workflow_dispatch.json'))
} satisfies Record<string, Run>

/** The run of each event a workflow can meet that is a change to document. */
const SAMPLE: Record<string, Run> = {
  pull_request: RUNS.pull,
  issue_comment: RUNS.command,
  push: RUNS.push,
  schedule: RUNS.schedule,
  workflow_dispatch: RUNS.dispatch
}

// ---------------------------------------------------------------------------------------------
// What a step of this action does on a run, from its inputs, and the permission each needs.

const action = parse(read('action.yml')) as { inputs: Record<string, { default?: unknown }> }

/** A step's inputs: action.yml's defaults under its `with:`; an expression counts as given. */
function inputsOf(step: Dict): Map<string, string> {
  const given = isDict(step.with) ? step.with : {}
  const inputs = new Map<string, string>()
  for (const [name, spec] of Object.entries(action.inputs)) {
    const value = name in given ? given[name] : spec.default
    inputs.set(name, text(value).trim())
  }
  return inputs
}

type Level = 'read' | 'write'
interface Need {
  readonly scope: string
  readonly level: Level
  readonly why: string
}

const BRANCH_EVENTS = ['push', 'schedule', 'workflow_dispatch']

/** The GitHub permissions one step of the action needs on `event`, each with its reason. */
function stepNeeds(step: Dict, event: string): Need[] {
  const input = inputsOf(step)
  const on = (name: string) => input.get(name) ?? ''
  const dryRun = on('dry-run').toLowerCase() === 'true'
  const jobId = on('job-id') !== ''
  const attach = jobId && on('prompt') === '' && on('prompt-file') === ''
  const context = on('context').toLowerCase()
  const paths = on('paths') !== ''
  const comment = on('comment').toLowerCase() !== 'off'
  const reuse = on('reuse-job').toLowerCase() !== 'false'
  const pullEvent = event.startsWith('pull_request') || event === 'issue_comment'
  // `gathersOn` (src/run/change/code.ts): a branch's runs gather into one job.
  const gathers = BRANCH_EVENTS.includes(event) && reuse && !jobId && context === 'auto'
  const needs: Need[] = []
  const need = (scope: string, level: Level, why: string) => needs.push({ scope, level, why })

  // `checkScope` (src/run/decide/check.ts): the docs check, where the job was told the change.
  const change = event === 'push' || pullEvent || gathers
  if (on('check').toLowerCase() !== 'off' && !dryRun && change && (context === 'auto' || paths)) {
    need('statuses', 'write', `the docs check (check: ${on('check')}) on ${event}`)
  }
  // `readPull` (src/run/read/pull.ts): a push or a gathering run asks which pull requests the
  // commit belongs to, whatever `comment` says; the status comment is kept on the one it finds.
  if (event === 'push' || gathers)
    need('pull-requests', 'read', `the pull requests of the commit on ${event}`)
  if (comment && !dryRun && (pullEvent || event === 'push' || gathers)) {
    need('pull-requests', 'write', `the status comment (comment: ${on('comment')}) on ${event}`)
  } else if (comment && pullEvent) {
    need('pull-requests', 'read', `the status comment's record on ${event}`)
  }
  if (event === 'issue_comment') {
    need('pull-requests', 'read', 'the pull request a /docs comment is on')
    if (!dryRun) need('pull-requests', 'write', 'the reactions to a /docs comment')
  }
  // The change in the prompt (src/run/change/change.ts): a pull request's files, or commits.
  if (!attach && (context === 'auto' || paths)) {
    if (pullEvent) need('pull-requests', 'read', `the files of the pull request on ${event}`)
    else need('contents', 'read', `the change on ${event}`)
  }
  // Without docs-token, only docs in this repository are followed, with the workflow token.
  if (on('docs-token') === '' && !dryRun) {
    if (on('docs-reviewers') !== '')
      need('pull-requests', 'write', 'docs-reviewers without docs-token')
    if (on('docs-labels') !== '') need('issues', 'write', 'docs-labels without docs-token')
  }
  return needs
}

/** A `permissions:` value as scope → level; `{}` grants nothing. */
function grants(value: unknown): Map<string, Level> | string {
  if (typeof value === 'string') return `permissions: ${value} grants every scope`
  const granted = new Map<string, Level>()
  for (const [scope, level] of Object.entries(isDict(value) ? value : {})) {
    if (level === 'read' || level === 'write') granted.set(scope, level)
  }
  return granted
}

/** What is wrong with the permissions a workflow's jobs get, or nothing. */
function permissionProblems(workflow: Dict): string[] {
  const problems: string[] = []
  const jobs = isDict(workflow.jobs) ? workflow.jobs : {}
  const events = eventsOf(workflow)
  // Workflow-level permissions are granted to every job that has none of its own.
  const groups = new Map<unknown, { where: string; needs: Need[] }>()
  for (const [name, job] of Object.entries(jobs)) {
    if (!isDict(job)) continue
    const own = 'permissions' in job
    const where = own ? `job ${name}` : 'the workflow'
    const granted = own ? job.permissions : workflow.permissions
    const entry = groups.get(granted) ?? { where, needs: [] }
    groups.set(granted, entry)
    const steps = (Array.isArray(job.steps) ? job.steps : []).filter(isDict).filter(usesThis)
    if (steps.length > 0 && granted === undefined) {
      problems.push(`job ${name} uses the action with the default token permissions`)
    }
    for (const event of events) {
      const sample = SAMPLE[event]
      if (sample && !condition(job.if, contextsOf(sample))) continue
      for (const step of steps) entry.needs.push(...stepNeeds(step, event))
    }
  }
  for (const [value, { where, needs }] of groups) {
    if (value === undefined) continue
    const granted = grants(value)
    if (typeof granted === 'string') {
      problems.push(`${where}: ${granted}`)
      continue
    }
    for (const need of needs) {
      const level = granted.get(need.scope)
      if (level !== need.level && level !== 'write') {
        problems.push(`${where} lacks ${need.scope}: ${need.level}, for ${need.why}`)
      }
    }
    for (const [scope, level] of granted) {
      // contents: read is what reading a repository at all needs (actions/checkout included);
      // checks: read lets the workflow token read the check runs of a docs pull request in this
      // repository (docs-checks), which a workflow whose docs live elsewhere never needs.
      const used = needs.some((need) => need.scope === scope && need.level === level)
      const readsAnyway = level === 'read' && (scope === 'contents' || scope === 'checks')
      if (!used && !readsAnyway) {
        problems.push(`${where} grants ${scope}: ${level}, which nothing it does needs`)
      }
    }
  }
  return [...new Set(problems)]
}

const usesThis = (step: Dict): boolean =>
  typeof step.uses === 'string' && THIS_ACTION.test(step.uses)

function eventsOf(workflow: Dict): string[] {
  // YAML 1.1 readers turn a bare `on` key into true; the yaml package keeps it a string.
  const on = workflow.on
  if (typeof on === 'string') return [on]
  if (Array.isArray(on)) return on.map(String)
  return isDict(on) ? Object.keys(on) : []
}

const contextsOf = (sample: Run): Dict => ({ github: sample.github, inputs: {}, vars: {} })

// ---------------------------------------------------------------------------------------------
// Concurrency and guards.

/** The group a job of `workflow` joins on a run, or undefined when it joins none. */
function groupOf(workflow: Dict, job: Dict, sample: Run): string | undefined {
  const concurrency = job.concurrency ?? workflow.concurrency
  const group = isDict(concurrency) ? concurrency.group : concurrency
  return typeof group === 'string' ? fill(group, contextsOf(sample)) : undefined
}

/** The jobs that use the action, by name. */
function actionJobs(workflow: Dict): [string, Dict][] {
  const jobs = isDict(workflow.jobs) ? workflow.jobs : {}
  return Object.entries(jobs).filter(
    (entry): entry is [string, Dict] =>
      isDict(entry[1]) &&
      Array.isArray(entry[1].steps) &&
      entry[1].steps.filter(isDict).some(usesThis)
  )
}

/** Whether a job runs on `sample`: its `if:` and those of the jobs it needs. */
function runs(workflow: Dict, name: string, sample: Run, seen = new Set<string>()): boolean {
  const jobs = isDict(workflow.jobs) ? workflow.jobs : {}
  const job = jobs[name]
  if (!isDict(job) || seen.has(name)) return false
  seen.add(name)
  const needs =
    typeof job.needs === 'string' ? [job.needs] : Array.isArray(job.needs) ? job.needs : []
  return (
    condition(job.if, contextsOf(sample)) &&
    needs.every((need) => runs(workflow, text(need), sample, seen))
  )
}

/** Whether a run of the workflow's jobs writes to the pull request it is about. */
function touchesPull(workflow: Dict, event: string): boolean {
  return actionJobs(workflow).some(([, job]) =>
    (job.steps as unknown[])
      .filter(isDict)
      .filter(usesThis)
      .some((step) => stepNeeds(step, event).some((need) => need.level === 'write'))
  )
}

/** Whether any step of the workflow's jobs passes a secret. */
const usesSecrets = (job: Dict): boolean => JSON.stringify(job.steps ?? []).includes('secrets.')

interface Example {
  readonly page: string
  readonly index: number
  readonly text: string
  readonly workflow: Dict
}

/** Every block of the README and docs/ that is a workflow: it has `on:` and `jobs:`. */
function examples(pages: readonly string[] = PAGES): Example[] {
  return pages.flatMap((page) =>
    yamlBlocks(read(page)).flatMap((text, index) => {
      const workflow: unknown = parse(text)
      return isDict(workflow) && 'on' in workflow && 'jobs' in workflow
        ? [{ page, index: index + 1, text, workflow }]
        : []
    })
  )
}

/** Everything wrong with one workflow, as lines that name it. */
function problemsOf(workflow: Dict): string[] {
  const problems = permissionProblems(workflow)
  const events = eventsOf(workflow)
  for (const [name, job] of actionJobs(workflow)) {
    const concurrency = job.concurrency ?? workflow.concurrency
    if (isDict(concurrency) && concurrency['cancel-in-progress'] !== false) {
      problems.push(`job ${name}: a newer run would cancel a docs step that is running`)
    }
    if (events.includes('issue_comment')) {
      if (runs(workflow, name, RUNS.chatter) || runs(workflow, name, RUNS.issue)) {
        problems.push(`job ${name} runs for a comment that is no /docs command on a pull request`)
      }
      if (!runs(workflow, name, RUNS.command)) problems.push(`job ${name} skips a /docs command`)
      if (workflow.concurrency !== undefined) {
        problems.push(
          'on issue_comment the group belongs on the job, behind its if:, or every comment joins it'
        )
      }
    }
    if (events.includes('pull_request') && usesSecrets(job)) {
      if (!runs(workflow, name, RUNS.pull))
        problems.push(`job ${name} skips pull requests from this repository`)
      for (const sample of [RUNS.fork, RUNS.dependabot]) {
        if (runs(workflow, name, sample)) {
          problems.push(`job ${name} runs on ${sample.label}, which gets no secrets`)
        }
      }
    }
  }
  return problems
}

/** The group each pull request event's runs join, for pull request 2; undefined for none. */
function pullGroups(workflow: Dict): { event: string; group: string | undefined }[] {
  const events = eventsOf(workflow).filter(
    (event) => event === 'pull_request' || event === 'issue_comment'
  )
  return events
    .filter((event) => touchesPull(workflow, event))
    .flatMap((event) => {
      const sample = SAMPLE[event] as Run
      return actionJobs(workflow)
        .filter(([name]) => runs(workflow, name, sample))
        .map(([, job]) => ({ event, group: groupOf(workflow, job, sample) }))
    })
}

// ---------------------------------------------------------------------------------------------

const ALL = examples()
const SHOWN = ALL.filter(({ page }) => page === 'README.md' || page === 'docs/recipes.md')
const titled = (list: Example[]) =>
  list.map(
    (example) =>
      [`${example.page} #${example.index} (${text(example.workflow.name)})`, example] as const
  )

describe('the workflows the README and docs/ show', () => {
  it('are found on every page that shows one', () => {
    expect(ALL.length).toBeGreaterThanOrEqual(15)
    const pages = new Set(ALL.map(({ page }) => page))
    for (const page of ['README.md', 'docs/recipes.md', 'docs/security.md']) {
      expect(pages).toContain(page)
    }
  })

  it.each(titled(ALL))(
    '%s grants what it uses, shares its groups and guards its secrets',
    (_, example) => {
      expect(problemsOf(example.workflow)).toEqual([])
    }
  )

  it('give every run about one pull request one group, in every workflow that writes to it', () => {
    const groups = SHOWN.flatMap((example) =>
      pullGroups(example.workflow).map(({ event, group }) => ({
        where: `${example.page} #${example.index} on ${event}`,
        group
      }))
    )
    expect(groups.length).toBeGreaterThanOrEqual(5)
    expect(groups.some(({ where }) => where.endsWith('on issue_comment'))).toBe(true)
    const expected = groups.map(({ where }) => ({ where, group: groups[0]?.group }))
    expect(groups).toEqual(expected)
    expect(groups[0]?.group).toMatch(/2/)
  })

  it('give the runs on a branch one group, apart from those of pull requests', () => {
    const branchGroups = SHOWN.flatMap((example) =>
      eventsOf(example.workflow)
        .filter((event) => BRANCH_EVENTS.includes(event))
        .filter((event) => stepNeedsAny(example.workflow, event, 'statuses'))
        .flatMap((event) =>
          actionJobs(example.workflow).map(([, job]) =>
            groupOf(example.workflow, job, SAMPLE[event] as Run)
          )
        )
    )
    expect(branchGroups.length).toBeGreaterThanOrEqual(4)
    expect(new Set(branchGroups).size).toBe(1)
    const pull = pullGroups(SHOWN[0]?.workflow ?? {})[0]?.group
    expect(branchGroups[0]).not.toBe(pull)
  })

  it('pass actionlint, written out as workflow files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'workflows-docs-'))
    try {
      const files = ALL.map((example, i) => {
        const file = join(dir, `${String(i + 1).padStart(2, '0')}.yml`)
        writeFileSync(file, example.text)
        return file
      })
      const lint = () =>
        execFileSync(
          process.execPath,
          [join(ROOT, '.github/scripts/lint-workflows.js'), ...files],
          {
            cwd: dir,
            encoding: 'utf8',
            stdio: 'pipe'
          }
        )
      expect(lint()).toContain(`no problems in ${files.length} workflow files`)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

function stepNeedsAny(workflow: Dict, event: string, scope: string): boolean {
  return actionJobs(workflow).some(([, job]) =>
    (job.steps as unknown[])
      .filter(isDict)
      .filter(usesThis)
      .some((step) => stepNeeds(step, event).some((need) => need.scope === scope))
  )
}

describe('the rules the workflows are held to', () => {
  const companion = (more: string) =>
    parse(`
on:
  pull_request:
permissions:
  contents: read
  pull-requests: write
  statuses: write
jobs:
  docs:
    runs-on: ubuntu-latest
    if: github.event.pull_request.head.repo.full_name == github.repository && github.actor != 'dependabot[bot]'
    steps:
      - uses: OWNER/mintlify-agent-action@v1
        with:
          prompt: Update the docs.
          api-key: \${{ secrets.MINTLIFY_API_KEY }}
${more}`) as Dict

  it('accept a companion that grants and guards what it needs', () => {
    expect(problemsOf(companion(''))).toEqual([])
  })

  it('refuse a missing or a needless permission', () => {
    const workflow = companion('')
    workflow.permissions = { contents: 'read', 'pull-requests': 'write' }
    expect(problemsOf(workflow)).toEqual([
      'the workflow lacks statuses: write, for the docs check (check: auto) on pull_request'
    ])
    workflow.permissions = {
      contents: 'read',
      'pull-requests': 'write',
      statuses: 'write',
      issues: 'write'
    }
    expect(problemsOf(workflow)).toEqual([
      'the workflow grants issues: write, which nothing it does needs'
    ])
    const quiet = companion('          check: off\n          comment: off')
    expect(problemsOf(quiet)).toEqual([
      'the workflow grants pull-requests: write, which nothing it does needs',
      'the workflow grants statuses: write, which nothing it does needs'
    ])
  })

  it('refuse a guard that lets Dependabot or forks through', () => {
    const workflow = companion('')
    const job = (workflow.jobs as Dict).docs as Dict
    job.if = 'github.event.pull_request.head.repo.full_name == github.repository'
    expect(problemsOf(workflow)).toEqual([
      'job docs runs on a pull request Dependabot opened, which gets no secrets'
    ])
    delete job.if
    expect(problemsOf(workflow)).toEqual([
      'job docs runs on a pull request from a fork, which gets no secrets',
      'job docs runs on a pull request Dependabot opened, which gets no secrets'
    ])
  })

  it('read expressions as GitHub does', () => {
    const contexts = contextsOf(RUNS.command)
    expect(evaluate("startsWith(github.event.comment.body, '/DOCS')", contexts)).toBe(true)
    expect(
      evaluate('github.event.pull_request.number || github.event.issue.number', contexts)
    ).toBe(2)
    expect(evaluate("!(github.event.issue.pull_request) || 'x' == 'X'", contexts)).toBe(true)
    expect(
      fill('docs-${{ github.event.pull_request.number || github.ref }}', contextsOf(RUNS.push))
    ).toBe('docs-refs/heads/main')
    expect(() => evaluate('github.event.x ==', contexts)).toThrow('expected more')
  })

  // The quick start's job: its group and its guard, as every other docs workflow copies them.
  const quick = (() => {
    const workflow = examples(['README.md'])[0]?.workflow ?? {}
    const job = isDict(workflow.jobs) && isDict(workflow.jobs.docs) ? workflow.jobs.docs : {}
    return { workflow, job }
  })()
  const pullRun = (number: number, event = 'pull_request'): Run =>
    event === 'pull_request'
      ? run('', event, { ...opened, number, pull_request: { number } })
      : run('', event, { issue: { number, pull_request: {} }, comment: { body: '/docs' } })

  it('put two runs in one group exactly when they are about one pull request or one branch', () => {
    const group = (sample: Run) => groupOf(quick.workflow, quick.job, sample)
    // Small ranges beside wide ones, so that runs about the same pull request or branch are drawn.
    const branch = fc.oneof(
      fc.constantFrom('main', 'dev'),
      fc.stringMatching(/^[a-z][a-z0-9/-]{0,20}$/)
    )
    const number = fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 1_000_000 }))
    fc.assert(
      fc.property(number, number, fc.boolean(), (a, b, comment) => {
        const one = group(pullRun(a))
        const other = group(pullRun(b, comment ? 'issue_comment' : 'pull_request'))
        expect(one === other).toBe(a === b)
      })
    )
    fc.assert(
      fc.property(branch, branch, number, (a, b, n) => {
        const push = (name: string) =>
          group({ ...RUNS.push, github: { ...RUNS.push.github, ref: `refs/heads/${name}` } })
        expect(push(a) === push(b)).toBe(a === b)
        expect(push(a)).not.toBe(group(pullRun(n)))
      })
    )
  })

  it('run the quick start exactly on pull requests from the repository that Dependabot did not open', () => {
    const name = fc.oneof(
      fc.constantFrom('app', 'docs'),
      fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/)
    )
    const actor = fc.oneof(name, fc.constant('dependabot[bot]'), fc.constant('mintlify[bot]'))
    fc.assert(
      fc.property(name, name, actor, (base, head, login) => {
        const sample = run('', 'pull_request', {
          ...opened,
          repository: { full_name: `acme/${base}` },
          pull_request: { number: 2, head: { repo: { full_name: `acme/${head}` } } },
          sender: { login }
        })
        const expected = base === head && login !== 'dependabot[bot]'
        expect(condition(quick.job.if, contextsOf(sample))).toBe(expected)
      })
    )
  })

  // The /docs recipe's if: must let in every comment the action reads as a command: GitHub's
  // expressions have no trim, so the leading spaces the command allows are spelt out.
  it('run the /docs recipe on every comment the action takes as a command, and not on chatter', () => {
    const commands = examples(['docs/recipes.md']).filter(({ workflow }) =>
      eventsOf(workflow).includes('issue_comment')
    )
    expect(commands.length).toBeGreaterThanOrEqual(1)
    const runsOn = (workflow: Dict, body: string) =>
      actionJobs(workflow).some(([name]) =>
        runs(workflow, name, run('', 'issue_comment', commentOn(body)))
      )
    const takes = (body: string) =>
      readCommand({ action: 'created', onPullRequest: true, body, login: 'octocat', type: 'User' })
        .kind === 'command'
    const body = fc
      .tuple(
        fc.constantFrom('', ' ', '  ', '   ', '    ', '\t', 'please '),
        fc.constantFrom('/docs', '/DOCS', '/docsify', 'LGTM', '> /docs'),
        fc.constantFrom('', ' Also the --retries flag', '\nmore', '\tx')
      )
      .map((parts) => parts.join(''))
    for (const { workflow } of commands) {
      for (const spaces of ['', ' ', '  ', '   ']) {
        expect({ spaces, runs: runsOn(workflow, `${spaces}/docs please`) }).toEqual({
          spaces,
          runs: true
        })
      }
      expect(runsOn(workflow, 'LGTM')).toBe(false)
      expect(runsOn(workflow, '    /docs in code')).toBe(false)
      fc.assert(
        fc.property(body, (text) => {
          // A command ⇒ the job runs.
          expect({ text, runs: !takes(text) || runsOn(workflow, text) }).toEqual({
            text,
            runs: true
          })
        })
      )
    }
  })
})
