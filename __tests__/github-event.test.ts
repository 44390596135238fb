import { afterAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { closedPull, eventPullRequest, occasionOf, ZERO_SHA } from '../src/given/event.js'
import { readEvent } from '../src/given/read-event.js'

const ZERO = '0'.repeat(40)
const BASE = 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e'
const HEAD = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821'
const INITIAL = '6113728f27ae82c7b1a177c8d03f9e96e0adf246'
const RUN_SHA = '1234567890abcdef1234567890abcdef12345678'

const scratch = mkdtempSync(join(tmpdir(), 'github-event-test-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function fixture(name: string): string {
  return fileURLToPath(new URL(`../__fixtures__/events/${name}`, import.meta.url))
}

/** The variables a runner sets for `name`, with the payload in the fixture `file`. */
function runner(
  name: string,
  file: string,
  repository = 'Codertocat/Hello-World',
  more: NodeJS.ProcessEnv = {}
): NodeJS.ProcessEnv {
  return {
    GITHUB_EVENT_NAME: name,
    GITHUB_EVENT_PATH: fixture(file),
    GITHUB_REPOSITORY: repository,
    GITHUB_SHA: RUN_SHA,
    ...more
  }
}

/** A payload file with `content` exactly. */
function payloadFile(content: string): string {
  const path = join(scratch, `payload-${Math.random().toString(36).slice(2)}.json`)
  writeFileSync(path, content)
  return path
}

function withPayload(name: string, payload: unknown, more: NodeJS.ProcessEnv = {}) {
  return readEvent({
    GITHUB_EVENT_NAME: name,
    GITHUB_REPOSITORY: 'acme/widgets',
    GITHUB_EVENT_PATH: payloadFile(JSON.stringify(payload)),
    ...more
  })
}

const DRY_RUN_MESSAGE =
  'Add a --dry-run flag to deploy\n\n' +
  'Lists the files a deploy would upload and stops before uploading any.'

describe('occasionOf: the event name, read once', () => {
  // The names GitHub gives GITHUB_EVENT_NAME (docs.github.com, "Events that trigger workflows").
  it.each([
    ['push', 'push'],
    ['pull_request', 'pull-request'],
    ['pull_request_target', 'pull-request'],
    ['pull_request_review', 'review'],
    ['pull_request_review_comment', 'review'],
    ['pull_request_review_thread', 'review'],
    ['issue_comment', 'comment'],
    ['schedule', 'schedule'],
    ['workflow_dispatch', 'manual'],
    ['release', 'other'],
    ['repository_dispatch', 'other'],
    ['', 'other']
  ])('%s is %s', (name, occasion) => {
    expect(occasionOf(name)).toBe(occasion)
  })

  it('reads any other name, an Object property included, as other (property)', () => {
    const known = ['push', 'issue_comment', 'schedule', 'workflow_dispatch']
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.constantFrom('constructor', 'toString', '__proto__')),
        (name) => {
          fc.pre(!known.includes(name) && !name.startsWith('pull_request'))
          expect(occasionOf(name)).toBe('other')
        }
      )
    )
  })
})

