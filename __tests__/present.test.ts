import { describe, expect, it } from '@jest/globals'
import { DeadlineError } from '../src/base/errors.js'
import type { Job } from '../src/clients/mintlify/job.js'
import { reportOf } from '../src/report/report.js'
import { checkStatus, checkWritten } from '../src/report/check.js'
import { commentWritten } from '../src/report/comment.js'
import { docsWritten } from '../src/report/docs-pr.js'
import type { Outcome, RunRecord } from '../src/run/state.js'

const PR = 'https://github.com/acme/docs/pull/17'
const active: Job = { id: 'job_1', status: 'active' }
const done = (fields: Partial<Job>): Job => ({ ...active, status: 'completed', ...fields })

function record(outcome: Outcome, job: Job | undefined, failOnNoPr = false): RunRecord {
  return { outcome, job, elapsedMs: 90_000, failOnNoPr }
}

describe('reportOf', () => {
  it.each<[string, RunRecord, { icon: string; headline: RegExp; fails: boolean }]>([
    [
      'completed with a pull request',
      record({ kind: 'finished', phase: 'completed' }, done({ prLink: PR })),
      { icon: '✅', headline: /opened a pull request/, fails: false }
    ],
    [
      'completed without a link',
      record({ kind: 'finished', phase: 'completed' }, done({})),
      { icon: '☑️', headline: /without a pull request link/, fails: false }
    ],
    [
      'completed without a link, fail-on-no-pr',
      record({ kind: 'finished', phase: 'completed' }, done({}), true),
      { icon: '❌', headline: /No pull request link/, fails: true }
    ],
    [
      'archived',
      record({ kind: 'finished', phase: 'archived' }, done({ status: 'archived' })),
      { icon: '⚠️', headline: /archived before it finished/, fails: false }
    ],
    [
      'failed',
      record({ kind: 'finished', phase: 'failed' }, done({ status: 'failed' })),
      { icon: '❌', headline: /The job failed/, fails: true }
    ],
    [
      'started, not waiting',
      record({ kind: 'started', mode: 'create' }, active),
      { icon: '🚀', headline: /started/, fails: false }
    ],
    [
      'started, but the create answer says failed',
      record({ kind: 'started', mode: 'create' }, done({ status: 'failed' })),
      { icon: '❌', headline: /The job failed/, fails: true }
    ],
    [
      'timed out',
      record({ kind: 'timeout', timeoutMs: 120_000 }, active),
      { icon: '⏱️', headline: /Timed out/, fails: true }
    ],
    [
      'cancelled before the job existed',
      record({ kind: 'cancelled', reason: 'Cancelled (SIGINT).' }, undefined),
      { icon: '🛑', headline: /Cancelled/, fails: true }
    ],
    [
      'an error',
      record({ kind: 'error', error: new DeadlineError('Too late.') }, undefined),
      { icon: '❌', headline: /Failed/, fails: true }
    ]
  ])('%s', (_, run, expected) => {
    const report = reportOf(run)
    expect(report.icon).toBe(expected.icon)
    expect(report.headline).toMatch(expected.headline)
    expect(report.failMessage !== undefined).toBe(expected.fails)
  })

  it.each([
    ['follow-up', /Follow-up message sent to agent job job_1/],
    ['attach', /Agent job job_1 is still running/]
  ] as const)('with wait: false after a %s, says so', (mode, headline) => {
    expect(reportOf(record({ kind: 'started', mode }, active)).headline).toMatch(headline)
  })

  it('after a follow-up, does not say the agent opened the pull request it already had', () => {
    const report = reportOf({
      ...record({ kind: 'finished', phase: 'completed' }, done({ prLink: PR })),
      mode: 'follow-up'
    })
    expect(report.headline).toBe('The agent finished the follow-up')
    expect(report.notice).toContain(`its pull request: ${PR}`)
  })

  it('after a follow-up, does not take the status from before the message as the end', () => {
    const report = reportOf(record({ kind: 'started', mode: 'follow-up' }, done({})))
    expect(report.icon).toBe('🚀')
    expect(report.failMessage).toBeUndefined()
  })

  it('says a job that keeps running can be found, whenever the step fails after it existed', () => {
    for (const outcome of [
      { kind: 'timeout', timeoutMs: 60_000 },
      { kind: 'cancelled', reason: 'Cancelled.' },
      { kind: 'error', error: new Error('Boom.') }
    ] as const) {
      expect(reportOf(record(outcome, active)).failMessage).toContain(
        'job_1 keeps running on the platform'
      )
    }
  })

  it('never claims that no files changed', () => {
    const report = reportOf(record({ kind: 'finished', phase: 'completed' }, done({})))
    expect(JSON.stringify(report)).not.toMatch(/no files changed|without changing any files/)
    expect(report.notes.join(' ')).toContain('push straight to the deploy branch')
  })

  it('hands on the normalised link and its number, and warns about one it refuses', () => {
    expect(
      reportOf(record({ kind: 'finished', phase: 'completed' }, done({ prLink: PR }))).link
    ).toEqual({ href: PR, number: '17' })
    const refused = reportOf(
      record(
        { kind: 'finished', phase: 'completed' },
        done({ prLink: 'https://u:secret@github.com/a/b/pull/1' })
      )
    )
    expect(refused.link).toBeUndefined()
    expect(refused.warnings.join(' ')).toContain('https://***@github.com/a/b/pull/1')
    expect(JSON.stringify(refused)).not.toContain('secret')
  })
})

