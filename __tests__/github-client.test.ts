import { afterAll, beforeEach, describe, expect, it } from '@jest/globals'
import type { GitHubApi } from '../src/clients/github/api.js'
import type { GitHubOptions } from '../src/clients/github/client.js'
import { addSecret, clearSecrets } from '../src/base/secrets/redact.js'
import { base64, leakedForms } from '../__fixtures__/secret-forms.js'
import {
  startSimulator,
  type RecordedRequest,
  type Simulator,
  type SimulatorOptions
} from '../simulator/server.js'

const OWNER = 'Codertocat'
const REPO = 'Hello-World'
const BASE = 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e'
const HEAD = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821'
const INITIAL = '6113728f27ae82c7b1a177c8d03f9e96e0adf246'
const WEB = 'https://github.com/Codertocat/Hello-World'
const TOKEN = 'ghs_octokit_test'
const USER_AGENT = 'mintlify-agent-action/test'

// `@actions/github` reads GITHUB_API_URL once, when it is first imported, so the simulator starts
// and the variable is set before the module under test is loaded; each test then sets the
// simulator's knobs afresh.
const savedApiUrl = process.env.GITHUB_API_URL
const sim: Simulator = await startSimulator()
process.env.GITHUB_API_URL = sim.url
const { createGitHubApi } = await import('../src/clients/github/client.js')
const { describeGitHubError } = await import('../src/clients/github/api.js')

/** Requests the simulator received before the current test. */
let seen = 0

beforeEach(() => {
  seen = sim.requests.length
  clearSecrets()
})

afterAll(async () => {
  if (savedApiUrl === undefined) delete process.env.GITHUB_API_URL
  else process.env.GITHUB_API_URL = savedApiUrl
  await sim.close()
})

/** The real API client, against the simulator with `scenario`'s knobs and no others. */
function github(
  scenario: NonNullable<SimulatorOptions['scenario']> = {},
  more: Partial<GitHubOptions> = {}
): { api: GitHubApi; s: Simulator } {
  sim.setScenario({
    github: { token: null, files: null, missingCommits: [] },
    githubFaults: { compare: [], commit: [], pullFiles: [] }
  })
  sim.setScenario(scenario)
  const api = createGitHubApi({
    token: TOKEN,
    userAgent: USER_AGENT,
    deadline: () => Date.now() + 60_000,
    ...more
  })
  return { api, s: sim }
}

/** The GitHub requests the simulator received. */
function received(s: Simulator): RecordedRequest[] {
  return s.requests.slice(seen).filter((r) => r.path.includes('/repos/'))
}

function signal(): AbortSignal {
  return new AbortController().signal
}

/** The rejection of `promise`, which must reject. */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error: unknown) {
    return error
  }
  throw new Error('expected the call to fail')
}

function fileList(count: number): { filename: string; patch: string }[] {
  return Array.from({ length: count }, (_, i) => ({
    filename: `docs/page-${String(i).padStart(3, '0')}.md`,
    patch: `@@ -1 +1 @@\n-old ${i}\n+new ${i}`
  }))
}

const secondaryLimit = (retryAfter: string) => ({
  status: 403,
  headers: { 'content-type': 'application/json; charset=utf-8', 'retry-after': retryAfter },
  body: JSON.stringify({
    message:
      'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
    documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api'
  })
})

