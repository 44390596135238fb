// A secret in every form the action redacts is cut from every text it writes, and a text without
// one comes back as it was. The oracle (`giveaways`) reads each text apart from the redaction's own
// scanner. The forms it does not look through are listed too, so the limit is in plain sight.
import { afterEach, describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { giveaways, KEPT, NOT_REDACTED, PART, readings } from '../__fixtures__/secret-forms.js'
import { addSecret, clearSecrets, PART_LENGTH, redact } from '../src/base/secrets/redact.js'

afterEach(() => clearSecrets())

/** Alphabets of real keys and tokens, and one with letters outside ASCII. */
const ALPHABETS = [
  'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-',
  '0123456789abcdef',
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=',
  'abcdefghijklmnopqrstuvwxyz0123456789!$%&.~:@#+/\\"',
  'abcdefghäöüßé€0123456789',
  // Its base64 is full of `+` and `/`, which base64url writes `-` and `_`.
  '>?~0123456789'
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

type Kept = keyof typeof KEPT
const KEPT_NAMES = Object.keys(KEPT) as Kept[]

/** A generated kept form: its name (shown when a run fails) and its details. */
const formArb = fc.tuple(fc.constantFrom(...KEPT_NAMES), fc.nat())

/** `secret` in the kept form `[name, n]`. */
function write(secret: string, [name, n]: [Kept, number]): string {
  return KEPT[name](secret, n)
}

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

const KEY = 'mint_k/e+y:v@l_>>>???~~~0123456789'

describe('redact: the forms a secret is redacted in', () => {
  it('uses the part length the oracle assumes', () => {
    expect(PART_LENGTH).toBe(PART)
  })

  it.each(KEPT_NAMES)('cuts it %s', (name) => {
    addSecret(KEY)
    for (const n of [0, 1, 2, 5]) {
      const written = write(KEY, [name, n])
      expect(giveaways(written, KEY)).not.toEqual([])
      const redacted = redact(`before ${written} after`)
      expect(redacted).toMatch(/^before [^]*\*\*\*[^]* after$/)
      expect(giveaways(redacted, KEY)).toEqual([])
    }
  })

  it('cuts a part of PART_LENGTH characters, and keeps a shorter one', () => {
    const secret = 'mint_0123456789abcdefghijklmnopqrstuvwxyz'
    addSecret(secret)
    const part = secret.slice(10, 10 + PART_LENGTH)
    expect(redact(`x ${part} y`)).toBe('x *** y')
    expect(redact(`x ${part.slice(1)} y`)).toBe(`x ${part.slice(1)} y`)
    expect(redact(`x ${KEPT.everyByte(part, 1)} y`)).toBe('x *** y')
  })

  it('cuts the span of the text as given, from the first escape to the last', () => {
    addSecret('mint_key')
    expect(redact('a%6dint\n  _\\u006bey\\u0021b')).toBe('a***\\u0021b')
  })

  it('finds a secret that holds what reads as an escape, written plainly or encoded', () => {
    const secret = 'p%41ss-w0rd-12345'
    addSecret(secret)
    for (const text of [secret, encodeURIComponent(secret), JSON.stringify(secret)]) {
      expect(redact(`[${text}]`)).toMatch(/^\[[^a-z]*\*\*\*[^a-z]*\]$/)
    }
    // What the secret's own escapes would decode to is another text.
    expect(redact('[pAss-w0rd-12345]')).toBe('[pAss-w0rd-12345]')
  })

  it('cuts credentials in a percent-encoded URL', () => {
    expect(redact('https%3A%2F%2Fu%3Atok%40host')).toBe('https%3A%2F%2F***%40host')
  })

  it('leaves no kept form of a generated secret, in any context (property)', () => {
    fc.assert(
      fc.property(
        secretArb,
        formArb,
        aroundArb,
        aroundArb,
        fc.integer({ min: 0, max: CONTEXTS.length - 1 }),
        (secret, form, before, after, where) => {
          clearSecrets()
          addSecret(secret)
          const text = CONTEXTS[where]?.(`${before}${write(secret, form)}${after}`) ?? ''
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
        formArb,
        aroundArb,
        (secret, from, form, around) => {
          clearSecrets()
          addSecret(secret)
          const start = from % (secret.length - PART)
          const part = secret.slice(start, start + PART + (from % 3))
          const text = `${around}${write(part, form)}${around}`
          // The oracle's parts are of the whole secret: any one in the text is a giveaway.
          expect(giveaways(redact(text), secret)).toEqual([])
        }
      ),
      { numRuns: 200 }
    )
  })
})

describe('redact: the forms it does not look through', () => {
  // Each would take one more decoding; the action keeps what the platform says out of what it
  // writes instead (docs/security.md).
  it.each(Object.keys(NOT_REDACTED) as (keyof typeof NOT_REDACTED)[])(
    'leaves a secret %s as it is',
    (name) => {
      const secret = 'mint_aceopxy_ACEMT_0a1e2o3p'
      addSecret(secret)
      const text = `before ${NOT_REDACTED[name](secret)} after`
      expect(text).not.toContain(secret.slice(0, PART_LENGTH))
      expect(redact(text)).toBe(text)
    }
  )

  it('leaves credentials in a URL written in HTML entities as they are', () => {
    const text = '&#104;ttps&#58;//user:pa&#115;s&#64;host/x'
    expect(redact(text)).toBe(text)
  })
})

/** Text without a secret: words, links, JSON, and ordinary text written as a secret could be. */
const ordinaryArb = fc.oneof(
  wordsArb,
  fc.string({ maxLength: 120 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  wordsArb.map((w) => JSON.stringify({ message: w, link: 'https://github.com/acme/docs/pull/7' })),
  fc.tuple(wordsArb, formArb).map(([w, form]) => write(w, form)),
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
