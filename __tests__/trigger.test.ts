import { describe, expect, it } from '@jest/globals'
import { named, type Event } from '../src/given/event.js'
import { codeCommit, codePull } from '../src/run/change/code.js'
import { parsePullLink, parseRepoLink, pullName } from '../src/given/ref.js'

const HEAD = 'a'.repeat(40)
const AFTER = 'b'.repeat(40)
const SHA = 'c'.repeat(40)
const ZERO = '0'.repeat(40)

function event(name: string, more: Partial<Event> = {}): Event {
  return {
    ...named(name),
    owner: 'acme',
    repo: 'app',
    sha: SHA,
    serverUrl: 'https://github.com',
    deleted: false,
    commits: [],
    ...more
  }
}
const pr = { number: 7, title: 't', body: '', headSha: HEAD }

describe('codeCommit: where a check about the change belongs', () => {
  it.each<[string, Event, string | undefined]>([
    [
      'pull_request: the head, not the test merge commit',
      event('pull_request', { pullRequest: pr }),
      HEAD
    ],
    ['pull_request_target: the head', event('pull_request_target', { pullRequest: pr }), HEAD],
    ['push: the pushed commit', event('push', { after: AFTER }), AFTER],
    ['push that deleted a branch: GITHUB_SHA', event('push', { after: ZERO }), SHA],
    ['workflow_dispatch: GITHUB_SHA', event('workflow_dispatch'), SHA],
    ['schedule: GITHUB_SHA', event('schedule'), SHA],
    [
      'issue_comment on a pull request: unknown (its head is not in the payload)',
      event('issue_comment', { pullRequest: { ...pr, headSha: undefined } }),
      undefined
    ]
  ])('%s', (_name, e, sha) => {
    expect(codeCommit(e)?.sha).toBe(sha)
  })

  it('names the code pull request only for events about one', () => {
    expect(codePull(event('pull_request', { pullRequest: pr }))).toEqual({
      owner: 'acme',
      repo: 'app',
      number: 7,
      headSha: HEAD
    })
    expect(codePull(event('push', { pullRequest: pr }))).toBeUndefined()
  })
})

describe('parsePullLink: a docs pull request on this GitHub', () => {
  it.each<[string, string, string | undefined]>([
    ['https://github.com/acme/docs/pull/110', 'https://github.com', 'acme/docs#110'],
    ['https://github.com/acme/docs/pull/110/files', 'https://github.com', undefined],
    ['https://github.com/acme/docs/pull/110/', 'https://github.com', undefined],
    ['https://github.com/acme/docs/pull/110?x=1', 'https://github.com', undefined],
    ['https://github.com/acme/docs/pull/110#top', 'https://github.com', undefined],
    ['https://github.com/acme/do%63s/pull/110', 'https://github.com', undefined],
    ['https://GitHub.com/acme/docs/pull/110', 'https://github.com', undefined],
    ['https://github.com:443/acme/docs/pull/110', 'https://github.com', undefined],
    ['https://github.com/acme/./docs/pull/110', 'https://github.com', undefined],
    ['https://github.com\\acme/docs/pull/110', 'https://github.com', undefined],
    ['https://ghes.example.com/acme/docs/pull/3', 'https://ghes.example.com/', 'acme/docs#3'],
    ['https://evil.example/acme/docs/pull/110', 'https://github.com', undefined],
    ['http://github.com/acme/docs/pull/110', 'https://github.com', undefined],
    ['https://user:pw@github.com/acme/docs/pull/110', 'https://github.com', undefined],
    ['https://github.com/acme/docs/issues/110', 'https://github.com', undefined],
    ['https://github.com/acme/docs/pull/0', 'https://github.com', undefined],
    ['https://github.com/acme/docs/pull/110/files/x', 'https://github.com', undefined],
    ['https://github.com/acme/../pull/110', 'https://github.com', undefined],
    ['not a url', 'https://github.com', undefined]
  ])('%s on %s', (link, server, name) => {
    const ref = parsePullLink(link, server)
    expect(ref ? pullName(ref) : undefined).toBe(name)
  })
})

describe('parseRepoLink: a job’s docs repository on this GitHub', () => {
  const server = 'https://github.com'
  it.each([
    ['https://github.com/acme/docs', { owner: 'acme', repo: 'docs' }],
    ['https://github.com/acme/docs.git', { owner: 'acme', repo: 'docs' }]
  ])('reads %s', (link, ref) => {
    expect(parseRepoLink(link, server)).toEqual(ref)
  })

  it.each([
    'https://evil.example/acme/docs',
    'https://token@github.com/acme/docs',
    'https://github.com/acme/docs/pull/1',
    'https://github.com/acme/docs?x=1',
    'https://github.com/acme/docs/',
    'https://github.com/acme/docs#readme',
    'https://github.com/%61cme/docs',
    'https://github.com/acme/docs\u200b',
    'https://github.com/acme',
    'https://github.com/acme/..',
    'not a link'
  ])('refuses %s', (link) => {
    expect(parseRepoLink(link, server)).toBeUndefined()
  })

  it('follows a server with a path, as GitHub Enterprise Server may have', () => {
    expect(parseRepoLink('https://ghe.example/git/acme/docs', 'https://ghe.example/git')).toEqual({
      owner: 'acme',
      repo: 'docs'
    })
  })
})
