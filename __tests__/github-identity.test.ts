// Whose record counts, with GitHub's answers as GitHub gives them. A GitHub App's account is
// spelled two ways: REST answers and GraphQL's `viewer` (typed `User`) say `github-actions[bot]`,
// while GraphQL fields typed `Actor` or `Bot` (a status's `creator`) say `github-actions` with
// `__typename: "Bot"`. The record the docs check keeps on a branch, and the action's own comments,
// count only when the token's own account wrote them, told by id.
import { afterAll, describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import {
  sameAccount,
  type Account,
  type GitHubApi,
  type History
} from '../src/clients/github/api.js'
import { HistorySchema, IssueCommentSchema, ViewerSchema } from '../src/clients/github/schemas.js'
import {
  findRecord,
  MAX_RECORD_PAGES,
  ownRecord,
  RECORD_PAGE,
  recordSuffix
} from '../src/clients/github/branch-record.js'
import { createGitHubApi } from '../src/clients/github/client.js'
import { writtenBy } from '../src/clients/github/own-comment.js'
import type { Within } from '../src/base/runtime.js'
import { startSimulator } from '../simulator/server.js'

const CONTEXT = 'Mintlify docs (proj)'
const DESCRIPTION = `Docs job running${recordSuffix({ jobId: 'job_1', branch: 'main', since: 'a'.repeat(12) }) ?? ''}`
const SHA = (n: number) => n.toString(16).padStart(40, '0')

/**
 * GraphQL's `viewer` for the workflow token. Source: `viewer` is typed `User`, and for an
 * installation token answers the App's account with `[bot]` and its `databaseId`, as reported
 * from real runs (fullsend-ai/fullsend#1953: `fullsend-ai-coder[bot]`, `databaseId: 278716306`);
 * the id is REST's `GET /users/github-actions[bot]` (`"id": 41898282, "type": "Bot"`).
 */
const WORKFLOW_VIEWER = { login: 'github-actions[bot]', databaseId: 41898282 }

/**
 * A status's `creator` the workflow token wrote, as GraphQL answers it. Source: GitHub's GraphQL
 * reference, object `Bot` ("a special type of user which takes actions on behalf of GitHub
 * Apps"), whose `login` has no `[bot]`; real answers show `{"login": "fullsend-ai-review",
 * "__typename": "Bot"}` (fullsend-ai/fullsend#6205). `Actor` has no `databaseId`: it is asked of
 * `Bot` and `User` in the query.
 */
const WORKFLOW_CREATOR = { __typename: 'Bot', login: 'github-actions', databaseId: 41898282 }

/**
 * A stranger: a user whose login is the App's account without `[bot]`, so GraphQL spells both
 * `github-actions`; only `__typename` and the id tell them apart. Source: as above, a `User`'s
 * login is its own, with its own `databaseId` (GitHub's GraphQL reference, object `User`).
 */
const STRANGER_CREATOR = { __typename: 'User', login: 'github-actions', databaseId: 90001 }

/** A page of GraphQL's history, as GitHub answers the action's query (`data` of the answer). */
function historyAnswer(
  viewer: unknown,
  commits: {
    sha: string
    creator?: unknown
    description?: string
    context?: string
    state?: string
  }[],
  pageInfo: { hasNextPage: boolean; endCursor: string | null } = {
    hasNextPage: false,
    endCursor: null
  }
) {
  return {
    viewer,
    repository: {
      object: {
        history: {
          pageInfo,
          nodes: commits.map((c) => ({
            oid: c.sha,
            status:
              c.creator === undefined
                ? null
                : {
                    contexts: [
                      {
                        context: c.context ?? CONTEXT,
                        description: c.description ?? DESCRIPTION,
                        ...(c.state ? { state: c.state } : {}),
                        creator: c.creator
                      }
                    ]
                  }
          }))
        }
      }
    }
  }
}

const recordOf = (data: unknown) => ownRecord(HistorySchema.parse(data), 'main', CONTEXT)

describe('the branch record, with GitHub’s answers in their real forms', () => {
  it("takes the workflow token's own check: viewer says github-actions[bot], creator github-actions", () => {
    const data = historyAnswer(WORKFLOW_VIEWER, [{ sha: SHA(1), creator: WORKFLOW_CREATOR }])
    expect(recordOf(data)).toEqual({
      jobId: 'job_1',
      branch: 'main',
      since: 'a'.repeat(12),
      told: SHA(1)
    })
  })

  // GraphQL's `StatusState` enum (@octokit/graphql-schema): EXPECTED, ERROR, FAILURE, PENDING,
  // SUCCESS. Only a check that says the job ended well settles the record's commit: after a
  // failure or an error the job is read again, since a new one may be due.
  it.each([
    ['SUCCESS', true],
    ['FAILURE', false],
    ['ERROR', false],
    ['PENDING', false],
    ['EXPECTED', false],
    [undefined, false]
  ])('a check in state %s settles its commit: %s', (state, settled) => {
    const data = historyAnswer(WORKFLOW_VIEWER, [
      { sha: SHA(1), creator: WORKFLOW_CREATOR, ...(state ? { state } : {}) }
    ])
    expect(recordOf(data)?.settled === true).toBe(settled)
  })

  it('reads a Bot creator as the App account it is, with its id', () => {
    const history = HistorySchema.parse(
      historyAnswer(WORKFLOW_VIEWER, [{ sha: SHA(1), creator: WORKFLOW_CREATOR }])
    )
    expect(history.viewer).toEqual({ login: 'github-actions[bot]', id: 41898282, bot: true })
    expect(history.commits[0]?.statuses[0]?.creator).toEqual({
      login: 'github-actions',
      id: 41898282,
      bot: true
    })
  })

  it('takes a personal token’s own check: a User is spelled alike in viewer and creator', () => {
    // Source: GitHub's GraphQL reference, object `User`; `GET /users/octocat` answers id 583231.
    const viewer = { login: 'octocat', databaseId: 583231 }
    const creator = { __typename: 'User', login: 'octocat', databaseId: 583231 }
    expect(recordOf(historyAnswer(viewer, [{ sha: SHA(1), creator }]))?.jobId).toBe('job_1')
  })

  it('takes a GitHub App token’s own check: viewer mintlify-docs[bot], creator mintlify-docs', () => {
    // Source: as for the workflow token; an App's installation token is `<slug>[bot]` in viewer.
    const viewer = { login: 'mintlify-docs[bot]', databaseId: 7654321 }
    const creator = { __typename: 'Bot', login: 'mintlify-docs', databaseId: 7654321 }
    expect(recordOf(historyAnswer(viewer, [{ sha: SHA(1), creator }]))?.jobId).toBe('job_1')
  })

  it("is not fooled by a stranger's check whose login differs only by [bot]: the id differs", () => {
    const data = historyAnswer(WORKFLOW_VIEWER, [{ sha: SHA(1), creator: STRANGER_CREATOR }])
    expect(recordOf(data)).toBeUndefined()
    // Nor when the token is a user's and the stranger the App account of the same name.
    const viewer = { login: 'docs-bot', databaseId: 5001 }
    const creator = { __typename: 'Bot', login: 'docs-bot', databaseId: 5002 }
    expect(recordOf(historyAnswer(viewer, [{ sha: SHA(1), creator }]))).toBeUndefined()
  })

  it("a stranger's newer check hides nothing older: the token's own record further back is found", () => {
    const data = historyAnswer(WORKFLOW_VIEWER, [
      {
        sha: SHA(3),
        creator: STRANGER_CREATOR,
        description: DESCRIPTION.replace('job_1', 'job_x')
      },
      { sha: SHA(2) },
      { sha: SHA(1), creator: WORKFLOW_CREATOR }
    ])
    expect(recordOf(data)).toMatchObject({ jobId: 'job_1', told: SHA(1) })
  })

  it('without ids, logins compare in either spelling, and an App account is no user', () => {
    const app = (login: string): Account => ({ login, bot: true })
    const user = (login: string): Account => ({ login, bot: false })
    expect(sameAccount(app('github-actions[bot]'), app('github-actions'))).toBe(true)
    expect(sameAccount(app('GitHub-Actions[bot]'), { login: 'github-actions' })).toBe(true)
    expect(sameAccount(app('github-actions[bot]'), user('github-actions'))).toBe(false)
    expect(sameAccount(user('octocat'), user('OctoCat'))).toBe(true)
    expect(sameAccount(user('octocat'), user('hubot'))).toBe(false)
    // With ids, only the ids count.
    expect(sameAccount({ login: 'a', id: 1 }, { login: 'b', id: 1 })).toBe(true)
    expect(sameAccount({ login: 'a', id: 1 }, { login: 'a', id: 2 })).toBe(false)
  })
})

describe('the action’s own comments, with REST’s answers', () => {
  // Source: REST's issue comment `user` (`@octokit/openapi`, "simple-user") with `id` and
  // `type`; `GET /users/github-actions[bot]` answers `"id": 41898282, "type": "Bot"`.
  const comment = (user: unknown) => IssueCommentSchema.parse({ id: 1, body: 'x', user })
  const viewer = ViewerSchema.parse({ viewer: WORKFLOW_VIEWER }).viewer

  it('counts a comment written by the token’s account, by id', () => {
    const own = comment({ login: 'github-actions[bot]', id: 41898282, type: 'Bot' })
    expect(writtenBy(own, viewer)).toBe(true)
  })

  it('does not count a user named like the App account without [bot]', () => {
    const stranger = comment({ login: 'github-actions', id: 90001, type: 'User' })
    expect(writtenBy(stranger, viewer)).toBe(false)
  })
})

/** A login in any of its spellings: with or without `[bot]`, in any case. */
const spelling = (name: string) =>
  fc
    .tuple(fc.boolean(), fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length }))
    .map(([suffix, upper]) => {
      const cased = [...name].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch)).join('')
      return suffix ? `${cased}[bot]` : cased
    })

