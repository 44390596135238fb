import { afterEach, describe, expect, it } from '@jest/globals'
import { getOctokit } from '@actions/github'
import { startSimulator, type Simulator, type SimulatorOptions } from '../simulator/server.js'

const TOKEN = { authorization: 'token ghs_simulated' }
const REPO = '/repos/Codertocat/Hello-World'
const WEB = 'https://github.com/Codertocat/Hello-World'
const BASE = 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e'
const HEAD = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821'
const INITIAL = '6113728f27ae82c7b1a177c8d03f9e96e0adf246'
const ZERO = '0'.repeat(40)
const START = Date.parse('2030-01-02T03:04:05.000Z')

type Json = Record<string, unknown>
type FileEntry = { filename: string; status: string; patch?: string; [key: string]: unknown }

let sim: Simulator | undefined

afterEach(async () => {
  await sim?.close()
  sim = undefined
})

async function start(options: SimulatorOptions = {}): Promise<Simulator> {
  sim = await startSimulator({ now: () => START, ...options })
  return sim
}

function call(s: Simulator, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = { ...TOKEN, ...(init.headers as Record<string, string> | undefined) }
  return fetch(s.url + path, { ...init, headers })
}

async function ok<T = Json>(s: Simulator, path: string, init: RequestInit = {}): Promise<T> {
  const res = await call(s, path, init)
  expect([path, res.status]).toEqual([path, init.method === 'POST' ? 201 : 200])
  return (await res.json()) as T
}

function send(s: Simulator, method: string, path: string, body: unknown): Promise<Response> {
  return call(s, path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body)
  })
}

function files(count: number, prefix = 'f'): { filename: string }[] {
  return Array.from({ length: count }, (_, i) => ({ filename: `${prefix}${i}.txt` }))
}

/** The page numbers a Link header names, by relation. */
function links(header: string | null): Record<string, string> {
  const found: Record<string, string> = {}
  for (const part of (header ?? '').split(', ').filter(Boolean)) {
    const match = /^<([^>]+)>; rel="(\w+)"$/.exec(part)
    expect(match).not.toBeNull()
    if (match?.[1] && match[2]) found[match[2]] = match[1]
  }
  return found
}

/** Every hunk header's line counts agree with the lines under it. */
function checkHunks(patch: string): void {
  const lines = patch.split('\n')
  let oldLeft = 0
  let newLeft = 0
  for (const line of lines) {
    const header = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line)
    if (header) {
      expect([oldLeft, newLeft]).toEqual([0, 0])
      oldLeft = Number(header[1] ?? 1)
      newLeft = Number(header[2] ?? 1)
      continue
    }
    if (!line.startsWith('+')) oldLeft -= 1
    if (!line.startsWith('-')) newLeft -= 1
  }
  expect([oldLeft, newLeft]).toEqual([0, 0])
}

describe('compare', () => {
  it('shows the built-in change between two commits in GitHub shape', async () => {
    const s = await start()
    const res = await call(s, `${REPO}/compare/${BASE}...${HEAD}`)

    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('x-github-request-id')).toMatch(/^[0-9A-F]+(:[0-9A-F]+){4}$/)
    expect(res.headers.get('x-request-id')).toBeNull()
    expect(res.headers.get('x-ratelimit-remaining')).toBe('999')
    expect(res.headers.get('link')).toBeNull()
    const body = (await res.json()) as Json & { commits: Json[]; files: FileEntry[] }
    expect(body).toMatchObject({
      url: `${s.url}${REPO}/compare/${BASE}...${HEAD}`,
      html_url: `https://github.com/Codertocat/Hello-World/compare/${BASE}...${HEAD}`,
      permalink_url:
        'https://github.com/Codertocat/Hello-World/compare/Codertocat:f95f852...Codertocat:ec26c3e',
      status: 'ahead',
      ahead_by: 1,
      behind_by: 0,
      total_commits: 1,
      base_commit: { sha: BASE },
      merge_base_commit: { sha: BASE }
    })
    expect(body.commits).toEqual([
      expect.objectContaining({
        sha: HEAD,
        html_url: `https://github.com/Codertocat/Hello-World/commit/${HEAD}`,
        commit: expect.objectContaining({
          message: expect.stringMatching(/^Add a --dry-run flag to deploy\n\n/),
          author: {
            name: 'Codertocat',
            email: '21031067+Codertocat@users.noreply.github.com',
            date: '2019-05-15T15:20:30Z'
          }
        }),
        author: expect.objectContaining({ login: 'Codertocat', id: 21031067, type: 'User' }),
        parents: [expect.objectContaining({ sha: BASE })]
      })
    ])
    expect(body.commits[0]).not.toHaveProperty('files')

    const byName = Object.fromEntries(body.files.map((file) => [file.filename, file]))
    expect(Object.keys(byName)).toEqual([
      'src/commands/deploy.ts',
      'src/commands/deploy.test.ts',
      'package-lock.json',
      'dist/index.js',
      'docs/images/dry-run.png',
      'docs/deploy.md'
    ])
    expect(byName['src/commands/deploy.ts']).toEqual({
      sha: expect.stringMatching(/^[0-9a-f]{40}$/),
      filename: 'src/commands/deploy.ts',
      status: 'modified',
      additions: 7,
      deletions: 1,
      changes: 8,
      blob_url: `https://github.com/Codertocat/Hello-World/blob/${HEAD}/src/commands/deploy.ts`,
      raw_url: `https://github.com/Codertocat/Hello-World/raw/${HEAD}/src/commands/deploy.ts`,
      contents_url: `${s.url}${REPO}/contents/src/commands/deploy.ts?ref=${HEAD}`,
      patch: expect.stringMatching(/^@@ -8,6 \+8,8 @@/)
    })
    expect(byName['package-lock.json']).toMatchObject({ additions: 1480, deletions: 1312 })
    expect(byName['package-lock.json']).not.toHaveProperty('patch')
    expect(byName['docs/images/dry-run.png']).toMatchObject({ status: 'added', changes: 0 })
    expect(byName['docs/images/dry-run.png']).not.toHaveProperty('patch')
    for (const file of body.files) if (file.patch) checkHunks(file.patch)
  })

  it('is identical, with no commits or files, when both ends are one commit', async () => {
    const s = await start()
    const body = await ok(s, `${REPO}/compare/${HEAD.slice(0, 7)}...${HEAD}`)
    expect(body).toMatchObject({ status: 'identical', total_commits: 0, commits: [], files: [] })
  })

  it('answers 404 for the zero sha and for commits the missingCommits knob names', async () => {
    const s = await start({ scenario: { github: { missingCommits: [BASE] } } })
    for (const path of [
      `compare/${ZERO}...${HEAD}`,
      `compare/${HEAD}...${ZERO}`,
      `compare/${BASE}...${HEAD}`
    ]) {
      const res = await call(s, `${REPO}/${path}`)
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({
        message: 'Not Found',
        documentation_url: 'https://docs.github.com/rest/commits/commits#compare-two-commits',
        status: '404'
      })
    }
  })

  it('lists the commits knob oldest first, each the parent of the next', async () => {
    const s = await start({
      scenario: {
        github: {
          commits: [
            { sha: 'a'.repeat(40), message: 'First', author: { login: 'octocat' } },
            { message: 'Second', author: { name: 'Nobody', email: 'n@example.com', login: null } }
          ]
        }
      }
    })
    const body = await ok<{ commits: Json[] }>(s, `${REPO}/compare/main...feature%2Fdocs`)
    const [first, second] = body.commits
    expect(first).toMatchObject({
      sha: 'a'.repeat(40),
      commit: { message: 'First', author: { name: 'octocat' } },
      author: { login: 'octocat', id: 583231 },
      parents: [{ sha: expect.stringMatching(/^[0-9a-f]{40}$/) }]
    })
    expect(second).toMatchObject({
      commit: { message: 'Second', author: { name: 'Nobody', email: 'n@example.com' } },
      author: null,
      parents: [{ sha: 'a'.repeat(40) }]
    })
    expect(
      (await ok(s, `${REPO}/commits/${(second as { sha: string }).sha}`)).commit
    ).toMatchObject({
      message: 'Second'
    })
  })

  it('keeps the newest 250 commits and 300 files, counts them all, and pages when asked', async () => {
    const commits = Array.from({ length: 260 }, (_, i) => ({ message: `Commit ${i}` }))
    const s = await start({ scenario: { github: { commits, files: files(310) } } })
    const whole = await ok<{ commits: Json[]; files: Json[]; total_commits: number }>(
      s,
      `${REPO}/compare/${BASE}...${HEAD}`
    )
    expect(whole.total_commits).toBe(260)
    expect(whole.commits).toHaveLength(250)
    expect(whole.commits[0]).toMatchObject({ commit: { message: 'Commit 10' } })
    expect(whole.files).toHaveLength(300)

    const res = await call(s, `${REPO}/compare/${BASE}...${HEAD}?per_page=100&page=3`)
    const page = (await res.json()) as { commits: Json[] }
    expect(page.commits).toHaveLength(60)
    expect(page.commits[0]).toMatchObject({ commit: { message: 'Commit 200' } })
    expect(page).not.toHaveProperty('files')
    expect(links(res.headers.get('link'))).toEqual({
      prev: `${s.url}${REPO}/compare/${BASE}...${HEAD}?per_page=100&page=2`,
      first: `${s.url}${REPO}/compare/${BASE}...${HEAD}?per_page=100&page=1`
    })
    const first = await ok<Json>(s, `${REPO}/compare/${BASE}...${HEAD}?per_page=100`)
    expect(first.files).toHaveLength(300)
  })
})

