import { describe, expect, it } from '@jest/globals'
import { Companion, marker } from '../src/clients/github/companion.js'
import type { Account, GitHubApi, IssueComment } from '../src/clients/github/api.js'
import { withinTime } from '../src/base/runtime.js'

/** The workflow token's account as REST names it (`GET /users/github-actions[bot]`). */
const BOT: Account = { login: 'github-actions[bot]', id: 41898282, bot: true }
const MALLORY: Account = { login: 'mallory', id: 7001, bot: false }
const PROJECT = 'proj'
const own = (jobId: string, id: number, author = BOT): IssueComment => ({
  id,
  author,
  body: `${marker({ projectId: PROJECT, jobId })}\n### Docs update started`,
  url: `https://github.com/o/r/pull/1#issuecomment-${id}`
})

interface Log {
  info: string[]
  warning: string[]
  debug: string[]
}

/** A fake GitHub holding `comments` (oldest first) in pages of `perPage`. */
function fakeGitHub(
  comments: IssueComment[],
  options: {
    perPage?: number
    viewer?: () => Promise<Account>
    create?: (body: string) => Promise<IssueComment>
  } = {}
) {
  const perPage = options.perPage ?? 100
  const calls: string[] = []
  const api = {
    viewer: options.viewer ?? (() => Promise.resolve(BOT)),
    listComments(_o: string, _r: string, _n: number, page: number) {
      calls.push(`list ${page}`)
      const lastPage = Math.max(1, Math.ceil(comments.length / perPage))
      return Promise.resolve({
        comments: comments.slice((page - 1) * perPage, page * perPage),
        lastPage
      })
    },
    createComment(_o: string, _r: string, _n: number, body: string) {
      calls.push('create')
      if (options.create) return options.create(body)
      const made = { id: 9000 + comments.length, body, author: BOT, url: 'https://x/c' }
      comments.push(made)
      return Promise.resolve(made)
    },
    updateComment(_o: string, _r: string, id: number, body: string) {
      calls.push(`update ${id}`)
      const at = comments.findIndex((c) => c.id === id)
      // GitHub answers 404 for a comment that was deleted.
      if (at < 0) return Promise.reject(Object.assign(new Error('Not Found'), { status: 404 }))
      const updated = { ...comments[at], id, body, author: BOT, url: `https://x/${id}` }
      comments[at] = updated
      return Promise.resolve(updated)
    }
  } as unknown as GitHubApi
  return { api, calls }
}

const CODE = { owner: 'o', repo: 'r', fork: false }
const within = withinTime(() => 5_000, new AbortController().signal)

function companion(api: GitHubApi, reuse = true) {
  const log: Log = { info: [], warning: [], debug: [] }
  const sink = {
    info: (m: string) => log.info.push(m),
    warning: (m: string) => log.warning.push(m),
    debug: (m: string) => log.debug.push(m)
  }
  return { c: new Companion(api, CODE, 1, PROJECT, sink, reuse), log }
}

describe('which comment is the record', () => {
  it.each<[string, IssueComment, boolean]>([
    ['the token account wrote it', own('job_1', 1), true],
    [
      'the account differs only in case',
      own('job_1', 1, { ...BOT, login: 'GitHub-Actions[bot]' }),
      true
    ],
    ['someone else wrote it', own('job_1', 1, MALLORY), false],
    [
      'a user whose login is the App account without [bot]',
      own('job_1', 1, { login: 'github-actions', id: 9001, bot: false }),
      false
    ],
    ['the author is unknown', { ...own('job_1', 1), author: undefined }, false],
    ['the marker is quoted', { ...own('job_1', 1), body: `> ${own('job_1', 1).body}` }, false],
    [
      'another project',
      { ...own('job_1', 1), body: marker({ projectId: 'other', jobId: 'j' }) },
      false
    ]
  ])('%s: %p', async (_name, comment, expected) => {
    const { c } = companion(fakeGitHub([comment]).api)
    expect((await c.find(within)) !== undefined).toBe(expected)
  })
})

