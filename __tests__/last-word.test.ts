// The last word's rules, as properties over generated runs: what the docs check is called
// (never a project the platform refused), what it says (a pull request the job opened is
// success though its state could not be read; a failed run is never left pending), and that a
// `/docs` command always ends with 🚀 or 😕.
import { agentsPull } from '../__fixtures__/docs-pull.js'
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { ApiError } from '../src/base/errors.js'
import { checkContext, checkName, checkStatus, UNNAMED_CHECK } from '../src/report/check.js'
import { reportOf } from '../src/report/report.js'
import { newRunState, type Outcome, type RunState } from '../src/run/state.js'

const PROJECT = 'sk_live_0123456789abcdefghij'
const LINK = 'https://github.com/acme/docs/pull/101'
const SERVER = 'https://github.com'
const RUN = 'https://github.com/Codertocat/Hello-World/actions/runs/1'

const httpError = (status: number) => new ApiError(`HTTP ${status}`, { kind: 'http', status })

const outcome: fc.Arbitrary<Outcome> = fc.oneof(
  fc.constant<Outcome>({ kind: 'running' }),
  fc.constantFrom<Outcome>(
    { kind: 'started', mode: 'create' },
    { kind: 'started', mode: 'follow-up' },
    { kind: 'finished', phase: 'completed' },
    { kind: 'finished', phase: 'failed' },
    { kind: 'finished', phase: 'archived' },
    { kind: 'timeout', timeoutMs: 60_000 },
    { kind: 'cancelled', reason: 'The workflow was cancelled (SIGTERM).' },
    { kind: 'skipped', reason: 'nothing to document' },
    { kind: 'dry-run' }
  ),
  fc
    .constantFrom(400, 401, 403, 404, 429, 500, 502)
    .map((status): Outcome => ({ kind: 'error', error: httpError(status) })),
  fc.constant<Outcome>({ kind: 'error', error: new Error('socket hang up') })
)

const runs = fc.record({
  outcome,
  accepted: fc.constantFrom<boolean | undefined>(true, false, undefined),
  known: fc.boolean(),
  mode: fc.constantFrom<RunState['mode']>('create', 'follow-up', 'attach'),
  status: fc.constantFrom<string | undefined>('active', 'completed', 'failed', undefined),
  link: fc.boolean(),
  docs: fc.constantFrom<RunState['docs']>(
    undefined,
    agentsPull({ owner: 'acme', repo: 'docs', number: 101 }),
    { state: 'unknown', ref: { owner: 'acme', repo: 'docs', number: 101 }, why: 'private' },
    { state: 'unknown', why: 'the link is not in the job’s docs repository' }
  )
})

type Run = typeof runs extends fc.Arbitrary<infer R> ? R : never

function stateOf(run: Run): RunState {
  return {
    ...newRunState(0),
    projectId: PROJECT,
    outcome: run.outcome,
    accepted: run.accepted,
    mode: run.mode,
    job: { id: 'job_1', status: run.status, prLink: run.link ? LINK : null },
    docs: run.docs
  }
}

const refusal = (o: Outcome) =>
  o.kind === 'error' &&
  o.error instanceof ApiError &&
  o.error.failure.kind === 'http' &&
  [401, 403, 404].includes(o.error.failure.status)

describe('the check’s name', () => {
  it('names the project only once the platform accepted it, or never was asked', () => {
    fc.assert(
      fc.property(runs, (run) => {
        const state = stateOf(run)
        const name = checkContext(state, run.known)
        const named = run.accepted !== false || (run.known && !refusal(run.outcome))
        expect(name).toBe(named ? checkName(PROJECT) : UNNAMED_CHECK)
      })
    )
  })

  it('after a 401, 403 or 404, nothing the check says carries the project id', () => {
    fc.assert(
      fc.property(runs, fc.constantFrom(401, 403, 404), (run, status) => {
        const state = {
          ...stateOf(run),
          accepted: false,
          outcome: { kind: 'error', error: httpError(status) }
        } satisfies RunState
        expect(JSON.stringify(checkStatus(state, RUN, SERVER, run.known))).not.toContain(PROJECT)
      })
    )
  })
})