describe('a single commit', () => {
  it('serves the examples’ first commit by a short sha, with its files and stats', async () => {
    const s = await start()
    const body = await ok(s, `${REPO}/commits/6113728`)
    expect(body).toMatchObject({
      sha: INITIAL,
      url: `${s.url}${REPO}/commits/${INITIAL}`,
      commit: {
        message: 'Initial commit',
        tree: { sha: '31b122c26a97cf9af023e9ddab94a82c6e77b0ea' },
        verification: { verified: false, reason: 'unsigned' }
      },
      parents: [],
      stats: { total: 1, additions: 1, deletions: 0 },
      files: [{ filename: 'README.md', status: 'added', patch: '@@ -0,0 +1 @@\n+# Hello-World' }]
    })
  })

  it('serves any other sha or branch as the built-in change', async () => {
    const s = await start()
    const sha = '1234567890abcdef1234567890abcdef12345678'
    const body = await ok<Json & { files: Json[] }>(s, `${REPO}/commits/${sha}`)
    expect(body).toMatchObject({ sha, stats: { additions: 1505, deletions: 1315, total: 2820 } })
    expect(body.files).toHaveLength(6)
    const branch = await ok(s, `${REPO}/commits/feature%2Fdocs`)
    expect(branch.sha).toMatch(/^[0-9a-f]{40}$/)
    expect(branch.sha).toBe((await ok(s, `${REPO}/commits/feature%2Fdocs`)).sha)
  })

  it('answers 422 for a commit GitHub does not know', async () => {
    const s = await start()
    const res = await call(s, `${REPO}/commits/${ZERO}`)
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({
      message: `No commit found for SHA: ${ZERO}`,
      documentation_url: 'https://docs.github.com/rest/commits/commits#get-a-commit',
      status: '422'
    })
  })

  it('pages files beyond 300 with a Link header', async () => {
    const s = await start({ scenario: { github: { files: files(650) } } })
    const res = await call(s, `${REPO}/commits/${HEAD}`)
    const body = (await res.json()) as { files: FileEntry[] }
    expect(body.files).toHaveLength(300)
    expect(links(res.headers.get('link'))).toEqual({
      next: `${s.url}${REPO}/commits/${HEAD}?page=2`,
      last: `${s.url}${REPO}/commits/${HEAD}?page=3`
    })
    const last = await ok<{ files: FileEntry[] }>(s, `${REPO}/commits/${HEAD}?page=3`)
    expect(last.files.map((file) => file.filename)).toEqual(
      files(650)
        .slice(600)
        .map((file) => file.filename)
    )
  })
})

