import { describe, expect, it } from '@jest/globals'
import type { ListedCommit } from '../src/github/api.js'
import { agentCommitsSince } from '../src/github/docs-pushes.js'
import { docsOutcome } from '../src/present/outcome.js'
import type { RunRecord } from '../src/run.js'
import { docsRepoOf, isAgentAuthor } from '../src/trigger/docs.js'

// The pure rules behind the `outcome` output, each tested both ways: this case
// gives this answer, and this answer comes only from such cases.

const GITHUB = 'https://github.com'
const AGENTS = ['mintlify[bot]', 'docs-agent']
/** mintlify[bot]'s user id on github.com (GitHub's users API; see AGENT_APP). */
const MINTLIFY = { login: 'mintlify[bot]', id: 109931778 }
const CREATED = '2026-05-01T10:00:00Z'

describe('isAgentAuthor', () => {
  it.each([
    ['mintlify[bot] with its id', MINTLIFY, GITHUB, true],
    ['mintlify[bot] without an id', { login: 'mintlify[bot]' }, GITHUB, true],
    ['another agent account, by login', { login: 'Docs-Agent', id: 5 }, GITHUB, true],
    [
      'mintlify[bot] on another GitHub, another id',
      { login: 'mintlify[bot]', id: 7 },
      'https://ghe.test',
      true
    ]
  ])('counts %s', (_name, author, server, expected) => {
    expect(isAgentAuthor(author, AGENTS, server)).toBe(expected)
  })

  it.each([
    ['a person', { login: 'octocat', id: 583231 }],
    ['an impostor of mintlify[bot] by id on github.com', { login: 'mintlify[bot]', id: 1 }],
    ['no account (an address GitHub matched to none)', undefined],
    ['an account named like the app without [bot]', { login: 'mintlify', id: 109931778 }]
  ])('does not count %s', (_name, author) => {
    expect(isAgentAuthor(author, AGENTS, GITHUB)).toBe(false)
  })
})

describe('agentCommitsSince', () => {
  const commit = (
    sha: string,
    login: string | undefined,
    date: string | undefined
  ): ListedCommit => ({
    sha,
    author:
      login === undefined ? undefined : login === MINTLIFY.login ? MINTLIFY : { login, id: 9 },
    date
  })

  it("keeps the agent's commits dated at or after the job's creation, and only those", () => {
    const listed = [
      commit('a', 'mintlify[bot]', '2026-05-01T10:05:00Z'),
      commit('b', 'octocat', '2026-05-01T10:06:00Z'),
      commit('c', 'mintlify[bot]', CREATED),
      commit('d', 'mintlify[bot]', '2026-05-01T09:59:59Z'),
      commit('e', 'mintlify[bot]', undefined),
      commit('f', undefined, '2026-05-01T11:00:00Z')
    ]
    expect(agentCommitsSince(listed, AGENTS, GITHUB, CREATED)).toEqual(['a', 'c'])
  })

  it('finds nothing without a creation time to compare with', () => {
    const listed = [commit('a', 'mintlify[bot]', '2026-05-01T10:05:00Z')]
    expect(agentCommitsSince(listed, AGENTS, GITHUB, 'yesterday')).toEqual([])
  })
})

describe('docsRepoOf', () => {
  const code = { owner: 'acme', repo: 'app' }
  it('is the job’s docs repository on this GitHub, in the code repository or not', () => {
    expect(
      docsRepoOf({ source: { repository: 'https://github.com/acme/docs' } }, GITHUB, code)
    ).toEqual({ repo: { owner: 'acme', repo: 'docs' }, inCodeRepo: false })
    expect(
      docsRepoOf({ source: { repository: 'https://github.com/ACME/app.git' } }, GITHUB, code)
    ).toEqual({ repo: { owner: 'ACME', repo: 'app' }, inCodeRepo: true })
  })

  it.each([
    ['on another host', 'https://gitlab.com/acme/docs'],
    ['with a path after the repository', 'https://github.com/acme/docs/tree/main'],
    ['with credentials', 'https://x:y@github.com/acme/docs'],
    ['absent', undefined]
  ])('is a problem, and no request, for a repository %s', (_name, repository) => {
    expect(docsRepoOf({ source: { repository } }, GITHUB, code)).toHaveProperty('problem')
  })
})

describe('docsOutcome', () => {
  const job = (prLink: string | null) => ({
    id: 'job_1',
    status: 'completed',
    prLink,
    createdAt: CREATED
  })
  const done = { kind: 'finished', phase: 'completed' } as const
  const record = (more: Partial<RunRecord>): RunRecord => ({
    outcome: done,
    elapsedMs: 0,
    failOnNoPr: false,
    ...more
  })
  const repo = { owner: 'acme', repo: 'docs' }
  const pushed = {
    known: true,
    repo,
    branch: 'main',
    commits: [{ sha: 'a'.repeat(40), url: 'https://github.com/acme/docs/commit/a' }]
  } as const
  const nothing = { known: true, repo, branch: 'main', commits: [] } as const

  it('gives each outcome from its own case', () => {
    expect(docsOutcome(record({ job: job('https://github.com/acme/docs/pull/1') }))).toBe('docs-pr')
    expect(docsOutcome(record({ job: job(null), pushes: pushed }))).toBe('pushed')
    expect(docsOutcome(record({ job: job(null), pushes: nothing }))).toBe('no-change')
    expect(docsOutcome(record({ job: job(null), pushes: { known: false, why: 'x' } }))).toBe(
      'unknown'
    )
  })

  it('is empty for every run that did not see the job complete, or whose link is not handed on', () => {
    const empties: RunRecord[] = [
      record({ job: job(null), pushes: pushed, outcome: { kind: 'finished', phase: 'failed' } }),
      record({ job: job(null), pushes: pushed, outcome: { kind: 'finished', phase: 'archived' } }),
      record({ job: job(null), outcome: { kind: 'running' } }),
      record({ job: job(null), outcome: { kind: 'dry-run' } }),
      record({ job: job(null), outcome: { kind: 'timeout', timeoutMs: 1 } }),
      record({
        job: { ...job(null), status: 'active' },
        outcome: { kind: 'started', mode: 'create' }
      }),
      // Completed, but after a follow-up the answer may still be the one from before it.
      record({ job: job(null), pushes: pushed, outcome: { kind: 'started', mode: 'follow-up' } }),
      // No read was made (no workflow event): nothing is claimed.
      record({ job: job(null) }),
      // A link GitHub shows is not the agent's is no docs pull request of the job's.
      record({
        job: job('https://github.com/acme/docs/pull/1'),
        docs: { state: 'foreign', why: 'not the agent’s' }
      }),
      record({ job: job('javascript:alert(1)') })
    ]
    for (const empty of empties)
      expect([empty.outcome, docsOutcome(empty)]).toEqual([empty.outcome, ''])
  })
})
