// A secret written in any encoding, or in several at once, is cut from every text the action
// writes, and a text without one comes back as it was. The oracle (`giveaways`) reads each text in
// every way the fixture knows, apart from the redaction's own scanner.
import { afterEach, describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import {
  CHAR_WRITINGS,
  giveaways,
  PART,
  readings,
  SEPARATORS,
  WHOLE_WRITINGS,
  writeSecret,
  type Writing
} from '../__fixtures__/secret-encodings.js'
import { PART_LENGTH } from '../src/secrets/forms.js'
import { addSecret, clearSecrets, redact } from '../src/secrets/redact.js'

afterEach(() => clearSecrets())

/** Alphabets of real keys and tokens, and one with letters outside ASCII. */
const ALPHABETS = [
  'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-',
  '0123456789abcdef',
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=',
  'abcdefghijklmnopqrstuvwxyz0123456789!$%&.~:@#+/',
  'abcdefghäöüßé€0123456789'
]

/** A generated secret: an optional known prefix and 8 to 48 characters of one alphabet. */
const secretArb = fc
  .tuple(
    fc.constantFrom('', 'mint_', 'ghp_', 'ghs_', 'github_pat_'),
    fc
      .constantFrom(...ALPHABETS)
      .chain((alphabet) =>
        fc.string({ unit: fc.constantFrom(...alphabet), minLength: 8, maxLength: 48 })
      )
  )
  .map(([prefix, body]) => prefix + body)

/** A generated way of writing a secret: each character's writing, separators, the whole. */
const writingArb: fc.Arbitrary<Writing> = fc.record({
  chars: fc.array(fc.constantFrom(...CHAR_WRITINGS), { minLength: 1, maxLength: 8 }),
  separators: fc.oneof(
    fc.constant([]),
    fc.array(fc.oneof(fc.constant(''), fc.constantFrom(...SEPARATORS)), {
      minLength: 1,
      maxLength: 6
    })
  ),
  whole: fc.constantFrom(...WHOLE_WRITINGS)
})

/** Ordinary words, for text around a secret and text without one. */
const WORDS = [
  'the',
  'docs',
  'job',
  'failed',
  'pull',
  'request',
  'Mintlify',
  'agent',
  'token',
  'key',
  'abcdef',
  '0123',
  'https://github.com/acme/docs/pull/7',
  'a%20b',
  '&amp;',
  '\\n',
  '"quoted"',
  'Ünïcödé',
  '→'
]
const wordsArb = fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }).map((w) => w.join(' '))

/** Text around a secret: generated characters or words. */
const aroundArb = fc.oneof(fc.string({ maxLength: 24 }), wordsArb)

/** Where a written secret sits: free text, a JSON answer, a link, an HTML attribute. */
const CONTEXTS: ((inner: string) => string)[] = [
  (inner) => inner,
  (inner) => JSON.stringify({ error: inner, id: 'job_1' }),
  (inner) => `https://github.com/acme/docs/pull/7?via=${inner}`,
  (inner) => `<a href="${inner}">link</a>`
]