describe('what the check says', () => {
  it('a docs pull request the job opened is success, though its state could not be read', () => {
    fc.assert(
      fc.property(runs, (run) => {
        const state = stateOf(run)
        const status = checkStatus(state, RUN, SERVER)
        // A follow-up's answer shows the job as it was before the message: not done with it.
        const completed =
          (run.outcome.kind === 'finished' && run.outcome.phase === 'completed') ||
          (run.outcome.kind === 'started' &&
            run.outcome.mode !== 'follow-up' &&
            run.status === 'completed')
        const opened = completed && run.link && run.docs?.state === 'unknown' && run.docs.ref
        expect(status.state === 'success' || !opened).toBe(true)
        expect(status.description.endsWith('its state could not be read') || !opened).toBe(true)
        // One whose link names no pull request of the job's docs repository was not opened there.
        const elsewhere = completed && run.link && run.docs?.state === 'unknown' && !run.docs.ref
        expect(status.state === 'error' || !elsewhere).toBe(true)
      }),
      {
        numRuns: 2_000,
        // The review's run: a private docs repository the workflow token cannot read.
        examples: [
          [
            {
              outcome: { kind: 'finished', phase: 'completed' },
              accepted: true,
              known: false,
              mode: 'create',
              status: 'completed',
              link: true,
              docs: {
                state: 'unknown',
                ref: { owner: 'acme', repo: 'docs', number: 101 },
                why: 'private'
              }
            }
          ]
        ]
      }
    )
  })

  it('does not call a follow-up only sent "updated" from the status its job had before the message', () => {
    // wait: false: the follow-up's answer still shows the job completed with its pull request.
    const state: RunState = {
      ...newRunState(0),
      projectId: PROJECT,
      outcome: { kind: 'started', mode: 'follow-up' },
      mode: 'follow-up',
      job: { id: 'job_1', status: 'completed', prLink: LINK },
      docs: { state: 'unknown', ref: { owner: 'acme', repo: 'docs', number: 101 }, why: 'private' }
    }
    expect(checkStatus(state, RUN, SERVER)).toMatchObject({
      state: 'pending',
      description: 'Docs job job_1 is running; attach with job-id to follow it'
    })
    const seenDone = { ...state, outcome: { kind: 'finished', phase: 'completed' } } as const
    expect(checkStatus(seenDone, RUN, SERVER)).toMatchObject({
      state: 'success',
      description: expect.stringMatching(/^Docs pull request updated; its state could not be read/)
    })
  })

  it('is pending only while the run does not know how the job ends, never after a failure to reach it', () => {
    fc.assert(
      fc.property(runs, (run) => {
        const { state } = checkStatus(stateOf(run), RUN, SERVER)
        const unknownEnd = ['running', 'started', 'timeout', 'cancelled', 'dry-run']
        // A run that failed while it watched a job it had heard from stopped waiting for it.
        const watched = run.outcome.kind === 'error' && run.status !== undefined
        expect(state !== 'pending' || unknownEnd.includes(run.outcome.kind) || watched).toBe(true)
      })
    )
  })
})

describe('the answer to a /docs command', () => {
  it('is 🚀 or 😕 however the run ended, but for a run that took no job', () => {
    fc.assert(
      fc.property(runs, (run) => {
        const { reaction } = reportOf(stateOf(run))
        const none = run.outcome.kind === 'skipped' || run.outcome.kind === 'dry-run'
        expect(reaction === undefined).toBe(none)
        const failed = ['error', 'timeout', 'cancelled'].includes(run.outcome.kind)
        expect(reaction !== 'rocket' || !failed).toBe(true)
      })
    )
  })
})
