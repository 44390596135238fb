// The runner's files, as the built action meets them: a GITHUB_OUTPUT or GITHUB_STEP_SUMMARY that
// cannot be written (a directory, a path that does not exist). The job is never lost: its id is in
// the log and in the one failure, and no stack or line of the bundle is ever printed.
import { afterEach, describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runnerEvent } from '../../scripts/runner.js'
import {
  commandLines,
  QUICK,
  ROOT,
  runAction,
  simulators,
  type ActionRun,
  warpTime,
  WITH_GITHUB
} from './harness.js'

warpTime(WITH_GITHUB)

const sims = simulators()
const dirs: string[] = []
afterEach(async () => {
  await sims.closeAll()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A directory where a runner file should be. */
function directory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'runner-files-'))
  dirs.push(dir)
  mkdirSync(join(dir, 'github_output'))
  return join(dir, 'github_output')
}

/** What a crash would print: a stack frame, or a line of the minified bundle. */
function expectNoCrash(run: ActionRun): void {
  const printed = `${run.stdout}\n${run.stderr}`
  expect(printed).not.toMatch(/^\s+at /m)
  expect(printed).not.toMatch(/index\.js:\d+/)
  expect(printed).not.toMatch(/Node\.js v\d+/)
  expect(run.stderr).toBe('')
}

const errors = (run: ActionRun) => commandLines(run.stdout).filter((l) => l.startsWith('::error'))
const warnings = (run: ActionRun) =>
  commandLines(run.stdout).filter((l) => l.startsWith('::warning'))

describe('GITHUB_OUTPUT cannot be written', () => {
  it('is a directory: one failure naming the variable, its path and the job created', async () => {
    const sim = await sims.start()
    const path = directory()
    const run = await runAction({ ...QUICK, 'base-url': sim.url }, { env: { GITHUB_OUTPUT: path } })

    expect(run.code).toBe(1)
    expectNoCrash(run)
    const [jobId] = [...sim.jobs.keys()]
    expect(sim.creates()).toBe(1)
    // The job's id reaches the log as soon as it is known, before anything else is said.
    expect(run.stdout).toContain(`Created agent job ${jobId} (status`)
    expect(run.stdout).toContain(
      `Could not set the job-id output: GITHUB_OUTPUT names "${path}", which is a directory.`
    )
    // The step still followed the job to its end, and says what it would have handed on.
    expect(sim.requests.filter((r) => r.method === 'GET').length).toBeGreaterThan(0)
    expect(errors(run)).toHaveLength(1)
    expect(errors(run)[0]).toMatch(
      new RegExp(
        `^::error title=Mintlify agent::Could not write this step's outputs: GITHUB_OUTPUT names "${path}", which ` +
          `is a directory, so later steps do not get them\\. Agent job ${jobId} was created; ` +
          'its pull request: https://github\\.com/acme/docs/pull/\\d+\\.$'
      )
    )
    // The summary, which can be written, says so too.
    expect(run.summary).toContain(`<code>${jobId}</code>`)
    expect(run.summary).toContain('GITHUB_OUTPUT names')
  })

  it('does not exist: a dry run fails the same way, before any request', async () => {
    const sim = await sims.start()
    const path = join(directory(), 'missing', 'output')
    const run = await runAction(
      { ...QUICK, 'base-url': sim.url, 'dry-run': 'true' },
      { env: { GITHUB_OUTPUT: path } }
    )
    expect(run.code).toBe(1)
    expectNoCrash(run)
    expect(sim.requests).toEqual([])
    expect(errors(run)).toEqual([
      `::error title=Mintlify agent::Could not write this step's outputs: GITHUB_OUTPUT names "${path}", which does ` +
        'not exist, so later steps do not get them. Dry run: no job started.'
    ])
  })

  it('a job that fails: the one failure carries both reasons', async () => {
    const sim = await sims.start({ finalStatus: 'failed' })
    const path = directory()
    const run = await runAction({ ...QUICK, 'base-url': sim.url }, { env: { GITHUB_OUTPUT: path } })
    expect(run.code).toBe(1)
    expectNoCrash(run)
    const [jobId] = [...sim.jobs.keys()]
    expect(errors(run)).toHaveLength(1)
    expect(errors(run)[0]).toContain(`GITHUB_OUTPUT names "${path}", which is a directory`)
    expect(errors(run)[0]).toContain(`Agent job ${jobId} was created.`)
    expect(errors(run)[0]).toContain(`Agent job ${jobId} failed.`)
  })
})

