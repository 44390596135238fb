import { describe, expect, it } from '@jest/globals'
import { defuseCommands, escapeHtml, quote, redact, safeHttpUrl } from '../src/sanitize.js'

/** What the runner would take for a workflow command in one printed line. */
function startsCommand(line: string): boolean {
  return /^\s*::/.test(line) || line.includes('##[')
}

describe('quote', () => {
  it('keeps ordinary text as it is', () => {
    expect(quote('Project not found')).toBe('Project not found')
  })

  it('puts multi-line text on one line so no line of it can start a command', () => {
    const quoted = quote('oops\n::warning::injected\r\n::stop-commands::token')
    expect(quoted.split('\n')).toHaveLength(1)
    expect(quoted).toContain('\\n::warning::injected')
  })

  it('defuses a command at the very start and the legacy ##[ form anywhere', () => {
    expect(startsCommand(quote('  ::error::x'))).toBe(false)
    expect(startsCommand(quote('text ##[error]x'))).toBe(false)
  })

  it('escapes other control characters and the unicode line separators', () => {
    expect(quote('a\u0007b\u2028c\u001b[31m')).toBe('a\\u0007b\\u2028c\\u001b[31m')
  })

  it('cuts long text and says how much was left out', () => {
    const quoted = quote('x'.repeat(1000), 100)
    expect(quoted).toBe(`${'x'.repeat(100)}… (900 more characters)`)
  })

  it('leaves %0A alone: the runner does not decode it in log lines', () => {
    expect(quote('a%0A::warning::b')).toBe('a%0A::warning::b')
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

describe('redact', () => {
  it('removes every occurrence of a secret, also URL-encoded', () => {
    const key = 'mint_a+b/c'
    expect(redact(`key ${key} and ${encodeURIComponent(key)} again ${key}`, [key])).toBe(
      'key *** and *** again ***'
    )
  })

  it('ignores empty secrets', () => {
    expect(redact('text', [''])).toBe('text')
  })
})

describe('escapeHtml', () => {
  it('escapes markup so the summary shows it as text', () => {
    expect(escapeHtml(`<img src=x onerror="a('b')">&`)).toBe(
      '&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;'
    )
  })
})

describe('safeHttpUrl', () => {
  it.each(['https://github.com/acme/docs/pull/7', 'http://127.0.0.1:3000/pull/1'])(
    'accepts %s',
    (url) => {
      expect(safeHttpUrl(url)).toBe(url)
    }
  )

  it.each([
    'https://github.com/acme/docs/pull/7\npr-link<<EOF',
    'javascript:alert(1)',
    'https://github.com/a b',
    'not a url',
    '',
    null,
    undefined
  ])('refuses %j', (url) => {
    expect(safeHttpUrl(url)).toBeUndefined()
  })
})
