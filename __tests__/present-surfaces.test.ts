import { describe, expect, it } from '@jest/globals'
import { agentsPull } from '../__fixtures__/docs-pull.js'
import type { Job } from '../src/clients/mintlify/job.js'
import { reportOf } from '../src/report/report.js'
import type { Mode, Outcome } from '../src/run/state.js'
import { checkName, checkStatus } from '../src/report/check.js'
import { newRunState, type RunState } from '../src/run/state.js'

const PR = 'https://github.com/acme/docs/pull/17'
const RUN = 'https://github.com/acme/app/actions/runs/9'
const active: Job = { id: 'job_1', status: 'active' }
const done = (fields: Partial<Job>): Job => ({ ...active, status: 'completed', ...fields })

function state(outcome: Outcome, job: Job | undefined, more: Partial<RunState> = {}): RunState {
  return { ...newRunState(0), projectId: 'proj', outcome, job, elapsedMs: 1_000, ...more }
}

/** Two of the agent's commits on main since the job was created. */
const PUSHED = {
  known: true,
  repo: { owner: 'acme', repo: 'docs' },
  branch: 'main',
  commits: ['a', 'b'].map((c) => ({
    sha: c.repeat(40),
    url: `https://github.com/acme/docs/commit/${c.repeat(40)}`
  }))
} as const

/** The docs pull request at `PR`, proven the agent's and open. */
const OPEN = agentsPull({ owner: 'acme', repo: 'docs', number: 17 })

type Row = [
  string,
  RunState,
  { comment: RegExp; check: string; description: RegExp; target?: string }
]

// One row per way a run can end: what the status comment says and what the check says.
describe('every surface of one outcome', () => {
  it.each<Row>([
    [
      'running, new job',
      state({ kind: 'running' }, active),
      { comment: /⏳ Docs update started/, check: 'pending', description: /job_1 is running/ }
    ],
    [
      'running, follow-up',
      state({ kind: 'running' }, active, { mode: 'follow-up' }),
      {
        comment: /Follow-up sent/,
        check: 'pending',
        description: /Follow-up sent to docs job job_1/
      }
    ],
    [
      'completed with a docs pull request',
      state({ kind: 'finished', phase: 'completed' }, done({ prLink: PR })),
      { comment: /✅ Docs pull request ready/, check: 'success', description: /ready/, target: PR }
    ],
    [
      'completed without a pull request',
      state({ kind: 'finished', phase: 'completed' }, done({})),
      {
        comment: /without a pull request link/,
        check: 'success',
        description: /Completed, no pull request/,
        target: RUN
      }
    ],
    [
      'completed without a pull request, the agent pushed to the deploy branch',
      state({ kind: 'finished', phase: 'completed' }, done({}), { pushes: PUSHED }),
      {
        comment: /✅ Docs pushed to main/,
        check: 'success',
        description: /^Docs pushed to main: 2 commits$/
      }
    ],
    [
      'completed without a pull request, nothing pushed',
      state({ kind: 'finished', phase: 'completed' }, done({}), {
        pushes: { ...PUSHED, commits: [] }
      }),
      {
        comment: /☑️ No docs change needed/,
        check: 'success',
        description: /^No docs change needed$/
      }
    ],
    [
      'completed without a pull request, the docs repository unreadable',
      state({ kind: 'finished', phase: 'completed' }, done({}), {
        pushes: { known: false, why: 'refused' }
      }),
      {
        comment: /without a pull request link/,
        check: 'success',
        description: /whether the agent pushed could not be read/
      }
    ],
    [
      'completed with a docs pull request whose checks fail',
      state({ kind: 'finished', phase: 'completed' }, done({ prLink: PR }), {
        docs: OPEN,
        docsChecks: {
          state: 'failure',
          failing: [{ name: 'build' }, { name: 'links' }],
          running: []
        }
      }),
      {
        comment: /❌ Docs pull request checks failing/,
        check: 'failure',
        description: /^Docs pull request checks failing: build, links$/
      }
    ],
    [
      'completed with a docs pull request whose checks still run',
      state({ kind: 'finished', phase: 'completed' }, done({ prLink: PR }), {
        docs: OPEN,
        docsChecks: { state: 'pending', failing: [], running: [{ name: 'build' }] }
      }),
      {
        comment: /checks are still running/,
        check: 'success',
        description: /still running/,
        target: PR
      }
    ],
    [
      'completed without a pull request, fail-on-no-pr',
      state({ kind: 'finished', phase: 'completed' }, done({}), { failOnNoPr: true }),
      { comment: /without a pull request link/, check: 'failure', description: /fail-on-no-pr/ }
    ],
    [
      'failed',
      state({ kind: 'finished', phase: 'failed' }, done({ status: 'failed' })),
      { comment: /❌ The docs job failed/, check: 'failure', description: /failed/, target: RUN }
    ],
    [
      'archived',
      state({ kind: 'finished', phase: 'archived' }, done({ status: 'archived' })),
      { comment: /archived before it finished/, check: 'failure', description: /archived/ }
    ],
    [
      'timed out',
      state({ kind: 'timeout', timeoutMs: 60_000 }, active),
      { comment: /still running/, check: 'pending', description: /Still running: docs job job_1/ }
    ],
    [
      'cancelled with a job',
      state({ kind: 'cancelled', reason: 'x' }, active),
      { comment: /cancelled/, check: 'pending', description: /Still running: docs job job_1/ }
    ],
    [
      'cancelled before a job',
      state({ kind: 'cancelled', reason: 'x' }, undefined),
      { comment: /cancelled/, check: 'error', description: /cancelled/ }
    ],
    [
      'failed after the job started',
      state({ kind: 'error', error: new Error('x') }, active),
      { comment: /step failed/, check: 'pending', description: /Still running/ }
    ],
    [
      'failed before a job',
      state({ kind: 'error', error: new Error('x') }, undefined),
      { comment: /step failed/, check: 'error', description: /failed/ }
    ],
    [
      'skipped by paths',
      state({ kind: 'skipped', reason: 'None of the 3 changed files matches paths' }, undefined),
      { comment: /No docs job needed/, check: 'success', description: /No documented files/ }
    ],
    [
      'not waited for',
      state({ kind: 'started', mode: 'create' }, active),
      { comment: /Docs update started/, check: 'pending', description: /attach with job-id/ }
    ]
  ])('%s', (_name, run, expected) => {
    const report = reportOf(run)
    expect(report.comment).toMatch(expected.comment)
    const status = checkStatus(run, RUN, 'https://github.com')
    expect(status.state).toBe(expected.check)
    expect(status.description).toMatch(expected.description)
    expect(status.description.length).toBeLessThanOrEqual(140)
    expect(status.targetUrl).toBe(expected.target ?? RUN)
  })

  it('never lets a job that may still run pass a required check', () => {
    const stillRunning: Outcome[] = [
      { kind: 'running' },
      { kind: 'started', mode: 'create' },
      { kind: 'timeout', timeoutMs: 1 },
      { kind: 'cancelled', reason: 'x' },
      { kind: 'error', error: new Error('x') }
    ]
    for (const outcome of stillRunning) {
      expect(checkStatus(state(outcome, active), RUN, 'https://github.com').state).toBe('pending')
    }
  })

  it.each<Mode>(['create', 'follow-up', 'attach'])('the running comment for %s', (mode) => {
    expect(reportOf(state({ kind: 'running' }, active, { mode })).comment).toMatch(/^⏳ /)
  })
})