describe('Companion.find', () => {
  it("ignores a stranger's comment with the marker and finds the action's own", async () => {
    const { api } = fakeGitHub([own('job_mine', 1), own('job_theirs', 2, MALLORY)])
    const { c } = companion(api)
    expect(await c.find(within)).toEqual({ projectId: PROJECT, jobId: 'job_mine' })
  })

  it('finds the newest own comment on a long pull request, reading the last page first', async () => {
    const comments: IssueComment[] = Array.from({ length: 250 }, (_, i) => ({
      id: i + 1,
      body: `chatter ${i}`,
      author: { login: 'someone', id: 7002, bot: false }
    }))
    comments[220] = own('job_late', 221)
    const { api, calls } = fakeGitHub(comments)
    const { c } = companion(api)
    expect(await c.find(within)).toEqual({ projectId: PROJECT, jobId: 'job_late' })
    expect(calls).toEqual(['list 1', 'list 3'])
  })

  it.each([
    ['refused (403)', 403],
    ['not answered (502)', 502]
  ])(
    "viewer %s: a stranger's newer marker is no record; the workflow token's comment is",
    async (_name, status) => {
      const { api, calls } = fakeGitHub([own('job_1', 1), own('job_2', 2, MALLORY)], {
        viewer: () => Promise.reject(Object.assign(new Error('x'), { status, response: {} }))
      })
      const { c, log } = companion(api)
      expect(await c.find(within)).toEqual({ projectId: PROJECT, jobId: 'job_1' })
      expect(c.failure).toBeUndefined()
      expect(log.warning).toEqual([])
      await c.finish('done', within)
      // The workflow token's own comment is updated; the stranger's is never touched.
      expect(calls).toEqual(['list 1', 'update 1'])
    }
  )

  it("viewer refused and only a stranger's marker: no record, and a comment of its own is written", async () => {
    const { api, calls } = fakeGitHub([own('job_2', 2, MALLORY)], {
      viewer: () => Promise.reject(Object.assign(new Error('x'), { status: 403, response: {} }))
    })
    const { c } = companion(api)
    expect(await c.find(within)).toBeUndefined()
    expect(c.failure).toBeUndefined()
    await c.finish('done', within)
    expect(calls).toEqual(['list 1', 'create'])
  })

  describe('when viewer does not answer (502), the workflow token’s account is still known', () => {
    const unanswered = () =>
      Promise.reject(Object.assign(new Error('Bad Gateway'), { status: 502, response: {} }))

    it('its comment is the record, and is updated in place', async () => {
      const { api, calls } = fakeGitHub([own('job_1', 1)], { viewer: unanswered })
      const { c, log } = companion(api)
      expect(await c.find(within)).toEqual({ projectId: PROJECT, jobId: 'job_1' })
      expect(c.failure).toBeUndefined()
      expect(log.warning).toEqual([])
      await c.finish('done', within)
      expect(calls).toEqual(['list 1', 'update 1'])
    })

    it('no marked comment at all: nothing is recorded, whoever the token is', async () => {
      const { api } = fakeGitHub([], { viewer: unanswered })
      const { c } = companion(api)
      expect(await c.find(within)).toBeUndefined()
      expect(c.failure).toBeUndefined()
    })
  })

  it('comments that do not answer: nothing is known, and no second comment is written', async () => {
    const { api, calls } = fakeGitHub([own('job_1', 1)])
    api.listComments = () =>
      Promise.reject(Object.assign(new Error('reset'), { name: 'HttpError', status: 500 }))
    const { c, log } = companion(api)
    expect(await c.find(within)).toBeUndefined()
    expect(c.failure?.step).toBe('comments')
    expect(log.warning[0]).toMatch(
      /Could not read the comments of pull request #1: GitHub could not be reached/
    )
    c.begin('started', () => within)
    expect(await c.finish('done', within)).toBeUndefined()
    expect(calls).toEqual([])
  })

  it.each([
    ['longer than 256 characters', 'j'.repeat(257)],
    ['with a control character', 'job\u00071'],
    ['a dot segment', '..']
  ])('ignores a recorded id that is %s, with a warning', async (_name, jobId) => {
    const { api } = fakeGitHub([own(jobId, 1)])
    const { c, log } = companion(api)
    expect(await c.find(within)).toBeUndefined()
    expect(log.warning.join('\n')).toMatch(/records a job id that .* so it is ignored/)
  })

  it.each([
    ['with a space', 'velit in'],
    ['only a space', ' '],
    ['that would end the marker', 'a -->b'],
    ['with markup and a slash', '<b>x</b>/y%2F']
  ])('follows a recorded id %s: ids are opaque', async (_name, jobId) => {
    const { api } = fakeGitHub([own(jobId, 1)])
    const { c, log } = companion(api)
    expect(await c.find(within)).toEqual({ projectId: 'proj', jobId })
    expect(log.warning).toEqual([])
  })
})