describe('files of a pull request', () => {
  it('pages with per_page and page and names the other pages like GitHub', async () => {
    const s = await start({ scenario: { github: { files: files(7) } } })
    const res = await call(s, `${REPO}/pulls/2/files?per_page=3&page=2`)
    expect(res.status).toBe(200)
    expect(((await res.json()) as FileEntry[]).map((f) => f.filename)).toEqual([
      'f3.txt',
      'f4.txt',
      'f5.txt'
    ])
    const page = (n: number) => `${s.url}${REPO}/pulls/2/files?per_page=3&page=${n}`
    expect(res.headers.get('link')).toBe(
      `<${page(1)}>; rel="prev", <${page(3)}>; rel="next", <${page(3)}>; rel="last", ` +
        `<${page(1)}>; rel="first"`
    )
    const beyond = await call(s, `${REPO}/pulls/2/files?per_page=3&page=9`)
    expect(await beyond.json()).toEqual([])
  })

  it('shows 30 files a page by default, 100 at most, and 3000 in all', async () => {
    const s = await start({ scenario: { github: { files: files(3100) } } })
    expect(await ok<Json[]>(s, `${REPO}/pulls/2/files`)).toHaveLength(30)
    const res = await call(s, `${REPO}/pulls/2/files?per_page=500`)
    expect((await res.json()) as Json[]).toHaveLength(100)
    expect(links(res.headers.get('link')).last).toBe(
      `${s.url}${REPO}/pulls/2/files?per_page=500&page=30`
    )
    expect(await ok<Json[]>(s, `${REPO}/pulls/2/files?per_page=100&page=31`)).toEqual([])
  })

  it('takes files per pull request, shown at the pull request head', async () => {
    const s = await start({
      scenario: {
        github: {
          pulls: {
            7: {
              head: { sha: 'b'.repeat(40) },
              files: [
                {
                  filename: 'docs/new name.md',
                  status: 'renamed',
                  previous_filename: 'docs/old.md',
                  patch: '@@ -1 +1 @@\n-old\n+new'
                }
              ]
            }
          }
        }
      }
    })
    expect(await ok(s, `${REPO}/pulls/7/files`)).toEqual([
      expect.objectContaining({
        filename: 'docs/new name.md',
        status: 'renamed',
        previous_filename: 'docs/old.md',
        additions: 1,
        deletions: 1,
        changes: 2,
        blob_url: `${WEB}/blob/${'b'.repeat(40)}/docs/new%20name.md`
      })
    ])
    expect(await ok<Json[]>(s, `${REPO}/pulls/2/files`)).toHaveLength(6)
  })
})

describe('pull requests of a commit', () => {
  it('finds pull request 2 of the examples from its head commit', async () => {
    const s = await start()
    const pulls = await ok<Json[]>(s, `${REPO}/commits/${HEAD}/pulls`)
    expect(pulls).toEqual([
      expect.objectContaining({
        url: `${s.url}${REPO}/pulls/2`,
        id: 279147437,
        node_id: 'MDExOlB1bGxSZXF1ZXN0Mjc5MTQ3NDM3',
        html_url: 'https://github.com/Codertocat/Hello-World/pull/2',
        number: 2,
        state: 'open',
        title: 'Update the README with new information.',
        merged_at: null,
        draft: false,
        user: expect.objectContaining({ login: 'Codertocat' }),
        head: expect.objectContaining({
          label: 'Codertocat:changes',
          ref: 'changes',
          sha: HEAD,
          repo: expect.objectContaining({ full_name: 'Codertocat/Hello-World', fork: false })
        }),
        base: expect.objectContaining({
          ref: 'master',
          sha: BASE,
          repo: expect.objectContaining({ id: 186853002, default_branch: 'master' })
        }),
        _links: expect.objectContaining({
          html: { href: 'https://github.com/Codertocat/Hello-World/pull/2' }
        })
      })
    ])
    expect(await ok(s, `${REPO}/commits/${INITIAL}/pulls`)).toEqual([])
  })

  it('serves merged pull requests and pull requests from forks from the knobs', async () => {
    const merge = 'c'.repeat(40)
    const s = await start({
      scenario: {
        github: {
          commitPulls: { [merge]: [5, 6] },
          pulls: {
            5: { merged_at: '2030-01-01T00:00:00Z', merge_commit_sha: merge, title: 'Docs' },
            6: { head: { repo: 'hubot/Hello-World', ref: 'patch-1' }, user: 'hubot' }
          }
        }
      }
    })
    const [merged, fork] = await ok<Json[]>(s, `${REPO}/commits/${merge.slice(0, 10)}/pulls`)
    expect(merged).toMatchObject({
      number: 5,
      state: 'closed',
      title: 'Docs',
      merged_at: '2030-01-01T00:00:00Z',
      closed_at: '2030-01-01T00:00:00Z',
      merge_commit_sha: merge
    })
    expect(fork).toMatchObject({
      number: 6,
      state: 'open',
      author_association: 'NONE',
      head: {
        label: 'hubot:patch-1',
        user: { login: 'hubot' },
        repo: { full_name: 'hubot/Hello-World', fork: true, owner: { login: 'hubot' } }
      },
      base: { repo: { full_name: 'Codertocat/Hello-World', fork: false } }
    })
  })
})