describe('the check', () => {
  it('is named by the project, stably, with nothing that could mention or link', () => {
    expect(checkName('proj_123')).toBe('Mintlify docs (proj_123)')
    expect(checkName('@octocat <b>x</b>')).toMatch(/^Mintlify docs \(octocatbxb~[0-9a-f]{10}\)$/)
    expect(checkName('a'.repeat(300)).length).toBeLessThan(120)
  })

  it('gives distinct projects distinct names, even when their ids differ only in what is dropped', () => {
    const ids = ['proj a', 'proja', 'proj-a', 'proj/a', 'proj a ', 'a'.repeat(101), 'a'.repeat(102)]
    const names = ids.map(checkName)
    expect(new Set(names).size).toBe(ids.length)
    for (const name of names) expect(name).toMatch(/^Mintlify docs \([\w.:~-]+\)$/)
    expect(checkName('proj a')).toBe(checkName('proj a'))
  })

  it('shows a hostile job id as plain characters only', () => {
    const run = state(
      { kind: 'running' },
      { id: '@octo-org/team fixes #1 <img>', status: 'active' }
    )
    const { description } = checkStatus(run, RUN, 'https://github.com')
    expect(description).not.toMatch(/[@#<> ]team|fixes #1|<img>/)
    expect(description).not.toContain('@')
  })

  it.each([
    ['not http(s)', 'javascript:x'],
    ['on another host', 'https://evil.example/acme/docs/pull/17'],
    ['not a pull request', 'https://github.com/acme/docs/issues/17']
  ])('links the run, not a link the API sent that is %s', (_name, prLink) => {
    const run = state({ kind: 'finished', phase: 'completed' }, done({ prLink }))
    expect(checkStatus(run, RUN, 'https://github.com').targetUrl).toBe(RUN)
  })
})