describe('readEvent: push payloads', () => {
  it('reads an ordinary push', () => {
    const event = readEvent(runner('push', 'push.json', undefined, { GITHUB_SHA: HEAD }))
    expect(event).toEqual({
      name: 'push',
      occasion: 'push',
      owner: 'Codertocat',
      repo: 'Hello-World',
      ref: 'refs/heads/changes',
      sha: HEAD,
      serverUrl: 'https://github.com',
      runUrl: undefined,
      before: BASE,
      after: HEAD,
      defaultBranch: 'master',
      deleted: false,
      pullRequest: undefined,
      commits: [{ sha: HEAD, message: DRY_RUN_MESSAGE, author: 'Codertocat', login: 'Codertocat' }],
      compareUrl: 'https://github.com/Codertocat/Hello-World/compare/f95f852bd8fc...ec26c3e57ca3'
    })
  })

  it('reads a new branch: before is the zero sha', () => {
    const event = readEvent(runner('push', 'push-created-branch.json'))
    expect(event).toMatchObject({
      name: 'push',
      ref: 'refs/heads/master',
      before: ZERO,
      after: INITIAL,
      deleted: false,
      pullRequest: undefined,
      commits: [{ sha: INITIAL, message: 'Initial commit', author: 'Codertocat' }]
    })
    expect(ZERO_SHA.test(event?.before ?? '')).toBe(true)
  })

  it('reads a new tag, taking the head commit when the payload lists no commits', () => {
    const event = readEvent(runner('push', 'push-created-tag.json'))
    expect(event).toMatchObject({
      ref: 'refs/tags/simple-tag',
      before: ZERO,
      after: INITIAL,
      deleted: false,
      commits: [{ sha: INITIAL, message: 'Adding a .gitignore file', author: 'Codertocat' }],
      compareUrl: 'https://github.com/Codertocat/Hello-World/compare/simple-tag'
    })
  })

  it('reads a deleted tag as deleted, with no commits', () => {
    const event = readEvent(runner('push', 'push-deleted-tag.json'))
    expect(event).toMatchObject({
      ref: 'refs/tags/simple-tag',
      before: INITIAL,
      after: ZERO,
      deleted: true,
      pullRequest: undefined,
      commits: []
    })
  })

  it('prefers GITHUB_REF to the payload ref', () => {
    const event = readEvent(runner('push', 'push.json', undefined, { GITHUB_REF: 'refs/heads/x' }))
    expect(event?.ref).toBe('refs/heads/x')
  })

  it('counts deleted only for push events', () => {
    expect(withPayload('push', { deleted: true })?.deleted).toBe(true)
    expect(withPayload('create', { deleted: true })?.deleted).toBe(false)
    expect(withPayload('pull_request', { deleted: true })?.deleted).toBe(false)
    expect(withPayload('push', { deleted: 'yes' })?.deleted).toBe(false)
  })
})

describe('readEvent: pull request payloads', () => {
  const PULL = {
    number: 2,
    title: 'Update the README with new information.',
    body: 'This is a pretty simple change that we need to pull into master.',
    url: 'https://github.com/Codertocat/Hello-World/pull/2',
    headSha: HEAD
  }

  it('reads an opened pull request from the same repository', () => {
    const event = readEvent(runner('pull_request', 'pull_request-opened.json'))
    expect(event).toMatchObject({
      name: 'pull_request',
      owner: 'Codertocat',
      repo: 'Hello-World',
      sha: RUN_SHA,
      deleted: false,
      commits: []
    })
    expect(event?.pullRequest).toEqual({ ...PULL, author: 'Codertocat', fork: undefined })
  })

  it('reads a synchronize, with its before and after', () => {
    const event = readEvent(runner('pull_request', 'pull_request-synchronize.json'))
    expect(event).toMatchObject({ before: BASE, after: HEAD, deleted: false, commits: [] })
    expect(event?.pullRequest).toEqual({ ...PULL, author: 'Codertocat', fork: undefined })
  })

  it('names the fork a pull request comes from', () => {
    const event = readEvent(runner('pull_request', 'pull_request-opened-fork.json'))
    expect(event?.pullRequest).toEqual({ ...PULL, author: 'hubot', fork: 'hubot/Hello-World' })
  })

  it('tells a pull request closed without merging from a merged one', () => {
    const closed = readEvent(runner('pull_request', 'pull_request-closed.json'))
    const merged = readEvent(runner('pull_request_target', 'pull_request-closed-merged.json'))
    expect(closed).toMatchObject({ action: 'closed', pullRequest: { number: 2, merged: false } })
    expect(closed && closedPull(closed)).toBe('closed')
    expect(merged && closedPull(merged)).toBe('merged')
  })

  it('says nothing of merging for activity other than closed', () => {
    const opened = readEvent(runner('pull_request', 'pull_request-opened.json'))
    expect(opened?.action).toBe('opened')
    expect(opened?.pullRequest?.merged).toBeUndefined()
    expect(opened && closedPull(opened)).toBeUndefined()
    const pushed = readEvent(runner('push', 'pull_request-closed.json'))
    expect(pushed && closedPull(pushed)).toBeUndefined()
  })

  it('reads the same payload for pull_request_target', () => {
    const event = readEvent(runner('pull_request_target', 'pull_request-opened-fork.json'))
    expect(event?.name).toBe('pull_request_target')
    expect(event?.pullRequest?.fork).toBe('hubot/Hello-World')
  })

  it('compares the head repository with GITHUB_REPOSITORY when the base has no name', () => {
    const pr = { number: 3, head: { repo: { full_name: 'hubot/widgets' } } }
    expect(withPayload('pull_request', { pull_request: pr })?.pullRequest?.fork).toBe(
      'hubot/widgets'
    )
    const same = { number: 3, head: { repo: { full_name: 'acme/widgets' } } }
    expect(withPayload('pull_request', { pull_request: same })?.pullRequest?.fork).toBeUndefined()
  })

  it('reads a pull request without a title, body or author as empty', () => {
    const event = withPayload('pull_request', {
      pull_request: { number: 9, title: null, body: null, user: null }
    })
    expect(event?.pullRequest).toEqual({
      number: 9,
      title: '',
      body: '',
      url: undefined,
      author: undefined,
      headSha: undefined,
      fork: undefined
    })
  })

  it('has no pull request when the number is missing or not a number', () => {
    for (const number of [undefined, '2', -1, 1.5]) {
      expect(withPayload('pull_request', { pull_request: { number } })?.pullRequest).toBeUndefined()
    }
  })
})