describe('createGitHubApi: reading', () => {
  it('compares two commits at GITHUB_API_URL, with the token and user agent', async () => {
    const { api, s } = github()
    const comparison = await api.compare(OWNER, REPO, BASE, HEAD, signal())

    expect(comparison.url).toBe(`${WEB}/compare/${BASE}...${HEAD}`)
    expect(comparison.commits).toEqual([
      expect.objectContaining({
        sha: HEAD,
        message: expect.stringMatching(/^Add a --dry-run flag to deploy\n\nLists the files/),
        author: 'Codertocat'
      })
    ])
    expect(comparison.files.map((f) => [f.path, f.status, f.patch !== undefined])).toEqual([
      ['src/commands/deploy.ts', 'modified', true],
      ['src/commands/deploy.test.ts', 'added', true],
      ['package-lock.json', 'modified', false],
      ['dist/index.js', 'modified', true],
      ['docs/images/dry-run.png', 'added', false],
      ['docs/deploy.md', 'modified', true]
    ])
    expect(comparison.files[2]).toEqual({
      path: 'package-lock.json',
      previousPath: undefined,
      status: 'modified',
      additions: 1480,
      deletions: 1312,
      patch: undefined
    })
    expect(comparison.files[5]?.patch).toContain('+## Dry run')

    const requests = received(s)
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /repos/${OWNER}/${REPO}/compare/${BASE}...${HEAD}`
    ])
    expect(requests[0]?.headers.authorization).toBe(`token ${TOKEN}`)
    expect(requests[0]?.headers['user-agent']).toMatch(/^mintlify-agent-action\/test/)
  })

  it('reads a renamed file by both names', async () => {
    const { api } = github({
      github: {
        files: [
          {
            filename: 'docs/guide.md',
            previous_filename: 'docs/old-guide.md',
            status: 'renamed',
            patch: '@@ -1 +1 @@\n-a\n+b'
          }
        ]
      }
    })
    const { files } = await api.compare(OWNER, REPO, BASE, HEAD, signal())
    expect(files).toEqual([
      {
        path: 'docs/guide.md',
        previousPath: 'docs/old-guide.md',
        status: 'renamed',
        additions: 1,
        deletions: 1,
        patch: '@@ -1 +1 @@\n-a\n+b'
      }
    ])
  })

  it('reads one commit with its files', async () => {
    const { api, s } = github()
    const commit = await api.commit(OWNER, REPO, INITIAL, signal())
    expect(commit).toEqual({
      url: `${WEB}/commit/${INITIAL}`,
      commits: [{ sha: INITIAL, message: 'Initial commit', author: 'Codertocat' }],
      files: [
        {
          path: 'README.md',
          previousPath: undefined,
          status: 'added',
          additions: 1,
          deletions: 0,
          patch: '@@ -0,0 +1 @@\n+# Hello-World'
        }
      ]
    })
    expect(received(s).map((r) => r.path)).toEqual([`/repos/${OWNER}/${REPO}/commits/${INITIAL}`])
  })

  it('lists the files of a pull request in one page when there are few', async () => {
    const { api, s } = github()
    const result = await api.pullFiles(OWNER, REPO, 2, 300, signal())
    expect(result.files).toHaveLength(6)
    expect(result).toMatchObject({ complete: true, pages: 1 })
    expect(received(s).map((r) => r.path)).toEqual([
      `/repos/${OWNER}/${REPO}/pulls/2/files?per_page=100&page=1`
    ])
  })

  it.each<[number, number, number, boolean, number]>([
    // files in the pull request, most asked for, files read, complete, pages
    [0, 300, 0, true, 1],
    [99, 300, 99, true, 1],
    [100, 300, 100, true, 1],
    [200, 300, 200, true, 2],
    [250, 300, 250, true, 3],
    [300, 300, 300, true, 3],
    [350, 300, 300, false, 3],
    [350, 150, 150, false, 2]
  ])(
    'pages %i pull request files 100 at a time, up to %i',
    async (count, max, read, complete, pages) => {
      const { api, s } = github({ github: { files: fileList(count) } })
      const result = await api.pullFiles(OWNER, REPO, 2, max, signal())
      expect(result.files.map((f) => f.path)).toEqual(
        fileList(count)
          .slice(0, read)
          .map((f) => f.filename)
      )
      expect(result.complete).toBe(complete)
      expect(result.pages).toBe(pages)
      expect(received(s).map((r) => new URL(r.path, s.url).searchParams.get('page'))).toEqual(
        Array.from({ length: pages }, (_, i) => String(i + 1))
      )
    }
  )
})

describe('createGitHubApi: failures', () => {
  it('rejects a comparison GitHub cannot find, once, as a permission problem', async () => {
    const { api, s } = github({ github: { missingCommits: [BASE] } })
    const error = await failure(api.compare(OWNER, REPO, BASE, HEAD, signal()))
    expect(error).toMatchObject({ status: 404 })
    expect(describeGitHubError(error, 'contents: read')).toContain(
      'GitHub refused (HTTP 404): github-token needs the `contents: read` permission'
    )
    expect(received(s)).toHaveLength(1)
  })

  it('rejects a token GitHub does not accept, without retrying', async () => {
    const { api, s } = github({ github: { token: 'ghs_someone_else' } })
    const error = await failure(api.pullFiles(OWNER, REPO, 2, 300, signal()))
    expect(describeGitHubError(error, 'pull-requests: read')).toBe(
      'github-token was not accepted (HTTP 401)'
    )
    expect(received(s)).toHaveLength(1)
  })

  it('quotes what GitHub said about an unknown commit', async () => {
    const { api } = github({ github: { missingCommits: [HEAD] } })
    const error = await failure(api.commit(OWNER, REPO, HEAD, signal()))
    expect(describeGitHubError(error, 'contents: read')).toMatch(
      new RegExp(`^GitHub refused the request \\(HTTP 422\\): No commit found for SHA: ${HEAD}`)
    )
  })

  it('rejects a comparison whose answer is cut off', async () => {
    const { api } = github({ githubFaults: { compare: [{ action: 'truncate' }] } })
    const error = await failure(api.compare(OWNER, REPO, BASE, HEAD, signal()))
    const described = describeGitHubError(error, 'contents: read')
    expect(described).toMatch(/^GitHub could not be read: /)
    expect(described).not.toContain('\n')
  })

  // Bug: pullFiles in src/clients/github/client.ts reads an answer that is not an array
  // (`Array.isArray(data) ? data : []`) as an empty last page, so a garbled answer becomes
  // "no files, complete", and `paths` would then skip the job.
  it('does not read a cut-off page of pull request files as the last page', async () => {
    const { api } = github({ githubFaults: { pullFiles: [{ action: 'truncate' }] } })
    const result = await api.pullFiles(OWNER, REPO, 2, 300, signal()).catch(() => undefined)
    // Either the call fails, or it does not claim to have read every file.
    expect(result?.complete ?? false).toBe(false)
  })

  // How Octokit reports an abort is not tested here through the real client: Jest runs tests in
  // a VM context, where Node's DOMException fails Octokit's `instanceof Error` check, so an abort
  // turns into a retried HTTP 500 that a real run never sees. describeGitHubError's handling of
  // AbortError and TimeoutError is tested below; readChange's in github-change.test.ts.

  it('repeats a request GitHub answered with 500', async () => {
    const { api, s } = github({ githubFaults: { commit: [{ status: 500 }] } })
    const commit = await api.commit(OWNER, REPO, INITIAL, signal())
    expect(commit.commits[0]?.message).toBe('Initial commit')
    expect(received(s)).toHaveLength(2)
  })

  it('waits out a secondary rate limit once, when the wait ends before the deadline', async () => {
    const { api, s } = github({ githubFaults: { compare: [secondaryLimit('1')] } })
    const comparison = await api.compare(OWNER, REPO, BASE, HEAD, signal())
    expect(comparison.files).toHaveLength(6)
    expect(received(s)).toHaveLength(2)
  })

  it('does not wait out a second rate limit', async () => {
    const { api, s } = github({
      githubFaults: { compare: [secondaryLimit('1'), secondaryLimit('1')] }
    })
    const error = await failure(api.compare(OWNER, REPO, BASE, HEAD, signal()))
    expect(error).toMatchObject({ status: 403 })
    expect(received(s)).toHaveLength(2)
  })

  it('does not wait for a rate limit that ends after the deadline', async () => {
    const start = Date.now()
    const { api, s } = github(
      { githubFaults: { pullFiles: [secondaryLimit('60')] } },
      { deadline: () => start + 30_000 }
    )
    const error = await failure(api.pullFiles(OWNER, REPO, 2, 300, signal()))
    expect(error).toMatchObject({ status: 403 })
    expect(received(s)).toHaveLength(1)
    expect(Date.now() - start).toBeLessThan(5_000)
  })

  // Bug: describeGitHubError in src/clients/github/api.ts reads every 403 as a missing permission,
  // but GitHub also answers 403 for rate limits; the warning then asks for a permission the
  // token already has.
  it('does not blame a permission for a rate limit answered with 403', async () => {
    const start = Date.now()
    const { api } = github(
      { githubFaults: { compare: [secondaryLimit('60')] } },
      { deadline: () => start + 30_000 }
    )
    const error = await failure(api.compare(OWNER, REPO, BASE, HEAD, signal()))
    const described = describeGitHubError(error, 'contents: read')
    expect(described).not.toContain('permission')
    expect(described).toMatch(/rate/)
  })
})

describe('describeGitHubError', () => {
  const status = (code: number) =>
    Object.assign(new Error('x'), { name: 'HttpError', status: code, response: { headers: {} } })

  it.each<[unknown, string]>([
    [status(401), 'github-token was not accepted (HTTP 401)'],
    [status(429), 'GitHub rate-limited github-token (HTTP 429)'],
    [status(500), 'GitHub answered HTTP 500'],
    [status(502), 'GitHub answered HTTP 502'],
    [new DOMException('aborted', 'AbortError'), 'GitHub did not answer in time'],
    [new DOMException('timed out', 'TimeoutError'), 'GitHub did not answer in time'],
    [
      Object.assign(new Error('Bad'), { status: 422, response: {} }),
      'GitHub refused the request (HTTP 422): Bad'
    ],
    [
      Object.assign(new Error('fetch failed'), { name: 'HttpError', status: 500 }),
      'GitHub could not be reached: fetch failed'
    ],
    [new Error('socket hang up'), 'GitHub could not be read: socket hang up'],
    ['plain text', 'GitHub could not be read: plain text'],
    [undefined, 'GitHub could not be read: undefined'],
    [{ status: '404' }, 'GitHub could not be read: {"status":"404"}']
  ])('describes %p', (error, expected) => {
    expect(describeGitHubError(error, 'contents: read')).toBe(expected)
  })

  it.each([403, 404])('names the permission for %i', (code) => {
    expect(describeGitHubError(status(code), 'pull-requests: read')).toBe(
      `GitHub refused (HTTP ${code}): github-token needs the \`pull-requests: read\` ` +
        'permission (list it under `permissions:` in the workflow), or the repository is ' +
        'private to it, as a fork can be'
    )
  })

  it('quotes an unknown error on one line, cut, without the API key', () => {
    const key = 'mint_octokit_test_key_1'
    addSecret(key)
    const described = describeGitHubError(
      new Error(`first line\n::error::${key} ${'x'.repeat(500)}`),
      'contents: read'
    )
    expect(described).not.toContain(key)
    expect(described).not.toContain('\n')
    expect(described.length).toBeLessThan(300)
  })
})