describe('a record counts iff its creator is the token’s account', () => {
  it('whatever the login spelling, a status counts iff its creator id equals the viewer id', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/).chain((name) =>
          fc.record({
            viewerLogin: spelling(name),
            creatorLogin: spelling(name),
            viewerId: fc.integer({ min: 1, max: 2 ** 31 }),
            otherId: fc.integer({ min: 1, max: 2 ** 31 }),
            same: fc.boolean(),
            typename: fc.constantFrom('Bot', 'User', 'Mannequin', 'Organization')
          })
        ),
        ({ viewerLogin, creatorLogin, viewerId, otherId, same, typename }) => {
          const creatorId = same ? viewerId : otherId
          const data = historyAnswer({ login: viewerLogin, databaseId: viewerId }, [
            {
              sha: SHA(1),
              creator: { __typename: typename, login: creatorLogin, databaseId: creatorId }
            }
          ])
          expect(recordOf(data) !== undefined).toBe(creatorId === viewerId)
          const rest = IssueCommentSchema.parse({
            id: 1,
            body: '',
            user: { login: creatorLogin, id: creatorId, type: typename }
          })
          const viewer = ViewerSchema.parse({
            viewer: { login: viewerLogin, databaseId: viewerId }
          }).viewer
          expect(writtenBy(rest, viewer)).toBe(creatorId === viewerId)
        }
      )
    )
  })
})

