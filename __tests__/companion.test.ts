import { agentsPull } from '../__fixtures__/docs-pull.js'
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { API_KEYS_PAGE } from '../src/base/errors.js'
import { marker, readMarker } from '../src/clients/github/companion.js'
import { statusComment } from '../src/report/comment.js'
import type { RunState } from '../src/run/state.js'

describe('the status comment marker', () => {
  it('reads back any project and job id, whatever they contain (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (projectId, jobId) => {
        const body = `${marker({ projectId, jobId })}\n### Docs update started`
        expect(readMarker(body)).toEqual({ projectId, jobId })
      })
    )
  })

  it('reads back the docs pull request it records, with the commit (property)', () => {
    const name = fc.stringMatching(/^[A-Za-z0-9_.-]{1,20}$/)
    const sha = fc.option(fc.stringMatching(/^[0-9a-f]{40}$/), { nil: undefined })
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.record({ owner: name, repo: name, number: fc.integer({ min: 1, max: 1e9 }) }),
        sha,
        (jobId, docs, sha) => {
          const recorded = { projectId: 'proj', jobId, ...(sha ? { sha } : {}), docs }
          expect(readMarker(`${marker(recorded)}\nbody`)).toEqual(recorded)
        }
      )
    )
    // A marker an earlier version wrote, without the docs pull request, still reads.
    expect(readMarker('<!-- mintlify-agent-action project=p job=j -->')).toEqual({
      projectId: 'p',
      jobId: 'j'
    })
  })

  it('reads back the docs head commit the last preview was requested for, with or without the rest (property)', () => {
    const hex = fc.stringMatching(/^[0-9a-f]{40}$/)
    const docs = fc.option(fc.constant({ owner: 'acme', repo: 'docs', number: 101 }), {
      nil: undefined
    })
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.option(hex, { nil: undefined }),
        docs,
        fc.option(hex, { nil: undefined }),
        (jobId, sha, docs, preview) => {
          const recorded = {
            projectId: 'proj',
            jobId,
            ...(sha ? { sha } : {}),
            ...(docs ? { docs } : {}),
            ...(preview ? { preview } : {})
          }
          const line = marker(recorded)
          expect(line.includes(' preview=')).toBe(preview !== undefined)
          expect(readMarker(`${line}\nbody`)).toEqual(recorded)
        }
      )
    )
  })

  it('reads a marker written before previews were recorded, and writes no preview that is not a full sha', () => {
    const sha = 'a'.repeat(40)
    expect(
      readMarker(`<!-- mintlify-agent-action project=p job=j sha=${sha} docs=acme/docs#101 -->`)
    ).toEqual({
      projectId: 'p',
      jobId: 'j',
      sha,
      docs: { owner: 'acme', repo: 'docs', number: 101 }
    })
    const head = 'b'.repeat(40)
    expect(readMarker(`<!-- mintlify-agent-action project=p job=j preview=${head} -->\n`)).toEqual({
      projectId: 'p',
      jobId: 'j',
      preview: head
    })
    // A short or upper-case sha is no commit the action recorded: the marker holds none.
    expect(marker({ projectId: 'p', jobId: 'j', preview: 'abc1234' })).toBe(
      '<!-- mintlify-agent-action project=p job=j -->'
    )
    expect(
      readMarker(`<!-- mintlify-agent-action project=p job=j preview=${head.toUpperCase()} -->`)
    ).toBeUndefined()
  })

  it('records the docs pull request GitHub showed as the agent’s, never one it did not', () => {
    const docs = { owner: 'acme', repo: 'docs', number: 101 }
    const base = {
      projectId: 'proj',
      job: { id: 'job_1', status: 'completed', prLink: 'https://github.com/acme/docs/pull/101' },
      outcome: { kind: 'finished', phase: 'completed' },
      notes: [],
      written: {}
    } as unknown as RunState
    const body = (more: Partial<RunState>) =>
      readMarker(statusComment({ ...base, ...more }, { reuse: true }))
    expect(body({ docs: agentsPull(docs) })?.docs).toEqual(docs)
    expect(body({ docs: { ref: docs, state: 'foreign', why: 'x' } })?.docs).toBeUndefined()
    const before = { ...docs, number: 7 }
    expect(
      body({ docs: { ref: docs, state: 'foreign', why: 'x' }, recordedDocs: before })?.docs
    ).toEqual(before)
    expect(
      body({ docs: { ref: docs, state: 'unknown', why: 'x' }, recordedDocs: before })?.docs
    ).toEqual(before)
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
    written: {},
    did: [],
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
    const linkCell = prLink ? `<td><a href="${prLink}">a/docs#7</a></td>` : '<td>—</td>'
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

  const completed = (job: RunState['job']) =>
    statusComment(running({ job, outcome: { kind: 'finished', phase: 'completed' } }), options)

  it('names the docs pull request with its repository, as a link to it', () => {
    const body = completed({
      id: 'job_1',
      status: 'completed',
      prLink: 'https://github.com/acme/docs/pull/110'
    })
    expect(body).toContain(
      '<th>Docs pull request</th><td><a href="https://github.com/acme/docs/pull/110">' +
        'acme/docs#110</a></td>'
    )
    // A bare number would read as a pull request of the repository the comment is on.
    expect(body).not.toMatch(/>#110</)
  })

  it('shows a docs link that is not a pull request page as its address, still a link', () => {
    const link = 'https://gitlab.example.com/acme/docs/-/merge_requests/3'
    const body = completed({ id: 'job_1', status: 'completed', prLink: link })
    expect(body).toContain(
      `<th>Docs pull request</th><td><a href="${link}">` +
        'https&#58;//gitlab.example.com/acme/docs/-/merge_requests/3</a></td>'
    )
  })

  it('links the docs repository the agent worked on', () => {
    const body = completed({
      id: 'job_1',
      status: 'completed',
      source: { repository: 'https://github.com/acme/docs', ref: 'mintlify/agent-1' }
    })
    expect(body).toContain(
      '<th>Docs repository</th><td><a href="https://github.com/acme/docs">' +
        'https&#58;//github.com/acme/docs</a></td>'
    )
  })

  it.each([
    ['javascript:alert(1)', 'javascript&#58;alert&#40;1&#41;'],
    ['ftp://files.example/docs', 'ftp&#58;//files.example/docs'],
    [
      'https://bot:s3cret@github.com/acme/docs',
      'https&#58;//&#42;&#42;&#42;&#64;&#8203;github.com/acme/docs'
    ],
    [
      'https://github.com/acme/docs"><img src=x>',
      'https&#58;//github.com/acme/docs&quot;&gt;&lt;img'
    ]
  ])('shows a docs repository that is not a safe link (%s) as text only', (repository, shown) => {
    const body = completed({ id: 'job_1', status: 'completed', source: { repository, ref: null } })
    const cell = /<th>Docs repository<\/th><td>(.*?)<\/td>/.exec(body)?.[1] ?? ''
    expect(cell).toContain(shown)
    expect(cell).not.toContain('<')
    expect(body).not.toContain('s3cret')
  })

  it('links the API keys page where a note names it, and escapes the rest of the note', () => {
    const body = statusComment(
      running({ notes: [`Make a key on ${API_KEYS_PAGE} <b>now</b>.`] }),
      options
    )
    expect(body).toContain(
      `Make a key on <a href="${API_KEYS_PAGE}">https&#58;//app.mintlify.com/settings/` +
        'organization/api-keys</a> &lt;b&gt;now&lt;/b&gt;.'
    )
  })
})
