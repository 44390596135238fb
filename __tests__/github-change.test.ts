import { afterEach, describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { fileURLToPath } from 'node:url'
import { MAX_PULL_FILES, readChange, type Change } from '../src/run/change/change.js'
import type { Event } from '../src/given/event.js'
import { readEvent } from '../src/given/read-event.js'
import type { ChangedFile, Comparison, GitHubApi } from '../src/clients/github/api.js'
import type { Settings } from '../src/given/inputs.js'
import { preparePrompt } from '../src/run/change/prompt.js'
import type { Within } from '../src/base/runtime.js'
import { addSecret, clearSecrets } from '../src/base/secrets/redact.js'

afterEach(() => clearSecrets())

const BASE = 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e'
const HEAD = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821'
const INITIAL = '6113728f27ae82c7b1a177c8d03f9e96e0adf246'
const RUN_SHA = '1234567890abcdef1234567890abcdef12345678'
const PULL_URL = 'https://github.com/Codertocat/Hello-World/pull/2'
const COMPARE_URL = 'https://github.com/Codertocat/Hello-World/compare/f95f852bd8fc...ec26c3e57ca3'

/** The event a runner would describe with the fixture payload `file`. */
function event(name: string, file: string, more: NodeJS.ProcessEnv = {}): Event {
  const found = readEvent({
    GITHUB_EVENT_NAME: name,
    GITHUB_EVENT_PATH: fileURLToPath(new URL(`../__fixtures__/events/${file}`, import.meta.url)),
    GITHUB_REPOSITORY: file.startsWith('workflow_dispatch')
      ? 'octo-org/octo-repo'
      : 'Codertocat/Hello-World',
    GITHUB_SHA: RUN_SHA,
    ...more
  })
  if (!found) throw new Error('the fixture environment names no repository')
  return found
}

const PUSH = event('push', 'push.json')
const NEW_BRANCH = event('push', 'push-created-branch.json')
const NEW_TAG = event('push', 'push-created-tag.json')
const OPENED = event('pull_request', 'pull_request-opened.json')
const SYNCHRONIZE = event('pull_request', 'pull_request-synchronize.json')
const FORK = event('pull_request', 'pull_request-opened-fork.json')
const TARGET = event('pull_request_target', 'pull_request-opened-fork.json')
const DISPATCH = event('workflow_dispatch', 'workflow_dispatch.json')
const COMMENTED = event('issue_comment', 'issue_comment-created-pull_request.json')
const ISSUE_COMMENT = event('issue_comment', 'issue_comment-created.json')

function file(path: string, patch = '@@ -1 +1 @@\n-a\n+b'): ChangedFile {
  return { path, status: 'modified', additions: 1, deletions: 1, patch }
}

const FILES = [file('src/deploy.ts'), file('docs/deploy.md')]
const COMMITS = [{ sha: HEAD, message: 'Add a --dry-run flag to deploy', author: 'Codertocat' }]

type Method = keyof GitHubApi
type Answers = {
  [M in Method]?: Awaited<ReturnType<GitHubApi[M]>> | { throws: unknown }
}

interface Recorder extends GitHubApi {
  readonly calls: { method: Method; args: unknown[] }[]
}

/**
 * A GitHub that records every call and answers with `answers[method]`: a value, or something to
 * throw. A method without an answer throws, so an unexpected call fails the test visibly.
 */
function fakeGitHub(answers: Answers = {}): Recorder {
  const calls: Recorder['calls'] = []
  const answer =
    (method: Method) =>
    async (...args: unknown[]): Promise<unknown> => {
      calls.push({ method, args })
      const given: unknown = answers[method]
      if (given === undefined) throw new Error(`unexpected call to ${method}`)
      if (typeof given === 'object' && given !== null && 'throws' in given) throw given.throws
      return given
    }
  // Every method of GitHubApi, present and future, answers through `answer`.
  return new Proxy({ calls } as Recorder, {
    get: (target, name) =>
      name === 'calls' ? target.calls : name === 'then' ? undefined : answer(name as Method)
  })
}

/** What the change is when nothing could be read from GitHub. */
function fromPayload(e: Event): Change {
  return {
    url:
      e.name.startsWith('pull_request') || e.name === 'issue_comment'
        ? e.pullRequest?.url
        : e.compareUrl,
    commits: e.commits,
    totalCommits:
      e.name.startsWith('pull_request') || e.name === 'issue_comment'
        ? undefined
        : e.commits.length,
    files: undefined,
    partial: false,
    source: 'the event payload'
  }
}

const signal = new AbortController().signal

describe('readChange: which request', () => {
  it('compares before with after for a push, once', async () => {
    const github = fakeGitHub({
      compare: { url: 'https://github.com/c/1', commits: COMMITS, totalCommits: 1, files: FILES }
    })
    const reading = await readChange(PUSH, github, signal)
    expect(github.calls).toEqual([
      { method: 'compare', args: ['Codertocat', 'Hello-World', BASE, HEAD, signal] }
    ])
    expect(reading).toEqual({
      change: {
        url: 'https://github.com/c/1',
        commits: COMMITS,
        totalCommits: 1,
        files: FILES,
        partial: false,
        source: 'the comparison of f95f852...ec26c3e'
      },
      requests: 1
    })
  })

  it('keeps the payload link when the comparison gives none', async () => {
    const github = fakeGitHub({ compare: { commits: COMMITS, totalCommits: 1, files: FILES } })
    const { change } = await readChange(PUSH, github, signal)
    expect(change.url).toBe(COMPARE_URL)
  })

  it('takes the commits from the comparison, even none: a count GitHub gave is not padded', async () => {
    const github = fakeGitHub({ compare: { commits: [], totalCommits: 0, files: [] } })
    const { change } = await readChange(PUSH, github, signal)
    expect(change).toMatchObject({ commits: [], totalCommits: 0, files: [], partial: false })
  })

  it('calls 300 compared files partial: GitHub lists no more', async () => {
    const many = Array.from({ length: 300 }, (_, i) => file(`f${i}.md`))
    const github = fakeGitHub({ compare: { commits: COMMITS, files: many } })
    expect((await readChange(PUSH, github, signal)).change.partial).toBe(true)
    const fewer = fakeGitHub({ compare: { commits: COMMITS, files: many.slice(1) } })
    expect((await readChange(PUSH, fewer, signal)).change.partial).toBe(false)
  })

  const INITIAL_COMMIT: Comparison = {
    url: `https://github.com/Codertocat/Hello-World/commit/${INITIAL}`,
    commits: [{ sha: INITIAL, message: 'Initial commit', author: 'Codertocat' }],
    files: [file('README.md', '@@ -0,0 +1 @@\n+# Hello-World')]
  }

  it('reads the head commit of the default branch pushed for the first time: all there is', async () => {
    expect(NEW_BRANCH).toMatchObject({ ref: 'refs/heads/master', defaultBranch: 'master' })
    const github = fakeGitHub({ commit: INITIAL_COMMIT })
    const reading = await readChange(NEW_BRANCH, github, signal)
    expect(github.calls).toEqual([
      { method: 'commit', args: ['Codertocat', 'Hello-World', INITIAL, signal] }
    ])
    expect(reading).toEqual({
      change: {
        ...INITIAL_COMMIT,
        totalCommits: 1,
        partial: false,
        source: 'the head commit 6113728'
      },
      requests: 1
    })
  })

  it('reads the head commit of a new tag, but not as the whole push', async () => {
    const github = fakeGitHub({ commit: INITIAL_COMMIT })
    const reading = await readChange(NEW_TAG, github, signal)
    expect(github.calls.map((c) => c.method)).toEqual(['commit'])
    expect(reading.change).toMatchObject({ files: INITIAL_COMMIT.files, partial: true })
    expect(reading.change.totalCommits).toBeUndefined()
    expect(reading.warning).toBeUndefined()
  })

  it.each([
    ['the payload lists more commits', { commits: [...COMMITS, ...NEW_BRANCH.commits] }],
    ['the payload lists no commit', { commits: [] }]
  ])('calls a first push read from its head commit alone partial when %s', async (_, more) => {
    const github = fakeGitHub({ commit: INITIAL_COMMIT })
    const reading = await readChange({ ...NEW_BRANCH, ...more }, github, signal)
    expect(github.calls.map((c) => c.method)).toEqual(['commit'])
    expect(reading.change.partial).toBe(true)
    expect(reading.change.totalCommits).toBeUndefined()
  })

  it.each([
    ['opened', OPENED],
    ['synchronize (which has before and after too)', SYNCHRONIZE],
    ['opened from a fork', FORK],
    ['pull_request_target', TARGET],
    ['issue_comment on the pull request', COMMENTED]
  ])('lists the files of the pull request only: %s', async (_what, e) => {
    const github = fakeGitHub({ pullFiles: { files: FILES, complete: true, pages: 1 } })
    const reading = await readChange(e, github, signal)
    expect(github.calls).toEqual([
      {
        method: 'pullFiles',
        args: ['Codertocat', 'Hello-World', 2, MAX_PULL_FILES, signal]
      }
    ])
    expect(reading).toEqual({
      change: {
        url: PULL_URL,
        commits: [],
        files: FILES,
        partial: false,
        source: 'pull request #2'
      },
      requests: 1
    })
  })

  it('counts the pages of pull request files as requests, and says when some were not read', async () => {
    const github = fakeGitHub({ pullFiles: { files: FILES, complete: false, pages: 3 } })
    const reading = await readChange(OPENED, github, signal)
    expect(reading.requests).toBe(3)
    expect(reading.change.partial).toBe(true)
  })

  it('reads the commit the run is on for workflow_dispatch', async () => {
    const github = fakeGitHub({ commit: { commits: COMMITS, files: FILES } })
    const reading = await readChange(DISPATCH, github, signal)
    expect(github.calls).toEqual([
      { method: 'commit', args: ['octo-org', 'octo-repo', RUN_SHA, signal] }
    ])
    expect(reading).toEqual({
      change: {
        url: undefined,
        commits: COMMITS,
        totalCommits: 1,
        files: FILES,
        partial: false,
        source: 'the head commit 1234567'
      },
      requests: 1
    })
  })

  it('reads the commit the run is on for a pull request event without a pull request', async () => {
    const e = { ...OPENED, pullRequest: undefined }
    const github = fakeGitHub({ commit: { commits: COMMITS, files: FILES } })
    await readChange(e, github, signal)
    expect(github.calls).toEqual([
      { method: 'commit', args: ['Codertocat', 'Hello-World', RUN_SHA, signal] }
    ])
  })

  it('reads the commit the run is on for a comment on an issue', async () => {
    const github = fakeGitHub({ commit: { commits: COMMITS, files: FILES } })
    const reading = await readChange(ISSUE_COMMENT, github, signal)
    expect(github.calls).toEqual([
      { method: 'commit', args: ['Codertocat', 'Hello-World', RUN_SHA, signal] }
    ])
    expect(reading.change.source).toBe('the head commit 1234567')
  })

  it('makes no request when there is no commit to read', async () => {
    const github = fakeGitHub()
    const reading = await readChange({ ...DISPATCH, sha: undefined }, github, signal)
    expect(github.calls).toEqual([])
    expect(reading).toEqual({ change: fromPayload(DISPATCH), requests: 0 })
  })
})

/** A push that created the branch `feature` with three commits of which only the first is docs. */
const FEATURE_COMMITS = [
  { sha: 'a'.repeat(40), message: 'Document the guide', author: 'Codertocat' },
  { sha: 'b'.repeat(40), message: 'Tidy', author: 'Codertocat' },
  { sha: INITIAL, message: 'Rename a variable', author: 'Codertocat' }
]
const NEW_FEATURE: Event = {
  ...NEW_BRANCH,
  ref: 'refs/heads/feature',
  commits: FEATURE_COMMITS
}

describe('readChange: every commit of a push', () => {
  it('compares a new branch with the default branch, in one request', async () => {
    const files = [file('docs/guide.md'), file('src/a.ts')]
    const github = fakeGitHub({
      compare: { url: 'https://github.com/c/2', commits: FEATURE_COMMITS, totalCommits: 3, files }
    })
    const reading = await readChange(NEW_FEATURE, github, signal)
    expect(github.calls).toEqual([
      { method: 'compare', args: ['Codertocat', 'Hello-World', 'master', INITIAL, signal] }
    ])
    expect(reading).toEqual({
      change: {
        url: 'https://github.com/c/2',
        commits: FEATURE_COMMITS,
        totalCommits: 3,
        files,
        partial: false,
        source: 'the comparison of master...6113728'
      },
      requests: 1
    })
  })

  it('reads a new branch made at a commit already pushed as nothing new, not as its head commit', async () => {
    const github = fakeGitHub({ compare: { commits: [], totalCommits: 0, files: [] } })
    const reading = await readChange({ ...NEW_FEATURE, commits: [] }, github, signal)
    expect(reading.change).toMatchObject({ commits: [], files: [], partial: false })
  })

  it.each([
    ['fewer commits than total_commits', { totalCommits: 300 }, 300],
    ['250 commits and no count', { totalCommits: undefined }, undefined]
  ])('calls a comparison listing %s partial', async (_, more, total) => {
    const commits = Array.from({ length: 250 }, (_, i) => ({
      sha: i.toString(16).padStart(40, '0'),
      message: `Commit ${i}`
    }))
    const github = fakeGitHub({ compare: { commits, files: [file('a.md')], ...more } })
    const { change } = await readChange(PUSH, github, signal)
    expect(change.partial).toBe(true)
    expect(change.totalCommits).toBe(total)
    expect(change.commits).toHaveLength(250)
  })

  it('does not count fewer than 250 listed commits without a count as partial', async () => {
    const github = fakeGitHub({ compare: { commits: COMMITS, files: FILES } })
    const { change } = await readChange(PUSH, github, signal)
    expect(change).toMatchObject({ totalCommits: 1, partial: false })
  })
})

describe('readChange: a comparison that is gone', () => {
  const HEAD_COMMIT: Comparison = { commits: COMMITS, files: [file('src/deploy.ts')] }

  it('says the earlier commit is gone after a 404, and reads the head commit as part of the push', async () => {
    const github = fakeGitHub({ compare: { throws: httpError(404) }, commit: HEAD_COMMIT })
    const reading = await readChange(PUSH, github, signal)
    expect(github.calls.map((c) => [c.method, ...c.args.slice(2, -1)])).toEqual([
      ['compare', BASE, HEAD],
      ['commit', HEAD]
    ])
    expect(reading.requests).toBe(2)
    expect(reading.change).toEqual({
      url: COMPARE_URL,
      commits: COMMITS,
      totalCommits: undefined,
      files: HEAD_COMMIT.files,
      partial: true,
      source: 'the head commit ec26c3e'
    })
    const warning = reading.warning ?? ''
    expect(warning).toContain('GitHub answered 404 to comparing f95f852...ec26c3e')
    expect(warning).toContain('the commit before the push (f95f852) is gone')
    expect(warning).toContain('as after a force push')
    expect(warning).toContain('Only the head commit ec26c3e is read')
    expect(warning).not.toMatch(/permission|contents: read|github-token/)
    expect(warning).not.toContain('\n')
  })

  it('says a new branch shares no history with the default branch after a 404', async () => {
    const github = fakeGitHub({ compare: { throws: httpError(404) }, commit: HEAD_COMMIT })
    const reading = await readChange(NEW_FEATURE, github, signal)
    expect(reading.warning).toContain('GitHub answered 404 to comparing master...6113728')
    expect(reading.warning).toContain('shares no history with the default branch (master)')
    expect(reading.change.partial).toBe(true)
  })

  it('keeps the permission advice when the head commit cannot be read either', async () => {
    const github = fakeGitHub({
      compare: { throws: httpError(404) },
      commit: { throws: httpError(404) }
    })
    const reading = await readChange(PUSH, github, signal)
    expect(reading.requests).toBe(2)
    expect(reading.change).toEqual(fromPayload(PUSH))
    expect(reading.warning).toMatch(
      /^Could not read the changed files from GitHub: GitHub refused \(HTTP 404\): github-token needs the `contents: read`/
    )
  })

  it.each([401, 403])('reads nothing more after a %s: the token is refused', async (status) => {
    const github = fakeGitHub({ compare: { throws: httpError(status) }, commit: HEAD_COMMIT })
    const reading = await readChange(PUSH, github, signal)
    expect(github.calls.map((c) => c.method)).toEqual(['compare'])
    expect(reading.change).toEqual(fromPayload(PUSH))
    expect(reading.warning).not.toContain('gone')
  })
})

describe('readChange: without a token', () => {
  it.each([
    ['push', PUSH],
    ['new branch', NEW_BRANCH],
    ['pull request', FORK],
    ['workflow_dispatch', DISPATCH]
  ])('warns once and tells what the payload says: %s', async (_what, e) => {
    const reading = await readChange(e, undefined, signal)
    expect(reading.requests).toBe(0)
    expect(reading.change).toEqual(fromPayload(e))
    expect(reading.warning).toMatch(/^github-token is empty, so the changed files cannot be read/)
    expect(reading.warning).toContain('the event payload')
  })

  it('keeps the payload commits and link', async () => {
    const push = await readChange(PUSH, undefined, signal)
    expect(push.change.url).toBe(COMPARE_URL)
    expect(push.change.commits.map((c) => c.sha)).toEqual([HEAD])
    const pull = await readChange(OPENED, undefined, signal)
    expect(pull.change.url).toBe(PULL_URL)
  })
})

/** An error as Octokit throws it for an HTTP status. */
function httpError(status: number): Error {
  return Object.assign(new Error(`HTTP ${status}`), {
    name: 'HttpError',
    status,
    response: { headers: {} }
  })
}

describe('readChange: when GitHub fails', () => {
  const failures: [string, unknown, RegExp][] = [
    ['401', httpError(401), /github-token was not accepted \(HTTP 401\)/],
    ['403', httpError(403), /GitHub refused \(HTTP 403\): github-token needs the `PERMISSION`/],
    ['404', httpError(404), /GitHub refused \(HTTP 404\): github-token needs the `PERMISSION`/],
    ['429', httpError(429), /GitHub rate-limited github-token \(HTTP 429\)/],
    ['500', httpError(500), /GitHub answered HTTP 500/],
    ['503', httpError(503), /GitHub answered HTTP 503/],
    ['an abort', new DOMException('This operation was aborted', 'AbortError'), /in time/],
    ['a timeout', new DOMException('The operation timed out', 'TimeoutError'), /in time/],
    ['a network error', new TypeError('fetch failed'), /GitHub could not be reached: fetch failed/],
    ['a thrown string', 'boom', /GitHub could not be read: boom/]
  ]
  const reads: [string, Event, Method, string, string][] = [
    ['push', PUSH, 'compare', 'the changed files', 'contents: read'],
    ['new branch', NEW_BRANCH, 'commit', 'the changed files', 'contents: read'],
    ['dispatch', DISPATCH, 'commit', 'the changed files', 'contents: read'],
    ['pull request', OPENED, 'pullFiles', 'the files of pull request #2', 'pull-requests: read']
  ]
  // A comparison's 404 reads the head commit next (see "a comparison that is gone").
  const cases = reads.flatMap(([what, e, method, subject, permission]) =>
    failures
      .filter(([failure]) => !(method === 'compare' && failure === '404'))
      .map(
        ([failure, error, says]) =>
          [`${what}, ${failure}`, e, method, subject, permission, error, says] as const
      )
  )

  it.each(cases)(
    '%s: one warning, the payload as fallback, one request',
    async (_what, e, method, subject, permission, error, says) => {
      const github = fakeGitHub({ [method]: { throws: error } })
      const reading = await readChange(e, github, signal)
      expect(github.calls.map((c) => c.method)).toEqual([method])
      expect(reading.requests).toBe(1)
      expect(reading.change).toEqual(fromPayload(e))
      const warning = reading.warning ?? ''
      expect(warning.startsWith(`Could not read ${subject} from GitHub: `)).toBe(true)
      expect(warning).toMatch(new RegExp(says.source.replace('PERMISSION', permission)))
      expect(warning).toContain('The agent is told what the event payload says')
      expect(warning).not.toContain('\n')
      const other = permission === 'contents: read' ? 'pull-requests: read' : 'contents: read'
      expect(warning).not.toContain(other)
    }
  )

  it.each(['403', '404'])('%s names the permission to add to the job', async (status) => {
    const push = await readChange(
      PUSH,
      fakeGitHub({
        compare: { throws: httpError(Number(status)) },
        commit: { throws: httpError(Number(status)) }
      }),
      signal
    )
    expect(push.warning).toContain('list it under `permissions:` in the workflow')
    const pull = await readChange(
      FORK,
      fakeGitHub({ pullFiles: { throws: httpError(Number(status)) } }),
      signal
    )
    expect(pull.warning).toContain(
      'the `pull-requests: read` permission (list it under `permissions:`'
    )
    expect(pull.warning).toContain('private to it, as a fork can be')
  })

  it('quotes an unknown error on one line, without the API key', async () => {
    const key = 'mint_change_test_key_123'
    addSecret(key)
    const error = new Error(`connect failed\n::error::${key}`)
    const reading = await readChange(PUSH, fakeGitHub({ compare: { throws: error } }), signal)
    expect(reading.warning).not.toContain(key)
    expect(reading.warning).not.toContain('\n')
    expect(reading.warning).toContain('connect failed\\n')
  })

  it('never fails, whatever is thrown (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.anything(),
        fc.constantFrom(PUSH, NEW_BRANCH, NEW_FEATURE, NEW_TAG, OPENED, DISPATCH),
        async (thrown, e) => {
          const github = fakeGitHub({
            compare: { throws: thrown },
            commit: { throws: thrown },
            pullFiles: { throws: thrown }
          })
          const reading = await readChange(e, github, signal)
          // Two only when the comparison answered 404, and the head commit then failed too.
          expect(github.calls.length).toBeLessThanOrEqual(2)
          expect(reading.change).toEqual(fromPayload(e))
          expect(reading.warning).toMatch(/^Could not read .* from GitHub: /)
          expect(reading.requests).toBe(github.calls.length)
        }
      )
    )
  })
})