describe('comments', () => {
  const comments = `${REPO}/issues/2/comments`

  it('creates, lists and updates a comment, keeping each body', async () => {
    const lines: string[] = []
    const s = await start({ log: (line) => lines.push(line) })
    expect(await ok(s, comments)).toEqual([])

    const res = await send(s, 'POST', comments, { body: 'Docs job started' })
    expect(res.status).toBe(201)
    const created = (await res.json()) as Json & { id: number }
    expect(res.headers.get('location')).toBe(`${s.url}${REPO}/issues/comments/${created.id}`)
    expect(created).toMatchObject({
      url: `${s.url}${REPO}/issues/comments/${created.id}`,
      html_url: `https://github.com/Codertocat/Hello-World/pull/2#issuecomment-${created.id}`,
      issue_url: `${s.url}${REPO}/issues/2`,
      id: expect.any(Number),
      node_id: expect.any(String),
      user: expect.objectContaining({ login: 'github-actions[bot]', id: 41898282, type: 'Bot' }),
      created_at: '2030-01-02T03:04:05Z',
      updated_at: '2030-01-02T03:04:05Z',
      author_association: 'NONE',
      body: 'Docs job started'
    })

    const patch = await send(s, 'PATCH', `${REPO}/issues/comments/${created.id}`, {
      body: 'Docs job done'
    })
    expect(patch.status).toBe(200)
    expect(await patch.json()).toMatchObject({ id: created.id, body: 'Docs job done' })
    expect(await ok(s, comments)).toEqual([
      expect.objectContaining({ id: created.id, body: 'Docs job done' })
    ])

    expect(s.comments).toEqual([
      {
        id: created.id,
        owner: 'Codertocat',
        repo: 'Hello-World',
        issueNumber: 2,
        body: 'Docs job done',
        user: 'github-actions[bot]',
        createdAt: '2030-01-02T03:04:05Z',
        updatedAt: '2030-01-02T03:04:05Z',
        history: ['Docs job started', 'Docs job done'],
        token: null
      }
    ])
    expect(await ok(s, `${REPO}/issues/3/comments`)).toEqual([])
    expect(await ok(s, `/repos/octo-org/octo-repo/issues/2/comments`)).toEqual([])
    expect(lines.filter((line) => /^(POST|PATCH) /.test(line))).toEqual([
      expect.stringMatching(
        /^POST \/repos\/Codertocat\/Hello-World\/issues\/2\/comments 201 \d+ms body 16 chars$/
      ),
      expect.stringMatching(/ 200 \d+ms body 13 chars$/)
    ])
  })

  it('answers 404 for a comment that is not there or belongs to another repository', async () => {
    const s = await start()
    const created = await ok<{ id: number }>(s, comments, {
      method: 'POST',
      body: JSON.stringify({ body: 'x' })
    })
    for (const path of [`${REPO}/issues/comments/1`, `/repos/o/r/issues/comments/${created.id}`]) {
      const res = await send(s, 'PATCH', path, { body: 'y' })
      expect(res.status).toBe(404)
      expect(await res.json()).toMatchObject({ message: 'Not Found', status: '404' })
    }
    expect(s.comments.map((c) => c.body)).toEqual(['x'])
  })

  it('lets a test delete a comment: it is listed no more, and updating it answers 404', async () => {
    const s = await start({
      scenario: { github: { comments: { 2: [{ body: 'seeded', id: 7 }] } } }
    })
    const created = await ok<{ id: number }>(s, comments, {
      method: 'POST',
      body: JSON.stringify({ body: 'mine' })
    })
    expect(s.github.deleteComment(created.id)).toBe(true)
    expect(s.github.deleteComment(created.id)).toBe(false)
    expect(s.github.deleteComment(7)).toBe(true)
    expect(await ok(s, comments)).toEqual([])
    expect(s.comments).toEqual([])
    const res = await send(s, 'PATCH', `${REPO}/issues/comments/${created.id}`, { body: 'again' })
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({
      message: 'Not Found',
      documentation_url: 'https://docs.github.com/rest/issues/comments#update-an-issue-comment',
      status: '404'
    })
    expect((await send(s, 'PATCH', `${REPO}/issues/comments/7`, { body: 'x' })).status).toBe(404)
  })

  it.each([
    ['invalid JSON', '{"body": ', 400, /^Problems parsing JSON$/],
    ['no body', '{}', 422, /"body" wasn't supplied/],
    ['a body that is not a string', '{"body": 1}', 422, /is not a string/],
    ['an empty body', '{"body": "  "}', 422, /^Validation Failed$/],
    [
      'a body over 65536 characters',
      JSON.stringify({ body: 'é'.repeat(65537) }),
      422,
      /^Validation Failed$/
    ]
  ])('refuses %s', async (_what, body, status, message) => {
    const s = await start()
    const res = await send(s, 'POST', comments, body)
    expect(res.status).toBe(status)
    expect(await res.json()).toMatchObject({
      message: expect.stringMatching(message),
      documentation_url: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment'
    })
    expect(s.comments).toEqual([])
  })

  it('accepts a body of 65536 characters and says which limit a longer one broke', async () => {
    const s = await start()
    expect((await send(s, 'POST', comments, { body: 'é'.repeat(65536) })).status).toBe(201)
    const res = await send(s, 'POST', comments, { body: 'x'.repeat(65537) })
    expect(await res.json()).toMatchObject({
      errors: [{ field: 'body', code: 'custom', message: expect.stringMatching(/too long/) }]
    })
  })

  it('starts threads from the comments knob and pages them', async () => {
    const s = await start({
      scenario: {
        github: {
          user: 'docs-bot[bot]',
          comments: {
            2: [
              { body: 'Looks good', user: 'octocat', id: 11 },
              { body: '<!-- docs -->\nOld summary', user: 'docs-bot[bot]', id: 12 }
            ]
          }
        }
      }
    })
    const res = await call(s, `${comments}?per_page=1`)
    expect(await res.json()).toEqual([
      expect.objectContaining({
        id: 11,
        body: 'Looks good',
        user: expect.objectContaining({ login: 'octocat' })
      })
    ])
    expect(links(res.headers.get('link')).next).toBe(`${s.url}${comments}?per_page=1&page=2`)

    const patch = await send(s, 'PATCH', `${REPO}/issues/comments/12`, {
      body: '<!-- docs -->\nNew'
    })
    expect(patch.status).toBe(200)
    const created = await ok<Json>(s, comments, { method: 'POST', body: '{"body":"Another"}' })
    expect(created.user).toMatchObject({ login: 'docs-bot[bot]', type: 'Bot' })
    expect((await ok<Json[]>(s, comments)).map((c) => c.body)).toEqual([
      'Looks good',
      '<!-- docs -->\nNew',
      'Another'
    ])
  })
})

describe('authentication', () => {
  it.each([
    ['no Authorization header', undefined, 'Requires authentication'],
    ['an empty one', '', 'Requires authentication'],
    ['another scheme', 'Basic Z2g6eA==', 'Bad credentials'],
    ['a scheme without a token', 'token ', 'Bad credentials']
  ])('answers 401 for %s', async (_what, authorization, message) => {
    const s = await start()
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization }
    const res = await fetch(`${s.url}${REPO}/commits/${HEAD}`, { headers })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({
      message,
      documentation_url: 'https://docs.github.com/rest',
      status: '401'
    })
  })

  it('takes any token with either scheme, or only the configured one', async () => {
    const s = await start()
    for (const authorization of ['token a', 'Bearer b', 'bearer c']) {
      const res = await fetch(`${s.url}${REPO}/commits/${HEAD}`, { headers: { authorization } })
      expect([authorization, res.status]).toEqual([authorization, 200])
    }
    s.setScenario({ github: { token: 'ghs_right' } })
    const wrong = await fetch(`${s.url}${REPO}/pulls/2/files`, {
      headers: { authorization: 'token ghs_wrong' }
    })
    expect(wrong.status).toBe(401)
    expect(await wrong.json()).toMatchObject({ message: 'Bad credentials' })
    const right = await fetch(`${s.url}${REPO}/pulls/2/files`, {
      headers: { authorization: 'Bearer ghs_right' }
    })
    expect(right.status).toBe(200)
  })

  it('never creates a comment for a request it refused', async () => {
    const s = await start({ scenario: { github: { token: 'ghs_right' } } })
    expect((await send(s, 'POST', `${REPO}/issues/2/comments`, { body: 'x' })).status).toBe(401)
    expect(s.comments).toEqual([])
  })
})

