import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { marker, readMarker } from '../src/github/companion.js'
import { statusComment } from '../src/publish/comment.js'
import type { RunState } from '../src/run.js'

describe('the status comment marker', () => {
  it('reads back any project and job id, whatever they contain (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (projectId, jobId) => {
        const body = `${marker({ projectId, jobId })}\n### Docs update started`
        expect(readMarker(body)).toEqual({ projectId, jobId })
      })
    )
  })

  it('reads nothing from a marker that does not open the comment (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (before, jobId) => {
        fc.pre(before.trim() !== '' || before.length > 0)
        const line = marker({ projectId: 'proj', jobId })
        expect(readMarker(`${before}${line}\nbelow`)).toBeUndefined()
        expect(readMarker(`> ${line}`)).toBeUndefined()
        expect(readMarker(`${line} and more on the same line`)).toBeUndefined()
      })
    )
  })

  it('cannot be closed early by an id holding "-->"', () => {
    const line = marker({ projectId: 'p', jobId: 'x --> <img src=x>' })
    expect(line.indexOf('-->')).toBe(line.length - 3)
  })

  it('finds nothing in a comment without it, or with a damaged one', () => {
    expect(readMarker('Docs PR: https://github.com/a/b/pull/1')).toBeUndefined()
    expect(readMarker('<!-- mintlify-agent-action project=%E0 job=j -->')).toBeUndefined()
  })
})

describe('statusComment', () => {
  const options = { reuse: false, runUrl: 'https://github.com/o/r/actions/runs/1' }
  const running = (more: Partial<RunState> = {}): RunState => ({
    projectId: 'proj',
    mode: 'create',
    job: { id: 'job_1', status: 'active' },
    outcome: { kind: 'running' },
    notes: [],
    startedAt: 0,
    elapsedMs: 65_000,
    failOnNoPr: false,
    ...more
  })

  it('says the job started, with its id, and records it in the marker', () => {
    const body = statusComment(running(), options)
    expect(body.startsWith(marker({ projectId: 'proj', jobId: 'job_1' }))).toBe(true)
    expect(body).toContain('### ⏳ Docs update started')
    expect(body).toContain('<code>job_1</code>')
    expect(body).toContain('<a href="https://github.com/o/r/actions/runs/1">this run</a>')
  })

  it.each([
    [
      { kind: 'finished', phase: 'completed' } as const,
      'https://github.com/a/docs/pull/7',
      '✅ Docs pull request ready'
    ],
    [{ kind: 'finished', phase: 'failed' } as const, null, '❌ The docs job failed'],
    [{ kind: 'timeout', timeoutMs: 60_000 } as const, null, '⏱️ The docs job is still running'],
    [{ kind: 'cancelled', reason: 'x' } as const, null, '🛑 The workflow was cancelled']
  ])('at the end says how it went (%j)', (outcome, prLink, headline) => {
    const job = {
      id: 'job_1',
      status: outcome.kind === 'finished' ? outcome.phase : 'active',
      prLink
    }
    const body = statusComment(running({ job, outcome }), options)
    expect(body).toContain(headline)
    expect(body).toContain('1m 5s')
    const linkCell = prLink ? `<td><a href="${prLink}">#7</a></td>` : '<td>—</td>'
    expect(body).toContain(`<th>Docs pull request</th>${linkCell}`)
  })

  it('shows no server text: an unknown status, a hostile link or job id stay inert', () => {
    const body = statusComment(
      running({
        job: {
          id: 'job_@octo-org/team fixes #1',
          status: '@octocat',
          prLink: 'https://evil.example/x?y="<b>"&z'
        },
        outcome: { kind: 'finished', phase: 'completed' }
      }),
      options
    )
    expect(body).not.toMatch(/@octo|fixes #1|evil\.example/)
  })
})