describe('createGitHubApi: the docs pull request', () => {
  const DOCS_PULL = 'acme/docs#7'

  it('reads a pull request’s state, author, labels and requested reviews', async () => {
    const { api } = github({
      github: {
        pulls: {
          [DOCS_PULL]: {
            user: 'mintlify[bot]',
            labels: ['docs'],
            requested_reviewers: ['octocat'],
            requested_teams: ['writers']
          }
        }
      }
    })
    expect(await api.getPull('acme', 'docs', 7, signal())).toEqual({
      number: 7,
      headSha: expect.stringMatching(/^[0-9a-f]{40}$/) as unknown as string,
      headRef: 'patch-7',
      state: 'open',
      merged: false,
      author: 'mintlify[bot]',
      // The id GitHub gives mintlify[bot] (the simulator answers as GitHub's users API does).
      authorId: 109931778,
      url: 'https://github.com/acme/docs/pull/7',
      labels: ['docs'],
      reviewers: ['octocat'],
      teams: ['writers']
    })
  })

  it('closes it, asks for reviews by login and team slug, and adds labels', async () => {
    const { api, s } = github({ github: { pulls: { [DOCS_PULL]: { user: 'mona' } } } })
    expect((await api.closePull('acme', 'docs', 7, signal())).state).toBe('closed')
    await api.requestReviewers(
      'acme',
      'docs',
      7,
      { users: ['octocat'], teams: ['writers'] },
      signal()
    )
    await api.addLabels('acme', 'docs', 7, ['documentation'], signal())
    const pull = s.github.pulls.get(DOCS_PULL)
    expect(pull).toMatchObject({
      state: 'closed',
      reviewers: ['octocat'],
      teams: ['writers'],
      labels: ['documentation']
    })
  })

  it('reports a reviewer GitHub will not ask as an invalid request, sent once', async () => {
    const { api } = github({ github: { nonCollaborators: ['stranger'] } })
    const error = await failure(
      api.requestReviewers('acme', 'docs', 7, { users: ['stranger'], teams: [] }, signal())
    )
    expect(error).toMatchObject({ status: 422 })
    expect(received(sim).filter((r) => r.path.endsWith('/requested_reviewers'))).toHaveLength(1)
  })
})

