// The reporter with the real @actions/core and real files: a GITHUB_OUTPUT or GITHUB_STEP_SUMMARY
// that cannot be written is a message, never an exception.
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Job } from '../src/clients/mintlify/job.js'
import type { RunRecord } from '../src/run/state.js'
import { Reporter, runnerFileProblem } from '../src/report/sinks/report.js'

const PR = 'https://github.com/acme/docs/pull/110'
const job: Job = { id: 'job_1', status: 'completed', model: 'm', prLink: PR }
const completed: RunRecord = {
  job,
  outcome: { kind: 'finished', phase: 'completed' },
  elapsedMs: 1_000,
  failOnNoPr: false
}

let dir = ''
let printed: string[] = []
const saved = { ...process.env }

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'report-files-'))
  writeFileSync(join(dir, 'output'), '')
  writeFileSync(join(dir, 'summary'), '')
  mkdirSync(join(dir, 'a-directory'))
  process.env.GITHUB_OUTPUT = join(dir, 'output')
  process.env.GITHUB_STEP_SUMMARY = join(dir, 'summary')
  printed = []
  jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    printed.push(String(chunk))
    return true
  })
})

afterEach(() => {
  jest.restoreAllMocks()
  process.env = { ...saved }
  rmSync(dir, { recursive: true, force: true })
})

const lines = () => printed.join('').split('\n')

describe('GITHUB_OUTPUT that cannot be written', () => {
  it('logs the job id, says once what is wrong, and fails at the end with the job', async () => {
    const path = join(dir, 'a-directory')
    process.env.GITHUB_OUTPUT = path
    const reporter = new Reporter()
    expect(() => reporter.jobCreated(job)).not.toThrow()
    expect(lines()).toContain('Created agent job job_1 (status completed, model m).')
    const failure = await reporter.finish(completed)
    expect(
      lines().filter((line) => line.startsWith('Could not set the job-id output: GITHUB_OUTPUT'))
    ).toHaveLength(1)
    expect(lines().filter((line) => line.startsWith('Could not set'))).toHaveLength(1)
    expect(failure).toBe(
      `Could not write this step's outputs: GITHUB_OUTPUT names "${path}", which is a ` +
        'directory, so later steps do not get them. Agent job job_1 was created; its pull ' +
        `request: ${PR}.`
    )
    expect(readFileSync(join(dir, 'summary'), 'utf8')).toContain('GITHUB_OUTPUT names')
  })

  it.each([
    ['follow-up', 'Agent job job_1 was sent the follow-up message; its pull request'],
    ['attach', 'The step followed agent job job_1; its pull request']
  ] as const)('names the job by what the step did with it (%s)', async (mode, words) => {
    process.env.GITHUB_OUTPUT = join(dir, 'a-directory')
    expect(await new Reporter().finish({ ...completed, mode })).toContain(words)
  })

  it('keeps the failure the run had, after its own', async () => {
    process.env.GITHUB_OUTPUT = join(dir, 'missing', 'output')
    const failure = await new Reporter().finish({
      ...completed,
      outcome: { kind: 'finished', phase: 'failed' }
    })
    expect(failure).toMatch(
      /^Could not write this step's outputs: GITHUB_OUTPUT names ".*", which does not exist, so later steps do not get them\. Agent job job_1 was created; its pull request: \S+ Agent job job_1 failed\./
    )
  })

  it('says what the step did when there is no job', async () => {
    process.env.GITHUB_OUTPUT = join(dir, 'a-directory')
    const failure = await new Reporter().finish({
      outcome: { kind: 'skipped', reason: 'Nothing changed.' },
      elapsedMs: 0,
      failOnNoPr: false
    })
    expect(failure).toMatch(/do not get them\. Skipped: no job started\.$/)
  })
})

describe('GITHUB_STEP_SUMMARY that cannot be written', () => {
  it('is a warning naming it, and the step succeeds with its outputs', async () => {
    const path = join(dir, 'a-directory')
    process.env.GITHUB_STEP_SUMMARY = path
    expect(await new Reporter().finish(completed)).toBeUndefined()
    expect(lines()).toContain(
      `::warning title=Mintlify agent::Could not write the job summary: GITHUB_STEP_SUMMARY ` +
        `names "${path}", which is a directory. The log has what it would show.`
    )
    expect(readFileSync(join(dir, 'output'), 'utf8')).toContain(PR)
  })

  it('is only a debug line outside a runner, where there is no summary', async () => {
    delete process.env.GITHUB_STEP_SUMMARY
    expect(await new Reporter().finish(completed)).toBeUndefined()
    expect(lines().filter((line) => line.startsWith('::warning'))).toEqual([])
  })
})

describe('runnerFileProblem', () => {
  const errno = (code: string) => Object.assign(new Error(`${code}: failed`), { code })

  it.each([
    ['EROFS', 'is on a read-only file system'],
    ['EACCES', 'the step may not write (permission denied)'],
    ['ENOSPC', 'is on a disk that is full']
  ])('says why a file cannot be written (%s)', (code, why) => {
    expect(runnerFileProblem('GITHUB_OUTPUT', errno(code))).toBe(
      `GITHUB_OUTPUT names "${join(dir, 'output')}", which ${why}`
    )
  })

  it('quotes an error it has no words for, and a path as plain text', () => {
    process.env.GITHUB_OUTPUT = `${join(dir, 'output')}\n::error::x`
    const problem = runnerFileProblem('GITHUB_OUTPUT', new Error('odd'))
    expect(problem).toMatch(/which does not exist$/)
    expect(problem).not.toContain('\n')
    writeFileSync(join(dir, 'odd'), '')
    process.env.GITHUB_OUTPUT = join(dir, 'odd')
    expect(runnerFileProblem('GITHUB_OUTPUT', new Error('odd'))).toMatch(
      /which cannot be written \(odd\)$/
    )
  })
})