describe('readEvent: workflow_dispatch', () => {
  it('reads a manual run: the commit is GITHUB_SHA, no before, after or pull request', () => {
    const event = readEvent(
      runner('workflow_dispatch', 'workflow_dispatch.json', 'octo-org/octo-repo', {
        GITHUB_REF: 'refs/heads/main'
      })
    )
    expect(event).toEqual({
      name: 'workflow_dispatch',
      occasion: 'manual',
      owner: 'octo-org',
      repo: 'octo-repo',
      ref: 'refs/heads/main',
      sha: RUN_SHA,
      serverUrl: 'https://github.com',
      runUrl: undefined,
      before: undefined,
      after: undefined,
      deleted: false,
      pullRequest: undefined,
      commits: [],
      compareUrl: undefined
    })
  })

  it('takes the ref from the payload when GITHUB_REF is not set', () => {
    const env = runner('workflow_dispatch', 'workflow_dispatch.json', 'octo-org/octo-repo')
    expect(readEvent(env)?.ref).toBe('refs/heads/main')
  })

  it('uses the head commit only for push events', () => {
    const head = { id: HEAD, message: 'x', author: { name: 'Mona' } }
    expect(withPayload('workflow_dispatch', { head_commit: head })?.commits).toEqual([])
    expect(withPayload('push', { head_commit: head })?.commits).toEqual([
      { sha: HEAD, message: 'x', author: 'Mona' }
    ])
  })
})

describe('readEvent: issue_comment', () => {
  it('reads a comment on a pull request as that pull request, with the comment', () => {
    const event = readEvent(
      runner('issue_comment', 'issue_comment-created-pull_request.json', undefined, {
        GITHUB_REF: 'refs/heads/master'
      })
    )
    expect(event).toMatchObject({
      name: 'issue_comment',
      ref: 'refs/heads/master',
      sha: RUN_SHA,
      deleted: false,
      commits: [],
      comment: {
        body: "You are totally right! I'll get this fixed right away.",
        author: 'Codertocat',
        url: 'https://github.com/Codertocat/Hello-World/pull/2#issuecomment-492700400'
      }
    })
    expect(event?.pullRequest).toEqual({
      number: 2,
      title: 'Update the README with new information.',
      body: 'This is a pretty simple change that we need to pull into master.',
      url: 'https://github.com/Codertocat/Hello-World/pull/2',
      author: 'Codertocat',
      headSha: undefined,
      fork: undefined
    })
    expect(event && eventPullRequest(event)?.number).toBe(2)
  })

  it('reads a comment on an issue with the comment and no pull request', () => {
    const event = readEvent(runner('issue_comment', 'issue_comment-created.json'))
    expect(event?.pullRequest).toBeUndefined()
    expect(event && eventPullRequest(event)).toBeUndefined()
    expect(event?.comment?.body).toBe("You are totally right! I'll get this fixed right away.")
  })

  it('reads an issue or a comment only for issue_comment events', () => {
    const payload = {
      issue: { number: 4, title: 'T', pull_request: { html_url: 'https://x/pull/4' } },
      comment: { body: 'hi' }
    }
    const event = withPayload('issues', payload)
    expect(event?.pullRequest).toBeUndefined()
    expect(event?.comment).toBeUndefined()
  })

  it('has no pull request when the issue number is not a number', () => {
    const payload = { issue: { number: 'four', pull_request: {} }, comment: { body: 'hi' } }
    expect(withPayload('issue_comment', payload)?.pullRequest).toBeUndefined()
  })
})

