// What makes a pull request comment a `/docs` command, as a table of named cases and as
// properties: no bot, no edited or deleted comment, no comment on an issue and no lookalike is
// ever a command, whatever its text.
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { isBot, mayCommand, readCommand, type CommandComment } from '../src/command/parse.js'

const person = (body: string, more: Partial<CommandComment> = {}): CommandComment => ({
  action: 'created',
  onPullRequest: true,
  body,
  login: 'octocat',
  type: 'User',
  ...more
})

describe('a /docs command', () => {
  it.each([
    ['/docs', ''],
    ['/docs Also document the --retries flag', 'Also document the --retries flag'],
    ['   /docs   Also document it  ', 'Also document it'],
    ['/docs\nAlso document\nthe --retries flag', 'Also document\nthe --retries flag'],
    ['\n/docs\tplease', 'please']
  ])('%j asks for %j', (body, request) => {
    expect(readCommand(person(body))).toEqual({ kind: 'command', request, login: 'octocat' })
  })

  it.each([
    ['please /docs', 'does not start with /docs'],
    ['/docsify', 'does not start with /docs'],
    ['/DOCS', 'does not start with /docs'],
    ['> /docs quoted', 'does not start with /docs'],
    ['`/docs`', 'does not start with /docs'],
    ['LGTM', 'does not start with /docs'],
    ['', 'does not start with /docs']
  ])('%j is no command', (body, why) => {
    const read = readCommand(person(body))
    expect(read.kind).toBe('ignored')
    expect(read.kind === 'ignored' && read.why).toContain(why)
  })

  it.each([
    ['edited', { action: 'edited' }, 'edited'],
    ['deleted', { action: 'deleted' }, 'deleted'],
    ['on an issue', { onPullRequest: false }, 'on an issue'],
    ['by a Bot account', { type: 'Bot', login: 'renovate' }, 'bot'],
    ['by a [bot] login typed User', { login: 'github-actions[bot]' }, 'bot'],
    ['by the action itself', { login: 'github-actions[bot]', type: 'Bot' }, 'bot']
  ])('a /docs comment %s is no command', (_, more, why) => {
    const read = readCommand(person('/docs Also document it', more))
    expect(read.kind).toBe('ignored')
    expect(read.kind === 'ignored' && read.why).toContain(why)
  })
})

const anyComment: fc.Arbitrary<CommandComment> = fc.record({
  action: fc.constantFrom('created', 'edited', 'deleted', undefined),
  onPullRequest: fc.boolean(),
  body: fc.oneof(
    fc.string(),
    fc.string().map((rest) => `/docs ${rest}`),
    fc.string().map((rest) => `  /docs\n${rest}`)
  ),
  login: fc.oneof(
    fc.constantFrom('octocat', 'github-actions[bot]', 'mintlify[bot]', 'Dependabot[BOT]'),
    fc.stringMatching(/^[a-z][a-z0-9-]{0,12}(\[bot\])?$/)
  ),
  type: fc.constantFrom('User', 'Bot', 'Organization', undefined)
})

describe('the command rules (properties)', () => {
  it('only a created comment on a pull request by a person, starting with /docs, is a command', () => {
    fc.assert(
      fc.property(anyComment, (comment) => {
        const read = readCommand(comment)
        if (read.kind === 'ignored') return true
        return (
          comment.action === 'created' &&
          comment.onPullRequest &&
          !isBot(comment.login, comment.type) &&
          /^\s*\/docs(\s|$)/.test(comment.body) &&
          read.request === read.request.trim() &&
          comment.body.includes(read.request)
        )
      }),
      { numRuns: 2000 }
    )
  })

  it('a bot never commands, whatever it writes', () => {
    fc.assert(
      fc.property(anyComment, fc.string(), (comment, rest) => {
        const bot = { ...comment, action: 'created', onPullRequest: true, body: `/docs ${rest}` }
        return (
          readCommand({ ...bot, type: 'Bot' }).kind === 'ignored' &&
          readCommand({ ...bot, login: `${comment.login ?? 'x'}[bot]` }).kind === 'ignored'
        )
      })
    )
  })
})

describe('who may command', () => {
  it.each([
    [{ role: 'admin', permission: 'admin' }, true],
    [{ role: 'maintain', permission: 'write' }, true],
    [{ role: 'write', permission: 'write' }, true],
    [{ role: 'triage', permission: 'read' }, false],
    [{ role: 'read', permission: 'read' }, false],
    [{ permission: 'none' }, false],
    // A custom role counts as the legacy permission it is built on.
    [{ role: 'docs-editor', permission: 'write' }, true],
    [{ role: 'auditor', permission: 'read' }, false],
    // maintain shows as write in the legacy field, triage as read: role_name decides.
    [{ role: 'triage', permission: 'write' }, false],
    [{}, false],
    [undefined, false]
  ])('%j may command: %s', (permission, may) => {
    expect(mayCommand(permission)).toBe(may)
  })
})
