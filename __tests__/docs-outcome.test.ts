import { describe, expect, it } from '@jest/globals'
import { agentsPull } from '../__fixtures__/docs-pull.js'
import type { CommitChecks, GitHubApi, ListedCommit } from '../src/clients/github/api.js'
import {
  classifyChecks,
  isOwnContext,
  linkOnHost,
  readDocsChecks
} from '../src/clients/github/docs-checks.js'
import { agentCommitsSince, readDocsPushes } from '../src/clients/github/docs-pushes.js'
import type { Within } from '../src/base/runtime.js'
import { docsOutcome } from '../src/report/outcome.js'
import type { RunRecord } from '../src/run/state.js'
import { docsRepoOf, isAgentAuthor } from '../src/given/docs.js'

// The pure rules behind the `outcome` and `docs-checks` outputs, each tested both ways: this case
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

describe('classifyChecks', () => {
  const run = (
    name: string,
    conclusion?: string,
    status = conclusion ? 'completed' : 'in_progress'
  ) => ({
    name,
    status,
    conclusion
  })
  const none: CommitChecks = { statuses: [], runs: [] }

  it('is success with no checks at all, and with every one passed', () => {
    expect(classifyChecks(none, GITHUB)).toEqual({ state: 'success', failing: [], running: [] })
    const passed: CommitChecks = {
      statuses: [{ context: 'ci', state: 'success' }],
      runs: ['success', 'neutral', 'skipped'].map((c) => run(c, c))
    }
    expect(classifyChecks(passed, GITHUB).state).toBe('success')
  })

  // GitHub REST docs: check run conclusions (`@octokit/openapi` check-run.conclusion, and stale).
  it.each(['failure', 'cancelled', 'timed_out', 'action_required', 'stale'])(
    'a check run concluded %s fails, whatever else passed or runs',
    (conclusion) => {
      const checks = {
        statuses: [],
        runs: [run('ok', 'success'), run('x', conclusion), run('slow')]
      }
      expect(classifyChecks(checks, GITHUB)).toMatchObject({
        state: 'failure',
        failing: [{ name: 'x' }]
      })
    }
  )

  // GitHub REST docs: commit status states are error, failure, pending and success.
  it.each(['failure', 'error'])('a commit status in state %s fails', (state) => {
    const checks = { statuses: [{ context: 'build', state }], runs: [run('ok', 'success')] }
    expect(classifyChecks(checks, GITHUB)).toMatchObject({
      state: 'failure',
      failing: [{ name: 'build' }]
    })
  })

  it('is pending while some still run and none failed: queued, in progress, a pending status', () => {
    for (const checks of [
      { statuses: [], runs: [run('a', 'success'), run('b', undefined, 'queued')] },
      { statuses: [{ context: 'build', state: 'pending' }], runs: [] },
      // A conclusion GitHub may add later is never read as a pass.
      { statuses: [], runs: [run('new', 'something_new')] }
    ]) {
      expect(classifyChecks(checks, GITHUB).state).toBe('pending')
    }
  })

  it("leaves the action's own docs check out, whatever its state", () => {
    const checks = {
      statuses: [
        { context: 'Mintlify docs (proj_1)', state: 'failure' },
        { context: 'Mintlify docs', state: 'pending' }
      ],
      runs: [run('Mintlify docs (proj_1)', 'failure')]
    }
    expect(classifyChecks(checks, GITHUB).state).toBe('success')
    expect(isOwnContext('Mintlify docs build')).toBe(false)
  })

  it('links a check only on this GitHub over https: details first, else its own page', () => {
    const checks: CommitChecks = {
      statuses: [
        { context: 'vercel', state: 'failure', targetUrl: 'https://vercel.example/deploy/1' },
        {
          context: 'actions',
          state: 'error',
          targetUrl: 'https://github.com/acme/docs/actions/runs/9'
        }
      ],
      runs: [
        {
          name: 'build',
          status: 'completed',
          conclusion: 'failure',
          detailsUrl: 'https://ci.example/build/2',
          htmlUrl: 'https://github.com/acme/docs/runs/3'
        },
        {
          name: 'plain',
          status: 'completed',
          conclusion: 'failure',
          detailsUrl: 'http://github.com/x'
        }
      ]
    }
    expect(classifyChecks(checks, GITHUB)).toMatchObject({
      failing: [
        { name: 'vercel' },
        { name: 'actions', url: 'https://github.com/acme/docs/actions/runs/9' },
        { name: 'build', url: 'https://github.com/acme/docs/runs/3' },
        { name: 'plain' }
      ]
    })
    expect(linkOnHost('https://user:pw@github.com/a', GITHUB)).toBeUndefined()
    expect(linkOnHost('https://github.com.evil.test/a', GITHUB)).toBeUndefined()
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

describe('readDocsPushes', () => {
  const within: Within = (call) => call(new AbortController().signal)
  const code = { owner: 'acme', repo: 'app', serverUrl: GITHUB }
  const listed: ListedCommit[] = [
    { sha: 'a'.repeat(40), author: MINTLIFY, date: '2026-05-01T10:01:00Z' }
  ]
  /** A GitHub that answers the two reads, recording which repository and branch were asked. */
  const gitHub = (asked: string[]) =>
    ({
      defaultBranch: async (owner: string, repo: string) => {
        asked.push(`default ${owner}/${repo}`)
        return 'trunk'
      },
      branchCommits: async (owner: string, repo: string, branch: string, since: string) => {
        asked.push(`commits ${owner}/${repo}@${branch} since ${since}`)
        return listed
      }
    }) as unknown as GitHubApi
  const job = (repository: string, ref: string | null) => ({
    createdAt: CREATED,
    source: { repository, ref }
  })

  it('reads the docs repository with docs-token, on the default branch when the job names none', async () => {
    const byWorkflow: string[] = []
    const byDocs: string[] = []
    const readers = { workflow: gitHub(byWorkflow), docs: gitHub(byDocs), agents: AGENTS }
    const read = await readDocsPushes(
      job('https://github.com/acme/docs', null),
      code,
      readers,
      within
    )
    expect(read).toMatchObject({ known: true, branch: 'trunk', commits: [{ sha: 'a'.repeat(40) }] })
    expect(byWorkflow).toEqual([])
    expect(byDocs).toEqual(['default acme/docs', `commits acme/docs@trunk since ${CREATED}`])
  })

  it('reads docs in the code repository with the workflow token, on the branch the job names', async () => {
    const byWorkflow: string[] = []
    const byDocs: string[] = []
    const readers = { workflow: gitHub(byWorkflow), docs: gitHub(byDocs), agents: AGENTS }
    const read = await readDocsPushes(
      job('https://github.com/acme/app', 'main'),
      code,
      readers,
      within
    )
    expect(read).toMatchObject({ known: true, branch: 'main' })
    expect(byWorkflow).toEqual([`commits acme/app@main since ${CREATED}`])
    expect(byDocs).toEqual([])
  })

  it('asks nothing for a repository elsewhere, a branch that is not one, or no creation time', async () => {
    const asked: string[] = []
    const readers = { workflow: gitHub(asked), agents: AGENTS }
    for (const unreadable of [
      job('https://evil.test/acme/docs', 'main'),
      job('https://github.com/acme/docs', 'main\n--x'),
      { ...job('https://github.com/acme/docs', 'main'), createdAt: null }
    ]) {
      expect(await readDocsPushes(unreadable, code, readers, within)).toMatchObject({
        known: false
      })
    }
    expect(asked).toEqual([])
  })
})

describe('readDocsChecks', () => {
  const within: Within = (call) => call(new AbortController().signal)
  const code = { owner: 'acme', repo: 'app', serverUrl: GITHUB }

  it("reads the proven pull request's head only, with the token for its repository", async () => {
    const asked: string[] = []
    const github = {
      commitChecks: async (owner: string, repo: string, sha: string) => {
        asked.push(`${owner}/${repo}@${sha}`)
        return {
          statuses: [],
          runs: [{ name: 'build', status: 'completed', conclusion: 'failure' }]
        }
      }
    } as unknown as GitHubApi
    const docs = agentsPull({ owner: 'acme', repo: 'docs', number: 7 })
    if (!docs.proven) throw new Error('not proven')
    const headless = await readDocsChecks(docs.proven, code, { docs: github }, within)
    expect(headless).toMatchObject({ state: 'unknown' })
    expect(asked).toEqual([])
    const headed = agentsPull({ owner: 'acme', repo: 'docs', number: 7 }, 'open', 'e'.repeat(40))
    if (!headed.proven) throw new Error('not proven')
    expect(await readDocsChecks(headed.proven, code, { docs: github }, within)).toMatchObject({
      state: 'failure',
      failing: [{ name: 'build' }]
    })
    expect(asked).toEqual([`acme/docs@${'e'.repeat(40)}`])
  })
})
