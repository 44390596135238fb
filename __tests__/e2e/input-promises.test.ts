// Bad or dangerous inputs fail the built action before any request, naming the input, and what
// they point at (a secret in a file outside the workspace, a key given as project-id) is shown
// nowhere: not in the log, the job summary or the outputs.
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import {
  onEvent,
  QUICK,
  ROOT,
  runAction,
  type ActionRun,
  type Simulator,
  WITH_GITHUB,
  endToEnd
} from './harness.js'

const sims = endToEnd(WITH_GITHUB)

const SECRET = 'FAKE_RUNNER_SECRET_5e1d9c3b7a'
const GITHUB_TOKEN = 'ghs_input_promises_token'

/** A checked-out repository as the workspace, and beside it a file that holds a secret. */
function workspaceBesideSecret(): { workspace: string; secretFile: string } {
  const workspace = mkdtempSync(join(tmpdir(), 'workspace-'))
  const outside = mkdtempSync(join(tmpdir(), 'runner-'))
  const secretFile = join(outside, 'credentials')
  writeFileSync(secretFile, `TOKEN=${SECRET}\n`)
  writeFileSync(join(workspace, 'README.md'), '# A repository\n')
  return { workspace, secretFile }
}

/** The lines a person reads in the log: the runner hides `::add-mask::` and masks its value. */
const shownLog = (run: ActionRun): string =>
  (run.stdout + run.stderr)
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n')

/** The annotations of one kind the runner reads from the log. */
const errors = (run: ActionRun) => run.stdout.split('\n').filter((l) => l.startsWith('::error'))

/** Asserts that `value` reached none of what a run leaves behind. */
function expectNowhere(run: ActionRun, value: string): void {
  expect(shownLog(run)).not.toContain(value)
  expect(run.summary).not.toContain(value)
  expect(JSON.stringify(run.outputs)).not.toContain(value)
}

/** Runs the action in `workspace` on a pull request, with the simulator playing both APIs. */
function runIn(sim: Simulator, workspace: string, inputs: Record<string, string>) {
  const { env } = onEvent(sim, 'pull_request', 'pull_request-opened.json', {
    GITHUB_WORKSPACE: workspace
  })
  return runAction(
    { 'base-url': sim.url, 'github-token': GITHUB_TOKEN, ...inputs },
    { cwd: workspace, env }
  )
}

describe('prompt-file stays in the workspace', () => {
  const cases: [string, (setup: ReturnType<typeof workspaceBesideSecret>) => string][] = [
    [
      'a path that climbs out with ..',
      ({ secretFile }) => `../${basename(join(secretFile, '..'))}/credentials`
    ],
    [
      'a link in the repository to a file outside',
      ({ workspace, secretFile }) => {
        symlinkSync(secretFile, join(workspace, 'prompt.md'))
        return 'prompt.md'
      }
    ]
  ]
  const modes: [string, Record<string, string>][] = [
    ['a run', { 'project-id': QUICK['project-id'], 'api-key': QUICK['api-key'] }],
    ['a dry run', { 'dry-run': 'true' }]
  ]

  for (const [what, promptFile] of cases) {
    for (const [mode, inputs] of modes) {
      it(`${mode}: refuses ${what} before any request, and shows nothing of the file`, async () => {
        const sim = await sims.start()
        const setup = workspaceBesideSecret()
        const path = promptFile(setup)
        const run = await runIn(sim, setup.workspace, { ...inputs, 'prompt-file': path })

        expect(run.code).toBe(1)
        const [error, ...others] = errors(run)
        expect(others).toEqual([])
        expect(error).toContain(`Input "prompt-file": "${path}" leads outside the workspace`)
        expectNowhere(run, SECRET)
        expect(sim.requests).toEqual([])
      })
    }
  }

  it('reads a link in the repository to a file in the repository', async () => {
    const sim = await sims.start()
    const { workspace } = workspaceBesideSecret()
    writeFileSync(join(workspace, 'docs-prompt.md'), 'Rewrite the quickstart.\n')
    symlinkSync('docs-prompt.md', join(workspace, 'prompt.md'))
    const { prompt: _, ...rest } = QUICK
    const run = await runIn(sim, workspace, {
      ...rest,
      'prompt-file': 'prompt.md',
      context: 'off',
      comment: 'off',
      check: 'off'
    })
    expect(run.code).toBe(0)
    const create = sim.requests.find((r) => r.method === 'POST' && r.path.endsWith('/job'))
    expect(create?.body).toBe(JSON.stringify({ prompt: 'Rewrite the quickstart.' }))
  })
})

