import { afterEach, describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import {
  defuseCommands,
  describeLink,
  escapeMarkup,
  forLog,
  safeLink
} from '../src/base/sanitize.js'
import { addSecret, clearSecrets } from '../src/base/secrets/redact.js'

afterEach(() => clearSecrets())

/** What the runner would take for a workflow command in one printed line. */
function startsCommand(line: string): boolean {
  return /^\s*::/.test(line) || line.includes('##[')
}

describe('forLog', () => {
  it('keeps ordinary text as it is', () => {
    expect(forLog('Project not found')).toBe('Project not found')
  })

  it('puts multi-line text on one line so no line of it can start a command', () => {
    const quoted = forLog('oops\n::warning::injected\r\n::stop-commands::token')
    expect(quoted.split('\n')).toHaveLength(1)
    expect(quoted).toContain('\\n::warning::injected')
  })

  it('defuses a command at the very start and the legacy ##[ form anywhere', () => {
    expect(startsCommand(forLog('  ::error::x'))).toBe(false)
    expect(startsCommand(forLog('text ##[error]x'))).toBe(false)
  })

  it('escapes other control characters and the unicode line separators', () => {
    expect(forLog('a\u0007b\u2028c\u001b[31m')).toBe('a\\u0007b\\u2028c\\u001b[31m')
  })

  it('shows bidirectional controls and zero-width characters instead of obeying them', () => {
    expect(forLog('abc\u202edcba\u200b')).toBe('abc\\u202edcba\\u200b')
  })

  it('redacts a secret before cutting, wherever the cut falls (property)', () => {
    const secret = 'mint_0123456789abcdefghij'
    addSecret(secret)
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.integer({ min: 1, max: 80 }), (a, b, max) => {
        const quoted = forLog(`${a}${secret}${b}`, max)
        // No run of the key's first 6 characters or more survives.
        return !quoted.includes(secret.slice(0, 6))
      })
    )
  })

  it('cuts long text and says how much was left out', () => {
    const quoted = forLog('x'.repeat(1000), 100)
    expect(quoted).toBe(`${'x'.repeat(100)}… (900 more characters)`)
  })

  it('leaves %0A alone: the runner does not decode it in log lines', () => {
    expect(forLog('a%0A::warning::b')).toBe('a%0A::warning::b')
  })
})

describe('defuseCommands', () => {
  it('breaks every line that would start a command and keeps the others', () => {
    const text = 'fine\n::warning::a\n   ::add-mask::b\nalso ##[group] fine'
    const lines = defuseCommands(text).split('\n')
    expect(lines).toHaveLength(4)
    expect(lines[0]).toBe('fine')
    expect(lines.filter(startsCommand)).toEqual([])
  })
})

describe('escapeMarkup', () => {
  it('escapes markup so the summary shows it as text', () => {
    expect(escapeMarkup(`<img src=x onerror="a('b')">&`)).not.toMatch(/[<>"'&](?![#a-z0-9]+;)/)
  })

  it('keeps server text from ending the HTML block or becoming links, images or mentions', () => {
    const hostile =
      'ok\n\n[click](https://evil.example) ![](https://evil.example/x.png) @octocat #1'
    const safe = escapeMarkup(hostile)
    expect(safe).not.toContain('\n')
    expect(safe.replace(/&#?[a-z0-9]+;/gi, '')).not.toMatch(/[[\]()!@#<>]/u)
    expect(safe).not.toContain('https://')
  })

  it('cuts after redacting', () => {
    addSecret('mint_abcdefghijklmnop')
    expect(escapeMarkup(`${'x'.repeat(10)}mint_abcdefghijklmnop`, 14)).not.toContain('mint')
  })
})

describe('safeLink', () => {
  it.each([
    ['https://github.com/acme/docs/pull/7', '7'],
    ['https://github.com/acme/docs/pull/123/files', '123'],
    ['https://GitHub.com/acme/docs/pull/9?x=1', '9'],
    ['http://127.0.0.1:3000/a/b/pull/1', '1'],
    ['https://gitlab.example/acme/docs/-/merge_requests/4', undefined],
    ['https://github.com/acme/docs/pull/12abc', undefined],
    ['https://github.com/acme/docs/issues/3?next=/pull/77', undefined]
  ])('accepts %s, number %s', (url, number) => {
    const link = safeLink(url)
    expect(link?.href).toBe(new URL(url).href)
    expect(link?.number).toBe(number)
  })

  it.each([
    'https://github.com/acme/docs/pull/7\npr-link<<EOF',
    'https://user:pass@github.com/acme/docs/pull/7',
    'https://token@github.com/acme/docs/pull/7',
    'https://github.com/acme/docs/pull/7?a=$(id)',
    'https://github.com/acme/docs/pull/7?a=1&b=2',
    'https://github.com/acme/docs/pull/7\u202e',
    'https:github.com/acme/docs/pull/7',
    'javascript:alert(1)',
    'https://github.com/a b',
    'not a url',
    '',
    null,
    undefined
  ])('refuses %j', (url) => {
    expect(safeLink(url)).toBeUndefined()
  })
})

describe('safeLink normalises', () => {
  it('percent-encodes what HTML or a shell would read as syntax', () => {
    expect(safeLink('https://github.com/acme/docs/pull/7?q="><script>')?.href).toBe(
      'https://github.com/acme/docs/pull/7?q=%22%3E%3Cscript%3E'
    )
  })
})

describe('describeLink', () => {
  it('never shows credentials, not even of a link it refuses', () => {
    expect(describeLink('https://user:hunter2@github.com/x')).toBe('https://***@github.com/x')
    expect(describeLink('https://ghp_token@host/x"')).not.toContain('ghp_token')
  })
})