describe('a timeout says how the job was last seen', () => {
  const failOf = (outcome: Outcome, job: Job | undefined) =>
    reportOf(record(outcome, job)).failMessage ?? ''

  it('still working, in a status this action does not know, or never read', () => {
    const timeout = { kind: 'timeout', timeoutMs: 60_000 } as const
    expect(failOf(timeout, active)).toContain('agent job job_1 was still active at the last check')
    expect(failOf(timeout, { id: 'job_1', status: 'succeeded' })).toContain(
      'agent job job_1 showed status "succeeded", which this action does not know, at the last check'
    )
    expect(failOf(timeout, { id: 'job_1', status: 'succeeded' })).not.toContain('still succeeded')
    expect(failOf({ ...timeout, unread: 'HTTP 502.' }, { id: 'job_1' })).toContain(
      'agent job job_1 could not be read before the 1m timeout; the last read: HTTP 502. Agent job'
    )
  })
})

describe('the log’s lines for what the run wrote on GitHub', () => {
  const url = 'https://github.com/o/r/pull/2#issuecomment-7'

  it('the status comment: made by this run or updated, and where', () => {
    expect(commentWritten(2, url, true)).toBe(
      `Created the status comment on pull request #2: ${url}`
    )
    expect(commentWritten(2, url, false)).toBe(
      `Updated the status comment on pull request #2: ${url}`
    )
  })

  it('the docs check: its name, state and words as written, on which commit', () => {
    const record = {
      projectId: 'proj',
      job: { id: 'job_1', status: 'completed', prLink: 'https://github.com/acme/docs/pull/101' },
      outcome: { kind: 'finished', phase: 'completed' },
      elapsedMs: 0,
      failOnNoPr: false
    } as const
    const status = checkStatus(record, undefined, 'https://github.com')
    expect(checkWritten(status, 'ec26c3e57ca3a959ca5aad62de7213c562f8c821')).toBe(
      `Set the docs check "Mintlify docs (proj)" on commit ec26c3e to ${status.state}: ` +
        status.description
    )
  })

  it('each write to the docs pull request', () => {
    const ref = { owner: 'acme', repo: 'docs', number: 101 }
    expect(docsWritten.backlink(ref, url, true)).toBe(
      `Created the backlink comment on docs pull request acme/docs#101: ${url}`
    )
    expect(docsWritten.backlink(ref, url, false)).toMatch(/^Updated the backlink comment/)
    expect(docsWritten.reviewers(ref, ['octocat', 'acme/writers'])).toBe(
      'Asked octocat, acme/writers to review docs pull request acme/docs#101.'
    )
    expect(docsWritten.labels(ref, ['documentation'])).toBe(
      'Added the label documentation to docs pull request acme/docs#101.'
    )
    expect(docsWritten.labels(ref, ['docs', 'ai'])).toBe(
      'Added the labels docs, ai to docs pull request acme/docs#101.'
    )
    expect(docsWritten.closed(ref)).toBe('Closed docs pull request acme/docs#101.')
  })
})

describe('the dashboard in the failure and timeout messages', () => {
  const job: Job = { id: 'job_1', status: 'active' }
  const record = (outcome: Outcome): RunRecord => ({
    job,
    outcome,
    elapsedMs: 0,
    failOnNoPr: false
  })

  it.each<[string, Outcome]>([
    ['a failed job', { kind: 'finished', phase: 'failed' }],
    ['a timeout', { kind: 'timeout', timeoutMs: 60_000 }],
    ['a timeout before the job could be read', { kind: 'timeout', timeoutMs: 60_000, unread: 'x' }]
  ])('%s links the Mintlify dashboard', (_name, outcome) => {
    expect(reportOf(record(outcome)).failMessage).toContain(
      'Mintlify dashboard (https://app.mintlify.com)'
    )
  })
})