describe('faults', () => {
  it('answers a queued fault exactly, then serves normally', async () => {
    const s = await start({
      scenario: {
        githubFaults: {
          compare: [
            {
              status: 403,
              headers: { 'content-type': 'application/json', 'retry-after': '60' },
              body: '{"message":"Resource not accessible by integration"}'
            }
          ]
        }
      }
    })
    const path = `${REPO}/compare/${BASE}...${HEAD}`
    const res = await call(s, path)
    expect(res.status).toBe(403)
    expect(res.headers.get('retry-after')).toBe('60')
    expect(res.headers.get('x-github-request-id')).toMatch(/\S/)
    expect(await res.text()).toBe('{"message":"Resource not accessible by integration"}')
    expect((await call(s, path)).status).toBe(200)
  })

  it('keeps one queue per route kind and leaves the Mintlify routes alone', async () => {
    const s = await start({ scenario: { githubFaults: { pullFiles: [{ status: 502 }] } } })
    expect((await call(s, `${REPO}/commits/${HEAD}/pulls`)).status).toBe(200)
    const mintlify = await fetch(`${s.url}/v2/agent/proj/job/x`, {
      headers: { authorization: 'Bearer mint_simulator_key' }
    })
    expect(mintlify.status).toBe(404)
    expect((await call(s, `${REPO}/pulls/2/files`)).status).toBe(502)
    expect((await call(s, `${REPO}/pulls/2/files`)).status).toBe(200)
  })

  it('resets the connection, and with perform the comment is written all the same', async () => {
    const s = await start({
      scenario: {
        githubFaults: { createComment: [{ action: 'reset', perform: true }, { status: 500 }] }
      }
    })
    await expect(send(s, 'POST', `${REPO}/issues/2/comments`, { body: 'once' })).rejects.toThrow()
    expect(s.comments.map((c) => c.body)).toEqual(['once'])
    expect((await send(s, 'POST', `${REPO}/issues/2/comments`, { body: 'twice' })).status).toBe(500)
    expect(s.comments.map((c) => c.body)).toEqual(['once'])
  })

  it('truncates a real answer in half', async () => {
    const s = await start({
      scenario: { githubFaults: { listComments: [{ action: 'truncate' }] } }
    })
    await send(s, 'POST', `${REPO}/issues/2/comments`, { body: 'x' })
    const res = await call(s, `${REPO}/issues/2/comments`)
    const text = await res.text()
    const whole = JSON.stringify(await ok(s, `${REPO}/issues/2/comments`))
    expect(text.length).toBeGreaterThan(10)
    expect(whole.startsWith(text)).toBe(true)
    expect(text.length).toBeLessThan(whole.length)
  })

  it('rejects a fault queue for a route kind that does not exist', async () => {
    await expect(
      startSimulator({ scenario: { githubFaults: { compares: [] } as never } })
    ).rejects.toThrow(/compares/)
  })
})