describe('preparePrompt: paths decides on what was read', () => {
  const settings = (paths: string[]) =>
    ({
      prompt: 'Document it',
      jobId: '',
      context: 'auto',
      contextMaxChars: 16_000,
      paths
    }) as Partial<Settings> as Settings
  const within: Within = (call) => call(signal)
  const quiet = () => {
    const lines: string[] = []
    const log = { info: (m: string) => lines.push(m), warning: (m: string) => lines.push(m) }
    return { lines, log: { ...log, debug: () => undefined } }
  }

  it('starts the job for a new branch whose earlier commit matches, though its head does not', async () => {
    // The whole branch, as the comparison with the default branch lists it.
    const github = fakeGitHub({
      compare: {
        commits: FEATURE_COMMITS,
        totalCommits: 3,
        files: [file('docs/guide.md'), file('src/a.ts')]
      },
      commit: { commits: COMMITS, files: [file('src/a.ts')] }
    })
    const { log } = quiet()
    const prepared = await preparePrompt(settings(['docs/**']), NEW_FEATURE, github, within, log)
    expect(prepared.skip).toBeUndefined()
    expect(github.calls.map((c) => c.method)).toEqual(['compare'])
    expect(prepared.prompt).toContain('docs/guide.md')
  })

  it('skips when the whole push was read and nothing matches', async () => {
    const github = fakeGitHub({
      compare: { commits: FEATURE_COMMITS, totalCommits: 3, files: [file('src/a.ts')] }
    })
    const prepared = await preparePrompt(
      settings(['docs/**']),
      NEW_FEATURE,
      github,
      within,
      quiet().log
    )
    expect(prepared.skip).toMatch(/^None of the 1 changed files matches paths/)
  })

  it.each([
    [
      'a comparison listing fewer commits than it counts',
      { compare: { commits: COMMITS, totalCommits: 400, files: [file('src/a.ts')] } }
    ],
    [
      'a comparison that is gone',
      {
        compare: { throws: httpError(404) },
        commit: { commits: COMMITS, files: [file('src/a.ts')] }
      }
    ]
  ])('does not skip on %s, and says why', async (_, answers) => {
    const { lines, log } = quiet()
    const prepared = await preparePrompt(
      settings(['docs/**']),
      PUSH,
      fakeGitHub(answers),
      within,
      log
    )
    expect(prepared.skip).toBeUndefined()
    expect(lines).toContain(
      'paths: none of the files read matches, but not every commit or file of the change ' +
        'could be read, so the job is not skipped.'
    )
  })
})
