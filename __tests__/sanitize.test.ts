import { afterEach, describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { defuseCommands, describeLink, escapeMarkup, forLog, safeLink } from '../src/sanitize.js'
import { addSecret, clearSecrets, redact } from '../src/secrets/redact.js'
import {
  base64,
  base64url,
  decodesToSecret,
  formsOf,
  giveaways,
  PART
} from '../__fixtures__/secret-forms.js'

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

describe('redact', () => {
  it('removes every occurrence of a secret, also URL-encoded', () => {
    const key = 'mint_a+b/c'
    addSecret(key)
    expect(redact(`key ${key} and ${encodeURIComponent(key)} again ${key}`)).toBe(
      'key *** and *** again ***'
    )
  })

  it('ignores empty secrets', () => {
    addSecret('')
    expect(redact('text')).toBe('text')
  })

  it('is applied by defuseCommands too, the last step of every log line', () => {
    addSecret('mint_secret_value')
    expect(defuseCommands('::warning::mint_secret_value')).not.toContain('mint_secret')
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

/** Alphabets of real keys and tokens: alphanumeric with `_`/`-`, hex, base64, and punctuation. */
const ALPHABETS = [
  'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-',
  '0123456789abcdef',
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=',
  'abcdefghijklmnopqrstuvwxyz0123456789!$%&.~:@#+/'
]

/** A generated secret as the inputs carry it: an optional known prefix, 8 to 64 characters. */
const secretArb = fc
  .tuple(
    fc.constantFrom('', 'mint_', 'ghp_', 'ghs_', 'github_pat_'),
    fc
      .constantFrom(...ALPHABETS)
      .chain((alphabet) =>
        fc.string({ unit: fc.constantFrom(...alphabet), minLength: 8, maxLength: 64 })
      )
  )
  .map(([prefix, body]) => prefix + body)

/** The forms a secret is embedded in, as a text around it would carry it. */
const embeddings: ((secret: string, before: string, after: string) => string)[] = [
  ...formsOf('x').map(
    (_, i) => (secret: string, before: string, after: string) =>
      `${before}${formsOf(secret)[i]}${after}`
  ),
  // A whole request echoed back in base64: the key at whatever offset the text before it has.
  (secret, before, after) => base64(`${before}Authorization: Bearer ${secret}${after}`),
  (secret, before, after) => base64url(`${before}${secret}${after}`)
]

describe('redact: every form of a registered secret', () => {
  const key = 'mint_a+b/c_0123456789xyz'

  it.each(formsOf(key).map((form, i) => [i, form]))('removes form %i (%s)', (_, form) => {
    addSecret(key)
    const redacted = redact(`echoed: ${form} (end)`)
    expect(redacted).not.toContain(form)
    expect(decodesToSecret(redacted, key)).toBe(false)
    expect(redacted).toMatch(/^echoed: .*\*\*\*.* \(end\)$/)
  })

  it.each([0, 1, 2, 3, 4, 5])(
    'finds the key inside an echoed base64 text after %i bytes, at each of the three offsets',
    (shift) => {
      addSecret(key)
      const blob = base64(`${'x'.repeat(shift)}{"authorization":"Bearer ${key}","n":1}`)
      expect(decodesToSecret(blob, key)).toBe(true)
      const redacted = redact(`the API said: ${blob}`)
      expect(decodesToSecret(redacted, key)).toBe(false)
      expect(redacted).toContain('***')
    }
  )

  it('finds base64 that a JSON answer escaped (\\/) or a URL percent-encoded', () => {
    // ">>>" and "???" encode as "Pj4+" and "Pz8/": the characters those forms write otherwise.
    const secret = 'key>>>???~~~0001'
    addSecret(secret)
    const encoded = base64(`x-access-token:${secret}`)
    expect(encoded).toMatch(/\+.*\//)
    expect(decodesToSecret(encoded, secret)).toBe(true)
    const escaped = redact(`said "${encoded.replace(/\//g, '\\/')}"`)
    expect(decodesToSecret(escaped.replace(/\\\//g, '/'), secret)).toBe(false)
    const percent = redact(`said ?auth=${encodeURIComponent(encoded)}`)
    expect(decodesToSecret(decodeURIComponent(percent), secret)).toBe(false)
    expect([escaped, percent].every((text) => text.includes('***'))).toBe(true)
  })

  it('removes percent-encoding in either case, a mix of encoded and plain, and JSON escapes', () => {
    const secret = 'mint_k/e+y:v@l'
    addSecret(secret)
    for (const form of [
      'mint_k%2fe%2by%3av%40l',
      'mint_k/e%2By:v%40l',
      'mint_k\\/e\\u002by:v\\u0040l'
    ]) {
      expect(redact(`a ${form} b`)).toBe('a *** b')
    }
  })

  it('removes a non-ASCII secret percent-encoded and JSON-escaped as ASCII', () => {
    const secret = 'pässwörd-€-1234'
    addSecret(secret)
    const ascii = JSON.stringify(secret).replace(
      /[^\x20-\x7e]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
    )
    expect(redact(`x ${encodeURIComponent(secret)} y ${ascii.slice(1, -1)} z`)).toBe(
      'x *** y *** z'
    )
  })

  it('removes every registered secret, one inside another and overlapping', () => {
    addSecret('ghs_abcdefgh12345678')
    addSecret('abcdefgh')
    addSecret('12345678zzzz')
    expect(redact('a ghs_abcdefgh12345678zzzz b abcdefgh')).toBe('a *** b ***')
  })

  it('keeps JSON readable: a cut never leaves half an escape behind', () => {
    addSecret('"secret-value')
    const json = JSON.stringify({ note: 'line\n"secret-value', other: 'ok' })
    const redacted = redact(json)
    expect(redacted).not.toContain('secret-value')
    expect(JSON.parse(redacted)).toEqual({ note: 'line\n***', other: 'ok' })
  })

  it('leaves every form out for generated secrets in generated text (property)', () => {
    fc.assert(
      fc.property(
        fc.array(secretArb, { minLength: 1, maxLength: 3 }),
        fc.nat(),
        fc.integer({ min: 0, max: embeddings.length - 1 }),
        fc.string({ maxLength: 40 }),
        fc.string({ maxLength: 40 }),
        (registered, pick, how, before, after) => {
          clearSecrets()
          for (const secret of registered) addSecret(secret)
          const secret = registered[pick % registered.length] ?? ''
          const text = embeddings[how]?.(secret, before, after) ?? ''
          const redacted = redact(text)
          return (
            formsOf(secret).every((form) => !redacted.includes(form)) &&
            !decodesToSecret(redacted, secret)
          )
        }
      ),
      { numRuns: 500 }
    )
  })

  it('finds a key holding one kind of escape in a text that uses another (property)', () => {
    // A key with what reads as a percent escape or a backslash escape, written inside a JSON
    // string or a URL whose own escapes are of another kind.
    const inside = fc.constantFrom('%7a', '%41', '\\u0041', '\\n')
    // Each writes the key as its format must: its quote (and escapes) escaped in its own way.
    const around: ((key: string) => string)[] = [
      (key) => JSON.stringify({ error: `${key} is not valid` }),
      (key) => `https://example.com/?q=${encodeURIComponent(key)}`
    ]
    fc.assert(
      fc.property(
        // Shorter than a window (16 characters): only the whole key, escape and all, is found.
        fc.string({ unit: fc.constantFrom(...'abcdefXYZ0189_-'), minLength: 8, maxLength: 10 }),
        inside,
        fc.integer({ min: 0, max: around.length - 1 }),
        (body, escape, how) => {
          clearSecrets()
          const key = `"${escape}${body}`
          addSecret(key)
          const text = around[how]?.(key) ?? ''
          return !redact(text).includes(body)
        }
      ),
      { numRuns: 300 }
    )
  })

  it('cuts a key with a percent escape in it from JSON that quotes it', () => {
    clearSecrets()
    addSecret('"%7aaaaaaaa"')
    const json = JSON.stringify({ a: '"%7aaaaaaaa"', b: ['"%7aaaaaaaa"', 1] })
    expect(redact(json)).not.toContain('%7aaaaaaaa')
    expect(() => JSON.parse(redact(json)) as unknown).not.toThrow()
  })

  it('keeps JSON with any secret in it readable (property)', () => {
    fc.assert(
      fc.property(
        secretArb,
        fc.string({ unit: fc.constantFrom('"', '\\', 'a', '/', '\n', 'é'), maxLength: 3 }),
        fc.string({ maxLength: 20 }),
        fc.string({ maxLength: 20 }),
        (body, odd, before, after) => {
          clearSecrets()
          const secret = `${odd}${body}${odd}`
          addSecret(secret)
          const json = JSON.stringify({ a: `${before}${secret}${after}`, b: [secret, 1] })
          const parsed: unknown = JSON.parse(redact(json))
          return !JSON.stringify(parsed).includes(JSON.stringify(secret).slice(1, -1))
        }
      )
    )
  })

  it('changes no text that gives no secret away and has no URL credentials (property)', () => {
    const anyText = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
      fc.base64String({ maxLength: 200 })
    )
    fc.assert(
      fc.property(
        fc.array(secretArb, { minLength: 1, maxLength: 3 }),
        anyText,
        fc.option(
          fc.record({
            // A near miss: one of the secrets with a character inside it changed, in any form.
            at: fc.nat(),
            to: fc.constantFrom(...'AZaz09_-+/!~'),
            how: fc.integer({ min: 0, max: embeddings.length - 1 }),
            after: fc.string({ maxLength: 20 })
          })
        ),
        (registered, text, near) => {
          const secret = registered[0] ?? ''
          const at = 1 + ((near?.at ?? 0) % (secret.length - 2))
          const missed = secret.slice(0, at) + (near?.to ?? '') + secret.slice(at + 1)
          const input = near ? (embeddings[near.how]?.(missed, text, near.after) ?? '') : text
          // A near miss of a long secret still holds parts of it, and one that differs only in
          // case is the secret: those are cut, so only what gives no secret away is kept.
          fc.pre(
            !input.includes('@') &&
              registered.every((s) => giveaways(input, s, PART - 1).length === 0)
          )
          clearSecrets()
          for (const s of registered) addSecret(s)
          return redact(input) === input
        }
      ),
      { numRuns: 300 }
    )
  })
})

describe('redact: credentials in URLs', () => {
  it.each([
    ['https://user:s3cret@github.com/acme/docs', 'https://***@github.com/acme/docs'],
    ['clone https://ghp_abc@github.com/a/b.git now', 'clone https://***@github.com/a/b.git now'],
    ['HTTP://u:p@host:8080', 'HTTP://***@host:8080'],
    ['git+ssh://git:pw@example.com/x', 'git+ssh://***@example.com/x'],
    ['https://a:p@ss@host/x', 'https://***@host/x'],
    ['https:user:pw@host', 'https:***@host'],
    ['{"url":"https:\\/\\/u:tok@host\\/x"}', '{"url":"https:\\/\\/***@host\\/x"}'],
    ['next=https%3A%2F%2Fu%3Atok%40host%2Fx&y=1', 'next=https%3A%2F%2F***%40host%2Fx&y=1'],
    ['<a href="https://u:p@h/">x</a>', '<a href="https://***@h/">x</a>']
  ])('%s', (text, redacted) => {
    expect(redact(text)).toBe(redacted)
  })

  it.each([
    'write to me@example.com',
    'https://github.com/@octocat',
    'https://host/path?email=a@b.c',
    'https://host/#frag@x',
    '{"repository":"https://github.com","ref":"a@b"}',
    'ssh git@github.com:acme/docs.git',
    'https://***@github.com/acme/docs'
  ])('leaves %s as it is', (text) => {
    expect(redact(text)).toBe(text)
  })
})