describe('routing and recording', () => {
  it('records GitHub requests in the same list as Mintlify ones', async () => {
    const s = await start()
    await send(s, 'POST', `${REPO}/issues/2/comments`, { body: 'hello' })
    expect(s.requests).toEqual([
      {
        method: 'POST',
        path: `${REPO}/issues/2/comments`,
        headers: expect.objectContaining({ authorization: TOKEN.authorization }),
        body: '{"body":"hello"}'
      }
    ])
  })

  it('answers 404 in GitHub’s shape for other paths and methods under /repos', async () => {
    const s = await start()
    for (const [method, path] of [
      ['GET', `${REPO}/pulls/2/commits`],
      ['GET', `${REPO}/pulls/2/requested_reviewers`],
      ['POST', `${REPO}/check-runs`],
      ['GET', '/user'],
      ['GET', '/api/v3/user'],
      ['DELETE', `${REPO}/issues/comments/1`],
      ['POST', `${REPO}/compare/a...b`],
      ['GET', `${REPO}/compare/nothing`],
      ['GET', `${REPO}/pulls/x/files`],
      ['GET', '/repos/Codertocat']
    ] as const) {
      const res = await call(s, path, { method })
      expect([method, path, res.status]).toEqual([method, path, 404])
      expect(await res.json()).toEqual({
        message: 'Not Found',
        documentation_url: 'https://docs.github.com/rest',
        status: '404'
      })
    }
  })

  it('serves under /api/v3 as GitHub Enterprise Server does, and links stay there', async () => {
    const s = await start({
      scenario: { github: { files: files(3), serverUrl: 'https://ghe.example/' } }
    })
    const res = await call(s, `/api/v3${REPO}/pulls/2/files?per_page=2`)
    const body = (await res.json()) as FileEntry[]
    expect(body[0]?.contents_url).toBe(`${s.url}/api/v3${REPO}/contents/f0.txt?ref=${HEAD}`)
    expect(body[0]?.blob_url).toMatch(/^https:\/\/ghe\.example\/Codertocat\//)
    expect(links(res.headers.get('link')).next).toBe(
      `${s.url}/api/v3${REPO}/pulls/2/files?per_page=2&page=2`
    )
  })
})

describe('through Octokit, as the action calls it', () => {
  it('compares, pages pull request files, finds pull requests and writes comments', async () => {
    const s = await start({ scenario: { github: { files: files(45) } } })
    const octokit = getOctokit('ghs_simulated', { baseUrl: s.url })
    const owner = 'Codertocat'
    const repo = 'Hello-World'

    const comparison = await octokit.rest.repos.compareCommitsWithBasehead({
      owner,
      repo,
      basehead: `${BASE}...${HEAD}`
    })
    expect(comparison.data.files).toHaveLength(45)

    const all = await octokit.paginate(octokit.rest.pulls.listFiles, {
      owner,
      repo,
      pull_number: 2,
      per_page: 20
    })
    expect(all.map((file) => file.filename)).toEqual(files(45).map((file) => file.filename))

    const pulls = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({
      owner,
      repo,
      commit_sha: HEAD
    })
    expect(pulls.data.map((pull) => pull.number)).toEqual([2])

    const created = await octokit.rest.issues.createComment({
      owner,
      repo,
      issue_number: 2,
      body: 'a'
    })
    await octokit.rest.issues.updateComment({
      owner,
      repo,
      comment_id: created.data.id,
      body: 'b'
    })
    const listed = await octokit.paginate(octokit.rest.issues.listComments, {
      owner,
      repo,
      issue_number: 2
    })
    expect(listed.map((comment) => comment.body)).toEqual(['b'])
    expect(s.requests.every((r) => r.headers.authorization === 'token ghs_simulated')).toBe(true)

    await expect(octokit.rest.repos.getCommit({ owner, repo, ref: ZERO })).rejects.toMatchObject({
      status: 422
    })
  })
})

describe('who the token is', () => {
  it('answers GraphQL’s viewer with the token’s account, on github.com and GHES paths', async () => {
    const s = await start({ scenario: { github: { user: 'docs-writer' } } })
    for (const path of ['/graphql', '/api/graphql']) {
      const res = await send(s, 'POST', path, { query: 'query { viewer { login } }' })
      expect([path, res.status]).toEqual([path, 200])
      expect(await res.json()).toEqual({ data: { viewer: { login: 'docs-writer' } } })
    }
    const anonymous = await fetch(`${s.url}/graphql`, { method: 'POST', body: '{}' })
    expect(anonymous.status).toBe(401)
    const octokit = getOctokit('ghs_simulated', { baseUrl: s.url })
    const viewer = await octokit.graphql<{ viewer: { login: string } }>('{ viewer { login } }')
    expect(viewer.viewer.login).toBe('docs-writer')
  })

  it('plays no other query', async () => {
    const s = await start()
    const res = await send(s, 'POST', '/graphql', { query: '{ repository { id } }' })
    expect(await res.json()).toEqual({ errors: [{ message: expect.stringMatching(/viewer/) }] })
  })
})

describe('reading comments newest first', () => {
  it('names the last page, and each page before it, so a client can walk back', async () => {
    const s = await start()
    for (const body of ['1', '2', '3', '4', '5']) {
      await send(s, 'POST', `${REPO}/issues/2/comments`, { body })
    }
    const first = await call(s, `${REPO}/issues/2/comments?per_page=2`)
    const last = links(first.headers.get('link')).last ?? ''
    expect(last).toBe(`${s.url}${REPO}/issues/2/comments?per_page=2&page=3`)
    const lastPage = await fetch(last, { headers: TOKEN })
    expect(((await lastPage.json()) as Json[]).map((c) => c.body)).toEqual(['5'])
    const prev = links(lastPage.headers.get('link')).prev ?? ''
    expect(prev).toBe(`${s.url}${REPO}/issues/2/comments?per_page=2&page=2`)
    const before = await fetch(prev, { headers: TOKEN })
    expect(((await before.json()) as Json[]).map((c) => c.body)).toEqual(['3', '4'])
  })
})

describe('commit statuses', () => {
  const statuses = `${REPO}/statuses/${HEAD}`

  it('records statuses per repository and sha, and a history shows the latest of each context', async () => {
    const s = await start({
      scenario: {
        github: {
          tokens: { workflow: { token: 'ghs_w' }, docs: { token: 'ghp_d', user: 'hubot' } }
        }
      }
    })
    const as = (token: string) => ({ authorization: `token ${token}` })
    const write = (body: Json, token = 'ghs_w', path = statuses) =>
      call(s, path, { method: 'POST', headers: as(token), body: JSON.stringify(body) })
    const res = await write({
      state: 'pending',
      context: 'Mintlify docs',
      description: 'Docs job running',
      target_url: 'https://dashboard.mintlify.com/job/1'
    })
    expect(res.status).toBe(201)
    expect(await res.json()).toMatchObject({
      url: `${s.url}${REPO}/statuses/${HEAD}`,
      state: 'pending',
      context: 'Mintlify docs',
      description: 'Docs job running',
      target_url: 'https://dashboard.mintlify.com/job/1',
      created_at: '2030-01-02T03:04:05Z',
      creator: { login: 'github-actions[bot]', type: 'Bot' }
    })
    await write({ state: 'success', context: 'Mintlify docs' })
    await write({ state: 'failure', context: 'lint' }, 'ghp_d')
    await write({ state: 'error' }, 'ghs_w', `/repos/acme/docs/statuses/${HEAD}`)

    expect(s.github.statuses.map((x) => [x.repo, x.sha, x.context, x.state, x.token])).toEqual([
      ['Hello-World', HEAD, 'Mintlify docs', 'pending', 'workflow'],
      ['Hello-World', HEAD, 'Mintlify docs', 'success', 'workflow'],
      ['Hello-World', HEAD, 'lint', 'failure', 'docs'],
      ['docs', HEAD, 'default', 'error', 'workflow']
    ])
    // GraphQL's history holds the latest status of each context, with who wrote it: an App's
    // account as a GraphQL Actor, without `[bot]` (GitHub's GraphQL reference, object Bot).
    const creator = '__typename login ... on Bot { databaseId } ... on User { databaseId }'
    const query = `query { viewer { login } repository { object { history(first: 50) { nodes { oid status { contexts { context state creator { ${creator} } } } } } } } }`
    const variables = { owner: 'Codertocat', repo: 'Hello-World', sha: HEAD, first: 50 }
    const res2 = await call(s, '/graphql', {
      method: 'POST',
      headers: as('ghs_w'),
      body: JSON.stringify({ query, variables })
    })
    type History = { data: { repository: { object: { history: { nodes: Json[] } } } } }
    const [node] = ((await res2.json()) as History).data.repository.object.history.nodes
    const contexts = (node?.status as { contexts: Json[] }).contexts
    expect(contexts.map((x) => [x.context, x.state, x.creator])).toEqual([
      ['lint', 'FAILURE', { __typename: 'User', login: 'hubot', databaseId: 480938 }],
      [
        'Mintlify docs',
        'SUCCESS',
        { __typename: 'Bot', login: 'github-actions', databaseId: 41898282 }
      ]
    ])
  })

  it.each([
    ['an unknown state', { state: 'done' }, /is not a member of/],
    ['no state', { context: 'x' }, /"state" wasn't supplied/],
    ['a context that is not a string', { state: 'success', context: 1 }, /is not a string/],
    [
      'a description over 140 characters',
      { state: 'success', description: 'x'.repeat(141) },
      /^Validation Failed$/
    ]
  ])('refuses %s with 422', async (_what, body, message) => {
    const s = await start()
    const res = await send(s, 'POST', statuses, body)
    expect(res.status).toBe(422)
    expect(await res.json()).toMatchObject({
      message: expect.stringMatching(message),
      documentation_url: 'https://docs.github.com/rest/commits/statuses#create-a-commit-status'
    })
    expect(s.github.statuses).toEqual([])
    const fits = await send(s, 'POST', statuses, { state: 'success', description: 'é'.repeat(140) })
    expect(fits.status).toBe(201)
  })

  it('refuses a status for a commit GitHub does not know', async () => {
    const s = await start()
    const res = await send(s, 'POST', `${REPO}/statuses/${ZERO}`, { state: 'success' })
    expect(res.status).toBe(422)
    expect(await res.json()).toMatchObject({ message: `No commit found for SHA: ${ZERO}` })
  })
})

describe('pull requests in another repository', () => {
  const DOCS = '/repos/acme/docs'
  const scenario = {
    github: {
      user: 'docs-writer',
      nonCollaborators: ['stranger'],
      pulls: {
        'acme/docs#7': { title: 'Document --dry-run', user: 'docs-writer', labels: ['docs'] },
        7: { title: 'Any other repository' }
      }
    }
  }

  it('shows, closes, labels and asks for reviews on a pull request of acme/docs', async () => {
    const s = await start({ scenario })
    const pull = await ok(s, `${DOCS}/pulls/7`)
    expect(pull).toMatchObject({
      url: `${s.url}${DOCS}/pulls/7`,
      html_url: 'https://github.com/acme/docs/pull/7',
      number: 7,
      state: 'open',
      title: 'Document --dry-run',
      merged: false,
      user: { login: 'docs-writer' },
      labels: [{ name: 'docs' }],
      base: { repo: { full_name: 'acme/docs' } }
    })
    expect(await ok(s, `${REPO}/pulls/7`)).toMatchObject({ title: 'Any other repository' })

    const labels = await send(s, 'POST', `${DOCS}/issues/7/labels`, { labels: ['DOCS'] })
    expect(labels.status).toBe(200)
    expect(await labels.json()).toEqual([
      expect.objectContaining({ name: 'docs', url: `${s.url}${DOCS}/labels/docs` })
    ])
    const added = await send(s, 'POST', `${DOCS}/issues/7/labels`, { labels: ['automated'] })
    expect(added.status).toBe(200)
    expect(((await added.json()) as Json[]).map((l) => l.name)).toEqual(['docs', 'automated'])

    const asked = await send(s, 'POST', `${DOCS}/pulls/7/requested_reviewers`, {
      reviewers: ['octocat'],
      team_reviewers: ['docs-team']
    })
    expect(asked.status).toBe(201)
    expect(await asked.json()).toMatchObject({
      number: 7,
      requested_reviewers: [{ login: 'octocat' }],
      requested_teams: [{ slug: 'docs-team' }]
    })
    expect(await ok(s, `${DOCS}/pulls/7`)).toMatchObject({
      requested_reviewers: [{ login: 'octocat' }],
      requested_teams: [{ slug: 'docs-team', type: 'organization' }]
    })

    const closed = await send(s, 'PATCH', `${DOCS}/pulls/7`, { state: 'closed' })
    expect(closed.status).toBe(200)
    expect(await closed.json()).toMatchObject({
      state: 'closed',
      closed_at: '2030-01-02T03:04:05Z'
    })
    expect(await ok(s, `${DOCS}/pulls/7`)).toMatchObject({ state: 'closed' })
    expect(await ok(s, `${REPO}/pulls/7`)).toMatchObject({ state: 'open', labels: [] })
    expect(s.github.pulls.get('acme/docs#7')).toMatchObject({
      state: 'closed',
      labels: ['docs', 'automated'],
      reviewers: ['octocat'],
      teams: ['docs-team']
    })

    const comment = await send(s, 'POST', `${DOCS}/issues/7/comments`, { body: 'Ready' })
    expect(await comment.json()).toMatchObject({
      html_url: expect.stringMatching(/^https:\/\/github\.com\/acme\/docs\/pull\/7#issuecomment-/),
      user: { login: 'docs-writer' }
    })
  })

  it.each([
    [
      'a reviewer who is not a collaborator',
      { reviewers: ['octocat', 'Stranger'] },
      /not a collaborator of the acme\/docs repository/
    ],
    ['a team as org/team', { team_reviewers: ['acme/docs-team'] }, /not a collaborator/],
    ['the author', { reviewers: ['docs-writer'] }, /pull request author/],
    ['nobody', {}, /must be supplied/]
  ])('refuses a review request naming %s, whole', async (_what, body, message) => {
    const s = await start({ scenario })
    const res = await send(s, 'POST', `${DOCS}/pulls/7/requested_reviewers`, body)
    expect(res.status).toBe(422)
    expect(await res.json()).toMatchObject({ message: expect.stringMatching(message) })
    expect(await ok(s, `${DOCS}/pulls/7`)).toMatchObject({
      requested_reviewers: [],
      requested_teams: []
    })
  })

  it('shows the state the knobs give, and closed_at once closed', async () => {
    const s = await start({
      scenario: {
        github: {
          pulls: {
            'acme/docs#8': { merged_at: '2030-01-01T00:00:00Z' },
            'acme/docs#9': { state: 'closed', closed_at: '2030-01-01T01:00:00Z' },
            'acme/docs#10': { state: 'closed' }
          }
        }
      }
    })
    const shown = async (n: number) => {
      const { state, merged, merged_at, closed_at } = await ok(s, `${DOCS}/pulls/${n}`)
      return { state, merged, merged_at, closed_at }
    }
    expect(await shown(8)).toEqual({
      state: 'closed',
      merged: true,
      merged_at: '2030-01-01T00:00:00Z',
      closed_at: '2030-01-01T00:00:00Z'
    })
    expect(await shown(9)).toEqual({
      state: 'closed',
      merged: false,
      merged_at: null,
      closed_at: '2030-01-01T01:00:00Z'
    })
    expect(await shown(10)).toMatchObject({ state: 'closed', merged: false })
    expect(await shown(7)).toEqual({
      state: 'open',
      merged: false,
      merged_at: null,
      closed_at: null
    })
    const [listed] = await ok<Json[]>(s, `${DOCS}/commits/${HEAD}/pulls`)
    expect(listed).toMatchObject({ number: 2, state: 'open', merged_at: null })
  })

  it('refuses a state it does not know, and reopening a merged pull request', async () => {
    const s = await start({
      scenario: { github: { pulls: { 'acme/docs#8': { merged_at: '2030-01-01T00:00:00Z' } } } }
    })
    expect((await send(s, 'PATCH', `${DOCS}/pulls/7`, { state: 'merged' })).status).toBe(422)
    expect((await send(s, 'PATCH', `${DOCS}/pulls/8`, { state: 'open' })).status).toBe(422)
    expect(await ok(s, `${DOCS}/pulls/8`)).toMatchObject({ state: 'closed', merged: true })
  })
})

describe('tokens per repository', () => {
  const scenario = {
    github: {
      tokens: {
        workflow: { token: 'ghs_workflow', repos: ['Codertocat/Hello-World'] },
        docs: {
          token: 'ghp_docs',
          user: 'docs-writer',
          repos: ['acme/docs'],
          readOnly: ['Codertocat/Hello-World']
        }
      }
    }
  }
  const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } })

  it('lets each token reach only its repositories, and records which token went where', async () => {
    const s = await start({ scenario })
    expect((await call(s, `${REPO}/pulls/2`, as('ghs_workflow'))).status).toBe(200)
    expect((await call(s, '/repos/acme/docs/pulls/7', as('ghs_workflow'))).status).toBe(404)
    const write = await send(s, 'POST', '/repos/acme/docs/issues/7/comments', { body: 'x' })
    expect(write.status).toBe(401)

    expect((await call(s, '/repos/acme/docs/pulls/7', as('ghp_docs'))).status).toBe(200)
    expect((await call(s, `${REPO}/pulls/2`, as('ghp_docs'))).status).toBe(200)
    const refused = await call(s, `${REPO}/issues/2/comments`, {
      ...as('ghp_docs'),
      method: 'POST',
      body: '{"body":"x"}'
    })
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({
      message: 'Resource not accessible by personal access token'
    })
    const viewer = await call(s, '/graphql', {
      ...as('ghp_docs'),
      method: 'POST',
      body: '{"query":"{ viewer { login } }"}'
    })
    expect(await viewer.json()).toEqual({ data: { viewer: { login: 'docs-writer' } } })
    expect(s.comments).toEqual([])

    expect(s.github.requests.map((r) => [r.token, r.repository, r.status])).toEqual([
      ['workflow', 'Codertocat/Hello-World', 200],
      ['workflow', 'acme/docs', 404],
      [null, 'acme/docs', 401],
      ['docs', 'acme/docs', 200],
      ['docs', 'Codertocat/Hello-World', 200],
      ['docs', 'Codertocat/Hello-World', 403],
      ['docs', null, 200]
    ])
    const reached = (label: string) =>
      s.github.requests.filter((r) => r.token === label && r.status === 200)
    expect(reached('workflow').map((r) => r.repository)).toEqual(['Codertocat/Hello-World'])
    expect(JSON.stringify(s.github.requests)).not.toMatch(/ghs_workflow|ghp_docs/)
  })

  it('keeps the single token knob working beside them, under the label token', async () => {
    const s = await start({ scenario: { github: { ...scenario.github, token: 'ghs_single' } } })
    expect((await call(s, '/repos/acme/docs/pulls/7', as('ghs_single'))).status).toBe(200)
    expect((await call(s, '/repos/acme/docs/pulls/7', as('ghs_other'))).status).toBe(401)
    expect(s.github.requests.map((r) => r.token)).toEqual(['token', null])
  })
})