describe('GITHUB_STEP_SUMMARY cannot be written', () => {
  it('is one warning; the step succeeds with every output', async () => {
    const sim = await sims.start()
    const path = directory()
    const run = await runAction(
      { ...QUICK, 'base-url': sim.url },
      { env: { GITHUB_STEP_SUMMARY: path } }
    )
    expect(run.code).toBe(0)
    expectNoCrash(run)
    expect(run.outputs.status).toBe('completed')
    expect(run.outputs['pr-link']).toMatch(/^https:\/\/github\.com\/acme\/docs\/pull\/\d+$/)
    expect(errors(run)).toEqual([])
    expect(warnings(run)).toEqual([
      `::warning title=Mintlify agent::Could not write the job summary: GITHUB_STEP_SUMMARY ` +
        `names "${path}", which is a directory. The log has what it would show.`
    ])
  })
})

describe('.env.example', () => {
  /** Its variables, with the commented pull request lines taken in, as a user uncomments them. */
  function envExample(): Record<string, string> {
    const text = readFileSync(join(ROOT, '.env.example'), 'utf8')
    return Object.fromEntries(
      text
        .split('\n')
        .map((line) => line.replace(/^# (?=(GITHUB_|INPUT_)[\w-]+=)/, ''))
        .filter((line) => /^[A-Z][\w-]*=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)])
    )
  }

  it('describes the pull request run a runner would, for the fixture it names', () => {
    const env = envExample()
    const event = runnerEvent(
      'pull_request',
      join(ROOT, env.GITHUB_EVENT_PATH ?? ''),
      'http://127.0.0.1:8787'
    )
    expect({ ...event, GITHUB_EVENT_PATH: env.GITHUB_EVENT_PATH }).toEqual({
      GITHUB_EVENT_NAME: env.GITHUB_EVENT_NAME,
      GITHUB_EVENT_PATH: env.GITHUB_EVENT_PATH,
      GITHUB_REPOSITORY: env.GITHUB_REPOSITORY,
      GITHUB_API_URL: env.GITHUB_API_URL,
      GITHUB_SERVER_URL: env.GITHUB_SERVER_URL,
      GITHUB_SHA: env.GITHUB_SHA,
      GITHUB_REF: env.GITHUB_REF
    })
    expect(env['INPUT_BASE-URL']).toBe(env.GITHUB_API_URL)
  })

  it('with its pull request lines, comments on the pull request and sets the docs check', async () => {
    const sim = await sims.start()
    const env = envExample()
    const inputs = Object.fromEntries(
      Object.entries(env)
        .filter(([name]) => name.startsWith('INPUT_'))
        .map(([name, value]) => [name.slice('INPUT_'.length).toLowerCase(), value])
    )
    const runner = Object.fromEntries(
      Object.entries(env).filter(([name]) => name.startsWith('GITHUB_'))
    )
    const run = await runAction(
      { ...inputs, 'base-url': sim.url, 'poll-interval': '1s', 'max-poll-interval': '1s' },
      { env: { ...runner, GITHUB_API_URL: sim.url }, cwd: ROOT }
    )
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('Read the change from pull request #2')
    expect(run.outputs['comment-url']).toMatch(/\/Codertocat\/Hello-World\/pull\/2#issuecomment-/)
    expect(sim.github.statuses.at(-1)).toMatchObject({
      sha: env.GITHUB_SHA,
      state: 'success'
    })
  })
})