/** A fake history of `length` commits (newest first), the record on the commit at `at`. */
function pagedHistory(length: number, at: number | undefined) {
  const calls: (string | undefined)[] = []
  const viewer: Account = { login: 'github-actions[bot]', id: 41898282, bot: true }
  const github: Pick<GitHubApi, 'history'> = {
    history(_owner, _repo, _sha, count, after) {
      calls.push(after)
      const from = after === undefined ? 0 : Number(after.replace('cursor ', '')) + 1
      const commits = Array.from(
        { length: Math.max(0, Math.min(count, length - from)) },
        (_, i) => {
          const n = from + i
          const own = n === at
          return {
            sha: SHA(n + 1),
            statuses: [
              {
                context: CONTEXT,
                description: own ? DESCRIPTION : 'Docs job done',
                creator: own ? { login: 'github-actions', id: 41898282, bot: true } : viewer
              }
            ]
          }
        }
      )
      const end = from + commits.length
      const page: History = {
        viewer,
        commits,
        ...(end < length ? { next: `cursor ${end - 1}` } : {})
      }
      return Promise.resolve(page)
    }
  }
  return { github, calls }
}

const WHERE = { owner: 'o', repo: 'r', sha: SHA(1), branch: 'main', context: CONTEXT }
const freely: Within = (call) => call(new AbortController().signal)
function logger() {
  const lines = { info: [] as string[], warning: [] as string[] }
  return {
    lines,
    log: {
      info: (m: string) => void lines.info.push(m),
      warning: (m: string) => void lines.warning.push(m)
    }
  }
}