describe('project-id and api-key swapped', () => {
  const KEY = 'mint_0a1b2c3d4e5f60718293a4b5c6d7e8f9'

  it('refuses the key as project-id before any request: no docs check is named after it', async () => {
    const sim = await sims.start()
    const { workspace } = workspaceBesideSecret()
    const run = await runIn(sim, workspace, {
      prompt: QUICK.prompt,
      'project-id': KEY,
      'api-key': '64f0c2a1b3d4e5f6a7b8c9d0'
    })

    expect(run.code).toBe(1)
    const [error, ...others] = errors(run)
    expect(others).toEqual([])
    expect(error).toMatch(
      /^::error title=Mintlify agent::Input "project-id": looks like an API key or a token, not a project id; project-id and api-key were probably swapped/
    )
    expectNowhere(run, KEY)
    // The runner is told to mask it, as it is the api-key.
    expect(run.stdout).toContain(`::add-mask::${KEY}`)
    expect(sim.requests).toEqual([])
    expect(sim.github.statuses).toEqual([])
  })
})

describe('timing inputs and agent-accounts', () => {
  it('names every input under its floor, and an agent-accounts with no account, in one failure', async () => {
    const sim = await sims.start()
    const { workspace } = workspaceBesideSecret()
    const run = await runIn(sim, workspace, {
      ...QUICK,
      timeout: '5s',
      'poll-interval': '200ms',
      'max-poll-interval': '0.5',
      'agent-accounts': ' , '
    })

    expect(run.code).toBe(1)
    const [error, ...others] = errors(run)
    expect(others).toEqual([])
    expect(error).toMatch(/^::error title=Mintlify agent::4 inputs cannot be used:/)
    expect(error).toMatch(
      /Input "timeout": must be at least 10s \(.*\), got "5s"; use a duration from 10s to 24h/
    )
    expect(error).toMatch(
      /Input "poll-interval": must be at least 1s \(.*\), got "200ms"; use a duration from 1s to 24h/
    )
    expect(error).toMatch(
      /Input "max-poll-interval": must be at least 1s \(.*\), got "0.5" \(read as seconds\)/
    )
    expect(error).toContain('Input "agent-accounts": names no account')
    expect(sim.requests).toEqual([])
  })

  it('counts mintlify[bot] as the agent when agent-accounts names someone else', async () => {
    const sim = await sims.start()
    const { workspace } = workspaceBesideSecret()
    const payload = JSON.parse(
      readFileSync(join(ROOT, '__fixtures__', 'events', 'pull_request-opened.json'), 'utf8')
    ) as { pull_request: { user: { login: string } } }
    payload.pull_request.user.login = 'mintlify[bot]'
    const event = join(workspace, '..', `${basename(workspace)}-event.json`)
    writeFileSync(event, JSON.stringify(payload))
    const { env } = onEvent(sim, 'pull_request', 'pull_request-opened.json', {
      GITHUB_WORKSPACE: workspace,
      GITHUB_EVENT_PATH: event
    })
    const run = await runAction(
      {
        ...QUICK,
        'base-url': sim.url,
        'github-token': GITHUB_TOKEN,
        'agent-accounts': 'docs-writer'
      },
      { cwd: workspace, env }
    )

    expect(run.code).toBe(0)
    expect(run.outputs.skipped).toBe('true')
    expect(run.stdout).toContain('was opened by mintlify[bot] (agent-accounts)')
    expect(sim.requests.filter((r) => r.path.startsWith('/v2/'))).toEqual([])
  })
})
