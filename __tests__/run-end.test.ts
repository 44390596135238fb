// How the story fills the run's state: from what the run read, and from the error that ends it.
import { describe, expect, it } from '@jest/globals'
import { endWith, outcomeOf, readState } from '../src/act/state.js'
import {
  CancelledError,
  DeadlineError,
  InputError,
  SecretsWithheldError
} from '../src/base/errors.js'
import type { Facts } from '../src/run/read/facts.js'
import { known } from '../src/run/read/known.js'
import { newRunState, recordWrote } from '../src/run/state.js'
import { push } from './decide-inputs.js'

const log = () => {
  const lines: string[] = []
  const add = (line: string) => void lines.push(line)
  return { lines, info: add, warning: add, debug: () => {} }
}

describe('the outcome an error gives a run', () => {
  it('a cancel is a cancellation, withheld secrets a skip with a notice', () => {
    const cancelled = new CancelledError('The workflow was cancelled (SIGTERM).')
    expect(outcomeOf(cancelled, 'job_1', 60_000)).toEqual({
      kind: 'cancelled',
      reason: cancelled.message
    })
    const withheld = new SecretsWithheldError('No secrets on a fork.')
    expect(outcomeOf(withheld, undefined, 60_000)).toEqual({
      kind: 'skipped',
      reason: withheld.message,
      notice: true
    })
  })

  it('a deadline is a timeout only once there is a job, with what could not be read', () => {
    const deadline = new DeadlineError('The deadline came.')
    expect(outcomeOf(deadline, 'job_1', 60_000)).toEqual({
      kind: 'timeout',
      timeoutMs: 60_000,
      unread: deadline.message
    })
    const unread = new DeadlineError('No time left.', 'no-time', new Error('HTTP 503'))
    expect(outcomeOf(unread, 'job_1', 60_000)).toMatchObject({ unread: 'HTTP 503' })
    expect(outcomeOf(deadline, undefined, 60_000)).toEqual({ kind: 'error', error: deadline })
    const input = new InputError('timeout', 'is not a duration')
    expect(outcomeOf(input, 'job_1', 60_000)).toEqual({ kind: 'error', error: input })
  })

  it('a job seen to end stays ended after a cancel, and the run says it followed no further', () => {
    const state = { ...newRunState(0), outcome: { kind: 'finished', phase: 'completed' } as const }
    const said = log()
    endWith(state, new CancelledError('The run was cancelled.'), 60_000, said)
    expect(state.outcome).toEqual({ kind: 'finished', phase: 'completed' })
    expect(state.notes).toEqual([expect.stringContaining('The run was cancelled.')])
    expect(said.lines).toEqual(state.notes)
    // Any other error still ends it.
    endWith(state, new Error('a bug'), 60_000, said)
    expect(state.outcome.kind).toBe('error')
  })
})

describe('the state of a run that has read', () => {
  it('names the project, the trigger as reading left it, and whether the platform took the id', () => {
    const settings = { projectId: 'proj_1', failOnNoPr: true }
    const event = push()
    const read = readState(5, settings, event, {})
    expect(read).toMatchObject({ projectId: 'proj_1', failOnNoPr: true, startedAt: 5 })
    expect(read.trigger?.event).toBe(event)
    expect(read.accepted).toBeUndefined()
    const job = { phase: known('running') } as unknown as Facts['job']
    expect(readState(5, settings, undefined, { job }).accepted).toBe(true)
    expect(readState(5, settings, undefined, { job }).trigger).toBeUndefined()
  })

  it('records where the sinks wrote and what they did, in their order', () => {
    const state = newRunState(0)
    recordWrote(state, [
      { written: 'check', url: 'https://x/check', did: ['wrote the check'] },
      { written: 'comment' },
      { did: ['reacted'] }
    ])
    expect(state.written).toEqual({ check: 'https://x/check' })
    expect(state.did).toEqual(['wrote the check', 'reacted'])
  })
})
