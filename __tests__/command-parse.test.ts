// What makes a pull request comment a `/docs` command, as a table of named cases and as
// properties: no bot, no edited or deleted comment, no comment on an issue and no lookalike is
// ever a command, whatever its text.
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { isBot, mayCommand, readCommand, type CommandComment } from '../src/kinds/command/parse.js'

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
    ['/docs\tplease', 'please'],
    ['/docs\r\nAlso document it\r\n', 'Also document it']
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
    ['', 'does not start with /docs'],
    // Look-alikes: what Markdown shows as code, or /docs behind a character that hides.
    ['    /docs four spaces are code', 'does not start with /docs'],
    ['\t/docs', 'does not start with /docs'],
    ['\ufeff/docs', 'does not start with /docs'],
    ['\u00a0/docs', 'does not start with /docs'],
    ['\u2028/docs', 'does not start with /docs'],
    ['\u2029/docs', 'does not start with /docs'],
    ['\u200b/docs', 'does not start with /docs'],
    ['\u202e/docs', 'does not start with /docs'],
    ['\n/docs on the second line', 'does not start with /docs'],
    ['/docs\u00a0please', 'does not start with /docs'],
    ['/docs\u200b', 'does not start with /docs']
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
    ['by the action itself', { login: 'github-actions[bot]', type: 'Bot' }, 'bot'],
    ['by a [BOT] login in capitals typed User', { login: 'Renovate[BOT]' }, 'bot'],
    ['whose activity the payload leaves out', { action: undefined }, 'was changed, not created'],
    ['by no login the payload names', { login: undefined }, 'does not start with /docs'],
    ['by no login nor type', { login: undefined, type: undefined }, 'does not start with /docs']
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
          /^ {0,3}\/docs([ \t\r\n]|$)/.test(comment.body) &&
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

/**
 * What may stand before `/docs` and make a look-alike: white space other than up to three ASCII
 * spaces (Markdown shows four as code), the characters that hide (a byte-order mark, zero-width
 * and bidi controls), line breaks (a command on a later line), and marks a person could misread.
 */
const HIDING = [
  '\ufeff',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\u061c',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '\u0085',
  '\u1680',
  '\u2000',
  '\u2007',
  '\u3000',
  '\u180e',
  '>',
  '`',
  'x'
]

/** A prefix that makes a look-alike: four or more spaces, or any of `HIDING` among spaces. */
const lookAlike = fc.oneof(
  fc.integer({ min: 4, max: 12 }).map((n) => ' '.repeat(n)),
  fc
    .tuple(
      fc.integer({ min: 0, max: 3 }),
      fc.array(fc.constantFrom(...HIDING), { minLength: 1, maxLength: 3 }),
      fc.integer({ min: 0, max: 3 })
    )
    .map(([before, hiding, after]) => `${' '.repeat(before)}${hiding.join('')}${' '.repeat(after)}`)
)

/** What may follow `/docs` in a command: ASCII white space then anything, or nothing at all. */
const anyRest = fc.oneof(
  fc.constant(''),
  fc
    .tuple(fc.constantFrom(' ', '\t', '\n', '\r\n', '  '), fc.string({ unit: 'grapheme' }))
    .map(([space, text]) => `${space}${text}`)
)

describe('look-alikes (properties over readCommand itself)', () => {
  it('any first line with a look-alike prefix never commands, whatever follows', () => {
    fc.assert(
      fc.property(lookAlike, anyRest, (prefix, rest) => {
        return readCommand(person(`${prefix}/docs${rest}`)).kind === 'ignored'
      }),
      { numRuns: 3000 }
    )
  })

  it('/docs glued to any other character never commands', () => {
    const glued = fc
      .string({ unit: 'binary', minLength: 1, maxLength: 4 })
      .filter((s) => !/^[ \t\r\n]/.test(s))
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 }), glued, (spaces, tail) => {
        return readCommand(person(`${' '.repeat(spaces)}/docs${tail}`)).kind === 'ignored'
      }),
      { numRuns: 2000 }
    )
  })

  it('any /docs after at most three spaces commands, and asks for what follows it, trimmed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 }), anyRest, (spaces, rest) => {
        const read = readCommand(person(`${' '.repeat(spaces)}/docs${rest}`))
        return read.kind === 'command' && read.request === rest.trim() && read.login === 'octocat'
      }),
      { numRuns: 3000 }
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
    [undefined, false],
    // One of GitHub's roles decides, whatever the legacy field says.
    [{ role: 'admin', permission: 'read' }, true],
    [{ role: 'maintain', permission: 'read' }, true],
    [{ role: 'write', permission: 'read' }, true],
    [{ role: 'read', permission: 'write' }, false],
    [{ role: 'maintain' }, true],
    [{ role: 'triage' }, false]
  ])('%j may command: %s', (permission, may) => {
    expect(mayCommand(permission)).toBe(may)
  })
})