describe('redact: a secret in any encoding', () => {
  it('uses the part length the oracle assumes', () => {
    expect(PART_LENGTH).toBe(PART)
  })

  it.each([
    ['percent-encoded, every character, either case', '%6D%69%6e%74%5F%6b%65%79'],
    ['HTML decimal and hex entities', '&#109;&#x69;&#X6E;&#116;&#95;&#107;&#0101;&#x79;'],
    ['named entities and JSON escapes', 'mint&lowbar;\\u006b\\u0065y'],
    ['upper case', 'MINT_KEY'],
    ['split by spaces and line breaks', 'mi nt\r\n_k\tey'],
    ['split by zero-width and bidi characters', 'm\u200bi\u202en\u2066t_\ufeffk\u00ade\u200dy'],
    ['percent-encoded twice', '%256D%2569%256E%2574_key'],
    ['an entity inside JSON inside a URL', '%26%23109%3Bint_key'],
    ['hex of its bytes', '6d696e745f6b6579'],
    ['hex in upper case, spaced', '6D 69 6E 74 5F 6B 65 79']
  ])('cuts it %s', (_, written) => {
    addSecret('mint_key')
    expect(redact(`before ${written} after`)).toBe('before *** after')
  })

  it('cuts a part of PART_LENGTH characters, and keeps a shorter one', () => {
    const secret = 'mint_0123456789abcdefghijklmnopqrstuvwxyz'
    addSecret(secret)
    const part = secret.slice(10, 10 + PART_LENGTH)
    expect(redact(`x ${part} y`)).toBe('x *** y')
    expect(redact(`x ${part.slice(1)} y`)).toBe(`x ${part.slice(1)} y`)
    expect(redact(`x ${encodeURIComponent(part).toUpperCase()} y`)).toBe('x *** y')
  })

  it('cuts the span of the text as given, from the first escape to the last', () => {
    addSecret('mint_key')
    const text = 'a%6dINT\u200b_&#107;ey\\u0021b'
    expect(redact(text)).toBe('a***\\u0021b')
  })

  it('finds a secret that holds what reads as an escape, written plainly or encoded', () => {
    const percent = 'p%41ss-w0rd-12345'
    const entity = 'pass&amp;w0rd-123'
    addSecret(percent)
    addSecret(entity)
    for (const text of [
      percent,
      encodeURIComponent(percent),
      entity,
      entity.replace(/&/g, '&amp;')
    ]) {
      expect(redact(`[${text}]`)).toBe('[***]')
    }
    // What the secret's own escapes would decode to is another text.
    expect(redact('[pAss-w0rd-12345]')).toBe('[pAss-w0rd-12345]')
    expect(redact('[pass&w0rd-123]')).toBe('[pass&w0rd-123]')
  })

  it('cuts credentials in a URL written in entities or percent-encoded', () => {
    expect(redact('&#104;ttps&#58;//user:pa&#115;s&#64;host/x')).toBe(
      '&#104;ttps&#58;//***&#64;host/x'
    )
    expect(redact('https%3A%2F%2Fu%3Atok%40host')).toBe('https%3A%2F%2F***%40host')
  })

  it('leaves no form of a generated secret, written any way, in any context (property)', () => {
    fc.assert(
      fc.property(
        secretArb,
        writingArb,
        aroundArb,
        aroundArb,
        fc.integer({ min: 0, max: CONTEXTS.length - 1 }),
        (secret, writing, before, after, where) => {
          clearSecrets()
          addSecret(secret)
          const text = CONTEXTS[where]?.(`${before}${writeSecret(secret, writing)}${after}`) ?? ''
          expect(giveaways(redact(text), secret)).toEqual([])
        }
      ),
      { numRuns: 400 }
    )
  })

  it('leaves no part of PART characters of a generated secret (property)', () => {
    fc.assert(
      fc.property(
        secretArb.filter((s) => s.length > PART + 2),
        fc.nat(),
        writingArb,
        aroundArb,
        (secret, from, writing, around) => {
          clearSecrets()
          addSecret(secret)
          const start = from % (secret.length - PART)
          const part = secret.slice(start, start + PART + (from % 3))
          const text = `${around}${writeSecret(part, writing)}${around}`
          // The oracle's parts are of the whole secret: any one in the text is a giveaway.
          expect(giveaways(redact(text), secret)).toEqual([])
        }
      ),
      { numRuns: 200 }
    )
  })
})

/** Text without a secret: words, links, JSON, and ordinary text encoded as a secret could be. */
const ordinaryArb = fc.oneof(
  wordsArb,
  fc.string({ maxLength: 120 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  wordsArb.map((w) => JSON.stringify({ message: w, link: 'https://github.com/acme/docs/pull/7' })),
  fc.tuple(wordsArb, writingArb).map(([w, writing]) => writeSecret(w, writing)),
  fc.base64String({ maxLength: 120 })
)

describe('redact: text without a secret', () => {
  it('comes back unchanged (property)', () => {
    fc.assert(
      fc.property(
        fc.array(secretArb, { minLength: 1, maxLength: 3 }),
        ordinaryArb,
        (list, text) => {
          fc.pre(list.every((secret) => giveaways(text, secret, PART - 1).length === 0))
          fc.pre(readings(text).every((reading) => !reading.includes('@')))
          clearSecrets()
          for (const secret of list) addSecret(secret)
          expect(redact(text)).toBe(text)
        }
      ),
      { numRuns: 300 }
    )
  })

  it('keeps words that hold short pieces of a secret (property)', () => {
    fc.assert(
      fc.property(
        secretArb,
        fc.array(fc.integer({ min: 1, max: PART - 1 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.constantFrom(...WORDS.filter((w) => !w.includes('%'))), { minLength: 6 }),
        (secret, sizes, words) => {
          // The secret in pieces shorter than a part, each between ordinary words.
          const pieces: string[] = []
          let at = 0
          for (const size of sizes) {
            pieces.push(secret.slice(at, at + size), words[pieces.length % words.length] ?? 'x')
            at += size
          }
          const text = pieces.join(' ')
          fc.pre(giveaways(text, secret, PART - 1).length === 0 && !text.includes('@'))
          clearSecrets()
          addSecret(secret)
          expect(redact(text)).toBe(text)
        }
      ),
      { numRuns: 300 }
    )
  })
})
