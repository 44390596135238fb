// A registered secret, in every form it is echoed in, and the credentials of any URL are cut from
// text, and a text without one is left as it was: the examples and properties of `redact` itself.
import { afterEach, describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { defuseCommands } from '../src/base/sanitize.js'
import { addSecret, clearSecrets, redact } from '../src/base/secrets/redact.js'
import {
  base64,
  base64url,
  decodesToSecret,
  formsOf,
  giveaways,
  PART
} from '../__fixtures__/secret-forms.js'

afterEach(() => clearSecrets())

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