describe('finding the record however many commits landed since', () => {
  it('pages back through the history by cursor until the record', async () => {
    const { github, calls } = pagedHistory(1000, 250)
    const { log, lines } = logger()
    expect(await findRecord(github, WHERE, freely, log)).toMatchObject({ told: SHA(251) })
    expect(calls).toEqual([undefined, 'cursor 99', 'cursor 199'])
    expect(lines).toEqual({ info: [], warning: [] })
  })

  it('a record anywhere in the last pages is found, in as many requests as pages up to it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1300 }),
        fc.option(fc.nat({ max: 1299 }), { nil: undefined }),
        async (length, at) => {
          const { github, calls } = pagedHistory(length, at)
          const record = await findRecord(github, WHERE, freely, logger().log)
          const reachable = at !== undefined && at < length && at < RECORD_PAGE * MAX_RECORD_PAGES
          expect(record?.told).toBe(reachable ? SHA(at + 1) : undefined)
          const pages = reachable
            ? Math.floor(at / RECORD_PAGE) + 1
            : Math.min(MAX_RECORD_PAGES, Math.ceil(length / RECORD_PAGE))
          expect(calls).toHaveLength(pages)
        }
      )
    )
  })

  it('stops at the page cap and says so once', async () => {
    const { github, calls } = pagedHistory(5000, 4000)
    const { log, lines } = logger()
    expect(await findRecord(github, WHERE, freely, log)).toBeUndefined()
    expect(calls).toHaveLength(MAX_RECORD_PAGES)
    expect(lines.warning).toEqual([])
    expect(lines.info).toEqual([
      'No docs check of this action was found on the last 1000 commits of main; older ones are ' +
        'not searched, so this run joins no earlier docs job.'
    ])
  })

  it('stops paging when the read budget runs out, and says so once', async () => {
    const { github, calls } = pagedHistory(1000, 500)
    const { log, lines } = logger()
    let left = 2
    // The budget's end: every call after it is aborted, as `withinTime` aborts it.
    const within: Within = (call) =>
      left-- > 0
        ? call(new AbortController().signal)
        : Promise.reject(new DOMException('This operation was aborted', 'AbortError'))
    expect(await findRecord(github, WHERE, within, log)).toBeUndefined()
    expect(calls).toHaveLength(2)
    expect(lines.info).toEqual([])
    expect(lines.warning).toEqual([
      'No docs check of this action was found on the last 200 commits of main, and older ones ' +
        'could not be searched (GitHub did not answer in time), so this run joins no earlier ' +
        'docs job.'
    ])
  })

  it('throws what GitHub threw for the first page, for the caller to report', async () => {
    const refused = Object.assign(new Error('Forbidden'), { status: 403, response: {} })
    const github: Pick<GitHubApi, 'history'> = { history: () => Promise.reject(refused) }
    const { log, lines } = logger()
    await expect(findRecord(github, WHERE, freely, log)).rejects.toBe(refused)
    expect(lines).toEqual({ info: [], warning: [] })
  })
})

const sim = await startSimulator()
afterAll(() => sim.close())

describe('against the fake GitHub, which answers in GitHub’s forms', () => {
  const REPO = { owner: 'Codertocat', repo: 'Hello-World' }
  const WORKFLOW = 'ghs_identity_workflow'
  const STRANGER = 'ghp_identity_stranger'
  const shas = Array.from({ length: 260 }, (_, n) => SHA(n + 1))
  sim.setScenario({
    github: {
      tokens: {
        workflow: { token: WORKFLOW },
        // A user whose login is the workflow token's App account without `[bot]`.
        stranger: { token: STRANGER, user: 'github-actions' }
      },
      history: shas
    }
  })
  const api = createGitHubApi({
    token: WORKFLOW,
    baseUrl: sim.url,
    userAgent: 'mintlify-agent-action/test',
    deadline: () => Date.now() + 60_000
  })
  const status = (token: string, sha: string, description: string) =>
    fetch(`${sim.url}/repos/Codertocat/Hello-World/statuses/${sha}`, {
      method: 'POST',
      headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'success', context: CONTEXT, description })
    }).then((res) => expect(res.status).toBe(201))

  it('finds the token’s own record 230 commits back, past a stranger’s newer one', async () => {
    const head = shas.at(-1) ?? ''
    await status(WORKFLOW, shas[29] ?? '', DESCRIPTION)
    // Newer, and naming another job: written by `github-actions`, a user, not the App account.
    await status(STRANGER, shas[200] ?? '', DESCRIPTION.replace('job_1', 'job_forged'))
    const seen = sim.github.requests.length
    const { log, lines } = logger()
    const record = await findRecord(api, { ...WHERE, ...REPO, sha: head }, freely, log)
    expect(record).toMatchObject({ jobId: 'job_1', told: shas[29] })
    const pages = sim.github.requests.slice(seen).filter((r) => r.kind === 'graphql')
    expect(pages).toHaveLength(3)
    expect(lines).toEqual({ info: [], warning: [] })
  })

  it('spells the App account as GitHub does: [bot] in viewer, none in creator, one id', async () => {
    const page = await api.history(
      'Codertocat',
      'Hello-World',
      shas[29] ?? '',
      1,
      undefined,
      new AbortController().signal
    )
    expect(page.viewer).toEqual({ login: 'github-actions[bot]', id: 41898282, bot: true })
    expect(page.commits[0]?.statuses[0]?.creator).toEqual({
      login: 'github-actions',
      id: 41898282,
      bot: true
    })
  })
})