describe('Companion writes', () => {
  const lost = () =>
    Promise.reject(Object.assign(new Error('Bad gateway'), { status: 502, response: {} }))

  it('creates once, then updates the comment it made', async () => {
    const { api, calls } = fakeGitHub([])
    const { c } = companion(api)
    await c.find(within)
    c.begin(
      'started',
      () => within,
      () => undefined
    )
    await c.finish('done', within)
    expect(calls.filter((call) => !call.startsWith('list'))).toEqual(['create', 'update 9000'])
  })

  it('looks before creating again after a 502 that did the work', async () => {
    const comments: IssueComment[] = []
    let creates = 0
    const { api, calls } = fakeGitHub(comments, {
      create(body) {
        creates++
        comments.push({ id: 77, body, author: BOT, url: 'https://x/77' })
        return lost()
      }
    })
    const { c } = companion(api)
    await c.find(within)
    const url = await c.finish(`${marker({ projectId: PROJECT, jobId: 'j' })}\nbody`, within)
    expect(creates).toBe(1)
    expect(url).toBe('https://x/77')
    expect(calls).not.toContain('update 77')
  })

  it('looks for the comment before each create that follows an unknown outcome', async () => {
    const { api, calls } = fakeGitHub([], { create: lost })
    const { c, log } = companion(api)
    await c.find(within)
    calls.length = 0
    c.begin(
      'started',
      () => within,
      () => undefined
    )
    await c.finish('done', within)
    expect(calls).toEqual(['create', 'list 1', 'list 1', 'create', 'list 1'])
    expect(log.warning).toHaveLength(1)
  })

  it('stops writing after a refusal, with one warning', async () => {
    let creates = 0
    const { api } = fakeGitHub([], {
      create() {
        creates++
        return Promise.reject(Object.assign(new Error('no'), { status: 403, response: {} }))
      }
    })
    const { c, log } = companion(api)
    await c.find(within)
    await c.finish('one', within)
    await c.finish('two', within)
    expect(creates).toBe(1)
    expect(log.warning).toHaveLength(1)
    expect(log.warning[0]).toContain('pull-requests: write')
  })
})

describe('a status comment that was deleted', () => {
  const own404 = () => own('job_1', 5)
  const writes = (calls: string[]) => calls.filter((call) => !call.startsWith('list'))

  it('is replaced once when the comment found answers 404, and says it was deleted', async () => {
    const comments = [own404()]
    const { api, calls } = fakeGitHub(comments)
    const { c, log } = companion(api)
    expect(await c.find(within)).toEqual({ projectId: PROJECT, jobId: 'job_1' })
    comments.length = 0
    const urls: (string | undefined)[] = []
    c.begin(
      'started',
      () => within,
      (url) => urls.push(url)
    )
    urls.push(await c.finish('done', within))
    expect(writes(calls)).toEqual(['update 5', 'create', 'update 9000'])
    expect(comments.map((comment) => comment.body)).toEqual(['done'])
    expect(urls).toEqual(['https://x/c', 'https://x/9000'])
    expect(log.warning).toEqual([])
    expect(log.info.join('\n')).toMatch(/comment on pull request #1 had been deleted, so a new one/)
    expect(log.info.join('\n')).not.toMatch(/permission/)
  })

  it('is replaced when the one this run wrote is deleted before the last write', async () => {
    const comments: IssueComment[] = []
    const { api, calls } = fakeGitHub(comments)
    const { c, log } = companion(api)
    await c.find(within)
    let started: string | undefined
    c.begin(
      'started',
      () => within,
      (url) => (started = url)
    )
    await c.finish('still running', within)
    expect(started).toBe('https://x/c')
    comments.length = 0
    const url = await c.finish('done', within)
    expect(writes(calls)).toEqual(['create', 'update 9000', 'update 9000', 'create'])
    expect(comments).toHaveLength(1)
    expect(url).toBe('https://x/c')
    expect(log.warning).toEqual([])
  })

  it('is not replaced a second time: no URL, one warning that says so', async () => {
    const comments = [own404()]
    const { api, calls } = fakeGitHub(comments)
    const { c, log } = companion(api)
    await c.find(within)
    comments.length = 0
    expect(await c.finish('first', within)).toBe('https://x/c')
    comments.length = 0
    expect(await c.finish('second', within)).toBeUndefined()
    expect(await c.finish('third', within)).toBeUndefined()
    expect(writes(calls)).toEqual(['update 5', 'create', 'update 9000'])
    expect(log.warning).toEqual([
      'The status comment on pull request #1 was deleted again, so this run writes no other. ' +
        'The docs job is not affected.'
    ])
  })

  it('gives no URL when its replacement is refused, and names both in one warning', async () => {
    const comments = [own404()]
    const { api } = fakeGitHub(comments, {
      create: () => Promise.reject(Object.assign(new Error('no'), { status: 403, response: {} }))
    })
    const { c, log } = companion(api)
    await c.find(within)
    comments.length = 0
    expect(await c.finish('done', within)).toBeUndefined()
    expect(log.warning).toHaveLength(1)
    expect(log.warning[0]).toMatch(
      /^The status comment on pull request #1 was deleted, and a new one could not be written: GitHub refused \(HTTP 403\)/
    )
  })
})