describe('viewer', () => {
  it('asks GitHub who the token is once, and knows it from a history request too', async () => {
    const { api, s } = github()
    const graphql = () => s.requests.slice(seen).filter((r) => r.path.endsWith('/graphql'))
    // `viewer` is typed User: an installation token keeps `[bot]`, with the App account's id.
    const bot = { login: 'github-actions[bot]', id: 41898282, bot: true }
    expect(await api.viewer(signal())).toEqual(bot)
    expect(await api.viewer(signal())).toEqual(bot)
    expect(graphql()).toHaveLength(1)

    const other = github().api
    await other.history(OWNER, REPO, HEAD, 5, undefined, signal())
    expect(await other.viewer(signal())).toEqual(bot)
    expect(graphql()).toHaveLength(2)
  })
})

describe('createGitHubApi: no secret reaches GitHub', () => {
  const KEY = 'mint_octokit_hook_key_0123456789'

  it('redacts a status context, description and target URL, a comment body and labels', async () => {
    addSecret(KEY)
    addSecret(TOKEN)
    const { api, s } = github()
    await api.createStatus(
      OWNER,
      REPO,
      HEAD,
      {
        state: 'success',
        context: `docs ${KEY}`,
        description: `echoed ${base64(`Bearer ${KEY}`)}`,
        targetUrl: `https://bot:hunter2@example.com/run?k=${encodeURIComponent(KEY)}`
      },
      signal()
    )
    const comment = await api.createComment(
      OWNER,
      REPO,
      2,
      `The API said: ${base64(KEY)} and ${KEY}`,
      signal()
    )
    await api.updateComment(OWNER, REPO, comment.id, `Now ${KEY}`, signal())
    await api.addLabels('acme', 'docs', 7, [KEY, 'docs'], signal())

    const writes = received(s).filter((r) => r.method !== 'GET')
    expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /repos/${OWNER}/${REPO}/statuses/${HEAD}`,
      `POST /repos/${OWNER}/${REPO}/issues/2/comments`,
      `PATCH /repos/${OWNER}/${REPO}/issues/comments/${comment.id}`,
      'POST /repos/acme/docs/issues/7/labels'
    ])
    for (const request of writes) {
      const sent = `${request.path} ${request.body}`
      expect(leakedForms(sent, KEY)).toEqual([])
      expect(sent).not.toContain('hunter2')
      // The token still authenticates the request: only what is published is redacted.
      expect(request.headers.authorization).toBe(`token ${TOKEN}`)
    }
    expect(JSON.parse(writes[0]?.body ?? '')).toMatchObject({
      context: 'docs ***',
      target_url: expect.stringMatching(/^https:\/\/\*\*\*@example\.com\/run\?k=\*\*\*$/)
    })
    expect(JSON.parse(writes[1]?.body ?? '')).toEqual({
      body: expect.stringMatching(/^The API said: \*\*\*=* and \*\*\*$/)
    })
    expect(JSON.parse(writes[3]?.body ?? '')).toEqual({ labels: ['***', 'docs'] })
  })

  it('redacts a secret in the path of a read too', async () => {
    addSecret(KEY)
    const { api, s } = github()
    await api.commit(OWNER, REPO, KEY, signal()).catch(() => undefined)
    await api.compare(OWNER, REPO, BASE, KEY, signal()).catch(() => undefined)
    const sent = received(s)
    expect(sent).toHaveLength(2)
    for (const request of sent) expect(request.path).not.toContain(KEY)
    expect(sent[0]?.path).toBe(`/repos/${OWNER}/${REPO}/commits/%2A%2A%2A`)
  })

  it('sends text without secrets as it is', async () => {
    addSecret(KEY)
    const { api, s } = github()
    const body = 'Docs updated: https://github.com/acme/docs/pull/7 by @octocat, `code` & <b>'
    await api.createComment(OWNER, REPO, 2, body, signal())
    expect(JSON.parse(received(s).at(-1)?.body ?? '')).toEqual({ body })
  })
})