describe('faults on any route', () => {
  it('answers after a delay with slow, and writes first with perform', async () => {
    const s = await start({
      scenario: {
        githubFaults: {
          createStatus: [
            { action: 'slow', delayMs: 150 },
            { action: 'slow', delayMs: 50, status: 502, perform: true }
          ],
          getPull: [{ status: 500 }],
          graphql: [{ action: 'reset' }]
        }
      }
    })
    const started = Date.now()
    const res = await send(s, 'POST', `${REPO}/statuses/${HEAD}`, { state: 'pending' })
    expect(res.status).toBe(201)
    expect(Date.now() - started).toBeGreaterThanOrEqual(140)
    const lost = await send(s, 'POST', `${REPO}/statuses/${HEAD}`, { state: 'success' })
    expect(lost.status).toBe(502)
    expect(s.github.statuses.map((x) => x.state)).toEqual(['pending', 'success'])
    expect((await call(s, `${REPO}/pulls/2`)).status).toBe(500)
    expect((await call(s, `${REPO}/pulls/2`)).status).toBe(200)
    await expect(send(s, 'POST', '/graphql', { query: '{ viewer { login } }' })).rejects.toThrow()
    expect(s.github.requests.map((r) => [r.kind, r.status])).toEqual([
      ['createStatus', 201],
      ['createStatus', 502],
      ['getPull', 500],
      ['getPull', 200],
      ['graphql', null]
    ])
  })

  it('refuses a slow fault without its delay', async () => {
    await expect(
      startSimulator({ scenario: { githubFaults: { getPull: [{ action: 'slow' }] } } })
    ).rejects.toThrow(/delayMs/)
  })
})