describe('readEvent: the environment', () => {
  it.each([undefined, '', 'acme', 'acme/', '/widgets'])(
    'is undefined outside a workflow (GITHUB_REPOSITORY %j)',
    (repository) => {
      const env = runner('push', 'push.json')
      env.GITHUB_REPOSITORY = repository
      expect(readEvent(env)).toBeUndefined()
    }
  )

  it('builds the run link on the server GitHub names, without a trailing slash', () => {
    const event = readEvent({
      GITHUB_REPOSITORY: 'acme/widgets',
      GITHUB_SERVER_URL: 'https://ghe.example.com//',
      GITHUB_RUN_ID: '42'
    })
    expect(event?.serverUrl).toBe('https://ghe.example.com')
    expect(event?.runUrl).toBe('https://ghe.example.com/acme/widgets/actions/runs/42')
  })

  const empty = {
    name: 'push',
    occasion: 'push',
    owner: 'acme',
    repo: 'widgets',
    ref: undefined,
    sha: undefined,
    serverUrl: 'https://github.com',
    runUrl: undefined,
    before: undefined,
    after: undefined,
    deleted: false,
    pullRequest: undefined,
    commits: [],
    compareUrl: undefined
  }

  it('reads no payload file as an empty payload, without an error', () => {
    const event = readEvent({ GITHUB_EVENT_NAME: 'push', GITHUB_REPOSITORY: 'acme/widgets' })
    expect(event).toEqual(empty)
    expect(event?.payloadError).toBeUndefined()
  })

  it.each<[string, string, string]>([
    ['a missing payload file', '/nonexistent/event.json', 'there is no such file'],
    ['a directory', '/', 'it is a directory'],
    ['a file that is not JSON', payloadFile('{"before": '), 'it is not JSON'],
    ['an empty file', payloadFile(''), 'it is not JSON'],
    ['JSON null', payloadFile('null'), 'it is not a JSON object'],
    ['a JSON array', payloadFile('[{"deleted": true}]'), 'it is not a JSON object'],
    ['a JSON string', payloadFile('"push"'), 'it is not a JSON object']
  ])('reads %s as an empty payload, and says why', (_what, path, why) => {
    const env: NodeJS.ProcessEnv = {
      GITHUB_EVENT_NAME: 'push',
      GITHUB_REPOSITORY: 'acme/widgets',
      GITHUB_EVENT_PATH: path
    }
    expect(readEvent(env)).toEqual({ ...empty, payloadError: why })
  })

  it('reads a payload of another shape without an error', () => {
    expect(withPayload('push', { anything: [1, 2] })?.payloadError).toBeUndefined()
  })

  it('reads fields of the wrong type as missing, and keeps the rest', () => {
    const event = withPayload('push', {
      before: 123,
      after: HEAD,
      ref: ['refs/heads/main'],
      compare: { url: 'x' },
      commits: 'many',
      head_commit: { id: HEAD, message: 'Head', author: 'not an object' }
    })
    expect(event).toMatchObject({
      before: undefined,
      after: HEAD,
      ref: undefined,
      compareUrl: undefined
    })
    // Neither the commit list nor the head commit (its author is not an object) can be used.
    expect(event?.commits).toEqual([])
  })

  it('skips commits without an id and reads a missing message or author as empty', () => {
    const event = withPayload('push', {
      commits: [
        { message: 'no id' },
        { id: 'a1', message: null, author: null },
        { id: 'b2', message: 'Two', author: { name: 'Mona' } }
      ]
    })
    expect(event?.commits).toEqual([
      { sha: 'a1', message: '', author: undefined },
      { sha: 'b2', message: 'Two', author: 'Mona' }
    ])
  })
})
